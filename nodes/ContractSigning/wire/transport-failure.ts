/**
 * Failures before any usable reply. A message names no network error code: n8n's error replaces a
 * message naming one (ECONNREFUSED …) with its own words for it.
 */
import { ItemFailure, TRY_LATER, type Outcome } from '../failure/item-failure';

/** The TLS handshake failed: nothing was sent. */
const TLS_FAILURE =
	/^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH$)/;

const CHECK_BASE_URL = "Check 'Base URL' in the Contract Signing credential";

/** No reply in time: n8n's request helper names it ECONNABORTED, as it does a closed connection. */
function isTimeout(code: string, detail: string): boolean {
	return code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(detail));
}

/** The network's text in brackets, unless it names a code (`read ECONNRESET`): see the top. */
function inBrackets(detail: string): string {
	return detail && !/\bE[A-Z]{3,}\b/.test(detail) ? ` (${detail})` : '';
}

/**
 * Timeout (Settings → Request Options) starts at 10000 ms when added, below the 300000 without
 * it: so the hint names a value above what the request had.
 */
function timeoutHint(hadMs: number | undefined): string {
	const value = hadMs ? ` more than ${hadMs}, such as ${hadMs * 2}` : ' more milliseconds';
	return `To give the service more time, open the node’s Settings, add Timeout under Request Options and enter${value} (it counts milliseconds); Batching there spaces requests out.`;
}

export function describeTransportFailure(
	code: string,
	detail: string,
	timeoutMs?: number,
): ItemFailure {
	const failure = (message: string, description: string, outcome: Outcome) =>
		new ItemFailure(outcome, message, description, {
			code: isTimeout(code, detail) ? 'ETIMEDOUT' : code || undefined,
		});
	if (code === 'ECONNREFUSED') {
		const hint = `Nothing answers at the Base URL. ${CHECK_BASE_URL} and that the service is up.`;
		return failure('The service refused the connection', hint, 'busy');
	}
	if (code === 'EAI_AGAIN') {
		const hint = `Nothing was sent: the name server did not answer. ${TRY_LATER}`;
		return failure('The Base URL’s host name could not be looked up', hint, 'busy');
	}
	if (code === 'ENOTFOUND') {
		const hint = `Nothing was sent. ${CHECK_BASE_URL}.`;
		return failure('The Base URL’s host name is unknown', hint, 'refused');
	}
	if (TLS_FAILURE.test(code)) {
		const hint = `Nothing was sent. ${CHECK_BASE_URL}. If the service uses a certificate of your own organisation, turn on Ignore SSL Issues (Insecure) under the node’s Settings → Request Options.`;
		const message = `The service’s secure connection could not be trusted${inBrackets(detail || code)}`;
		return failure(message, hint, 'refused');
	}
	if (isTimeout(code, detail)) {
		const message = `The service did not answer in time${inBrackets(detail)}`;
		return failure(message, `${timeoutHint(timeoutMs)} ${TRY_LATER}`, 'unknown');
	}
	if (
		['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) ||
		/aborted|hang up|closed/i.test(detail)
	) {
		const message = `The connection closed before the reply was complete${inBrackets(detail)}`;
		return failure(message, TRY_LATER, 'unknown');
	}
	const hint = `${CHECK_BASE_URL}. What the network said: ${detail || code}.`;
	return failure(`The request to the service failed${inBrackets(detail)}`, hint, 'unknown');
}

/** A request n8n would not send, such as one outside Allowed HTTP Request Domains. */
export function notSent(message: string): ItemFailure {
	return new ItemFailure(
		'refused',
		message,
		"Nothing was sent. Check 'Base URL' in the Contract Signing credential, and, if 'Allowed HTTP Request Domains' is set there, that it includes the host of 'Base URL'.",
	);
}

/**
 * The network error's code and text, read as Microsoft Dataverse reads them, and whether the
 * request was sent: an error with no code that is not axios's came before, such as the credential's
 * refusal to send the key elsewhere. n8n wraps either in a NodeApiError: 2.x keeps it as `cause`;
 * 1.x keeps the code in `httpCode` and the text in `messages`.
 */
export function networkError(error: unknown): { code?: string; detail: string; sent: boolean } {
	type Failure = { name?: unknown; cause?: unknown; httpCode?: unknown; messages?: unknown };
	const wrapped = error as Failure;
	if (wrapped?.name === 'NodeApiError' && !(typeof wrapped.cause === 'object' && wrapped.cause)) {
		const { httpCode, messages } = wrapped;
		const code = typeof httpCode === 'string' && !/^\d+$/.test(httpCode) ? httpCode : undefined;
		const [first] = Array.isArray(messages) ? (messages as unknown[]) : [];
		const detail = typeof first === 'string' ? first : String((error as Error).message);
		return { code, detail, sent: code !== undefined };
	}
	const inner = wrapped?.name === 'NodeApiError' ? wrapped.cause : error;
	const failure = inner as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const found = failure.code ?? failure.cause?.code;
	const code = typeof found === 'string' && found ? found : undefined;
	return {
		code,
		detail: typeof failure.message === 'string' ? failure.message : String(inner),
		sent: code !== undefined || (inner as { isAxiosError?: unknown }).isAxiosError === true,
	};
}
