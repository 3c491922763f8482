/**
 * Failures before any usable reply: what happened, what to do, and whether the request may have
 * reached the service. n8n's own wording is kept where it is right (a refused connection) and
 * replaced where it misleads (it calls a timeout "aborted, perhaps the server is offline").
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

const CHECK_BASE_URL = 'Check the Base URL in the Contract Signing credential';

interface Rule {
	matches: (code: string, detail: string) => boolean;
	failure: (code: string, detail: string, message: string) => TransportFailure;
}

/** No reply in time: n8n's request helper names it ECONNABORTED, as it does a closed connection. */
export function isTimeout(code: string, detail: string): boolean {
	return code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(detail));
}

/** The first rule that matches describes the failure. */
const RULES: Rule[] = [
	{
		matches: (code) => code === 'ECONNREFUSED',
		failure: (_code, _detail, message) => ({
			message,
			description: `Nothing answers at the Base URL. ${CHECK_BASE_URL} and that the service is up.`,
			outcome: 'busy',
		}),
	},
	{
		matches: (code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN',
		failure: (_code, _detail, message) => ({
			message,
			description: `Nothing was sent: the Base URL’s host name is unknown. ${CHECK_BASE_URL}.`,
			outcome: 'refused',
		}),
	},
	{
		matches: (code) => TLS_FAILURE.test(code),
		failure: (code, detail) => ({
			message: `The service’s secure connection could not be trusted (${detail || code})`,
			description: `Nothing was sent. ${CHECK_BASE_URL}. If the service uses a certificate of your own organisation, turn on Ignore SSL Issues (Insecure) under the node’s Settings → Request Options.`,
			outcome: 'refused',
		}),
	},
	{
		matches: isTimeout,
		failure: (_code, detail) => ({
			message: `The service did not answer in time (${detail})`,
			description: `${timeoutHint(/timeout of (\d+)ms/.exec(detail)?.[1])} ${TRY_LATER}`,
			outcome: 'unknown',
		}),
	},
	{
		matches: (code, detail) =>
			['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) ||
			/aborted|hang up|closed/i.test(detail),
		failure: (_code, detail) => ({
			message: `The connection closed before the reply was complete (${detail})`,
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
function timeoutHint(hadMs: string | undefined): string {
	const value = hadMs ? ` more than ${hadMs}, such as ${Number(hadMs) * 2}` : ' more milliseconds';
	return `To give the service more time, open the node’s Settings, add Timeout under Request Options and enter${value} (it counts milliseconds); Batching there spaces requests out.`;
}

export function describeTransportFailure(
	code: string,
	detail: string,
	message: string,
): TransportFailure {
	// n8n's own check of the credential's Allowed HTTP Request Domains, before anything is sent.
	const refusedByN8n = [detail, message].find((text) => /^Domain not allowed/.test(text));
	if (refusedByN8n) {
		return {
			message: refusedByN8n,
			description:
				'Nothing was sent. Add the Base URL’s host to Allowed HTTP Request Domains in the Contract Signing credential, or correct the Base URL.',
			outcome: 'refused',
		};
	}
	const rule = RULES.find(({ matches }) => matches(code, detail));
	if (rule) return rule.failure(code, detail, message);
	return { message, description: `${CHECK_BASE_URL}.`, outcome: 'unknown' };
}

/**
 * The network error's code (ECONNREFUSED, ECONNABORTED …) and its own text. n8n 2.x keeps the
 * request error as the `cause`; n8n 1.x wraps it in a NodeApiError whose `httpCode` is the code
 * and whose `messages` hold the text.
 */
export function networkError(error: unknown): { code?: string; detail: string } {
	const failure = error as {
		cause?: { code?: string; message?: string };
		httpCode?: unknown;
		messages?: unknown;
	};
	const wrappedCode =
		typeof failure.httpCode === 'string' && /^E[A-Z_]+$/.test(failure.httpCode)
			? failure.httpCode
			: undefined;
	const wrappedText = Array.isArray(failure.messages) ? failure.messages[0] : undefined;
	return {
		code: failure.cause?.code ?? wrappedCode,
		detail: failure.cause?.message ?? (typeof wrappedText === 'string' ? wrappedText : ''),
	};
}
