/**
 * Failures before any usable reply: what happened, in the node's words, what to do, and whether
 * the request may have reached the service. A message holds no network error code: n8n's error
 * replaces a message naming one (ECONNREFUSED …) with its own words for it.
 */
import { TRY_LATER, type Outcome } from '../failure/item-failure';

export interface TransportFailure {
	message: string;
	description: string;
	outcome: Outcome;
}

/** Failures of the TLS handshake (certificate, protocol): they happen before the request is sent. */
const TLS_FAILURE =
	/^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH$)/;

const CHECK_BASE_URL = "Check 'Base URL' in the Contract Signing credential";

interface Rule {
	matches: (code: string, detail: string) => boolean;
	failure: (code: string, detail: string, timeoutMs?: number) => TransportFailure;
}

/** No reply in time: n8n's request helper names it ECONNABORTED, as it does a closed connection. */
export function isTimeout(code: string, detail: string): boolean {
	return code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(detail));
}

/**
 * The network text in brackets for a message, unless it names a code (`read ECONNRESET`): see
 * the top. Every message that shows the network's text shows it through this.
 */
function inBrackets(detail: string): string {
	return detail && !/\bE[A-Z]{3,}\b/.test(detail) ? ` (${detail})` : '';
}

/** The first rule that matches describes the failure. */
const RULES: Rule[] = [
	{
		matches: (code) => code === 'ECONNREFUSED',
		failure: () => ({
			message: 'The service refused the connection',
			description: `Nothing answers at the Base URL. ${CHECK_BASE_URL} and that the service is up.`,
			outcome: 'busy',
		}),
	},
	{
		// The name server did not answer in time: nothing was sent, and it may answer next time.
		matches: (code) => code === 'EAI_AGAIN',
		failure: () => ({
			message: 'The Base URL’s host name could not be looked up',
			description: `Nothing was sent: the name server did not answer. ${TRY_LATER}`,
			outcome: 'busy',
		}),
	},
	{
		matches: (code) => code === 'ENOTFOUND',
		failure: () => ({
			message: 'The Base URL’s host name is unknown',
			description: `Nothing was sent. ${CHECK_BASE_URL}.`,
			outcome: 'refused',
		}),
	},
	{
		matches: (code) => TLS_FAILURE.test(code),
		failure: (code, detail) => ({
			message: `The service’s secure connection could not be trusted${inBrackets(detail || code)}`,
			description: `Nothing was sent. ${CHECK_BASE_URL}. If the service uses a certificate of your own organisation, turn on Ignore SSL Issues (Insecure) under the node’s Settings → Request Options.`,
			outcome: 'refused',
		}),
	},
	{
		matches: isTimeout,
		failure: (_code, detail, timeoutMs) => ({
			message: `The service did not answer in time${inBrackets(detail)}`,
			description: `${timeoutHint(timeoutMs)} ${TRY_LATER}`,
			outcome: 'unknown',
		}),
	},
	{
		matches: (code, detail) =>
			['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) ||
			/aborted|hang up|closed/i.test(detail),
		failure: (_code, detail) => ({
			message: `The connection closed before the reply was complete${inBrackets(detail)}`,
			description: TRY_LATER,
			outcome: 'unknown',
		}),
	},
];

/**
 * Where the user gives each request more time. Timeout there counts milliseconds and starts at
 * 10000 when added, less than the node's own 300000 without it: so the hint names a value above
 * what the request had.
 */
function timeoutHint(hadMs: number | undefined): string {
	const value = hadMs ? ` more than ${hadMs}, such as ${hadMs * 2}` : ' more milliseconds';
	return `To give the service more time, open the node’s Settings, add Timeout under Request Options and enter${value} (it counts milliseconds); Batching there spaces requests out.`;
}

/** The failure of a request that had `timeoutMs` to get its reply. */
export function describeTransportFailure(
	code: string,
	detail: string,
	timeoutMs?: number,
): TransportFailure {
	const rule = RULES.find(({ matches }) => matches(code, detail));
	if (rule) return rule.failure(code, detail, timeoutMs);
	return {
		message: `The request to the service failed${inBrackets(detail)}`,
		description: `${CHECK_BASE_URL}. What the network said: ${detail || code}.`,
		outcome: 'unknown',
	};
}

/**
 * A request n8n would not send, such as one to a host outside the credential's Allowed HTTP
 * Request Domains: n8n's message, as it is.
 */
export function notSent(message: string): TransportFailure {
	return {
		message,
		description:
			"Nothing was sent. Check 'Base URL' in the Contract Signing credential, and, if 'Allowed HTTP Request Domains' is set there, that it includes the host of 'Base URL'.",
		outcome: 'refused',
	};
}

/**
 * The network error's code (ECONNREFUSED, ECONNABORTED …) and its text, read as n8n-nodes-base's
 * Microsoft Dataverse reads them (`getNetworkErrorCode`), and whether the error came from the
 * request at all: one without a code that is not the request library's (`isAxiosError`) was
 * raised before the request was made, such as the credential's refusal to send the key to another
 * origin. `httpRequestWithAuthentication` wraps either in a NodeApiError: n8n 2.x keeps the error
 * as its `cause`; n8n 1.x keeps none, only the code in `httpCode` and the text in `messages`.
 */
export function networkError(error: unknown): { code?: string; detail: string; sent: boolean } {
	const wrapped = error as {
		name?: unknown;
		cause?: unknown;
		httpCode?: unknown;
		messages?: unknown;
	};
	if (wrapped?.name === 'NodeApiError' && !(typeof wrapped.cause === 'object' && wrapped.cause)) {
		const code =
			typeof wrapped.httpCode === 'string' && !/^\d+$/.test(wrapped.httpCode)
				? wrapped.httpCode
				: undefined;
		const [first] = Array.isArray(wrapped.messages) ? (wrapped.messages as unknown[]) : [];
		return {
			code,
			detail: typeof first === 'string' ? first : String((error as Error).message),
			sent: code !== undefined,
		};
	}
	const inner = wrapped?.name === 'NodeApiError' ? wrapped.cause : error;
	const failure = inner as {
		code?: unknown;
		cause?: { code?: unknown };
		message?: unknown;
		isAxiosError?: unknown;
	};
	const found = failure.code ?? failure.cause?.code;
	const code = typeof found === 'string' && found ? found : undefined;
	return {
		code,
		detail: typeof failure.message === 'string' ? failure.message : String(inner),
		sent: code !== undefined || failure.isAxiosError === true,
	};
}
