import type { IDataObject } from 'n8n-workflow';

export type Resource = 'client' | 'user' | 'contract';

export interface ReplyFailure {
	ok: false;
	message: string;
	description: string;
	httpCode: string;
}

export type ReplyCheck = { ok: true; body: IDataObject } | ReplyFailure;

const RETRY_HINT =
	'This is usually temporary and worth a retry: turn on Retry On Fail in the node settings, or run the workflow again later.';

function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSuccess(code: string): boolean {
	return /^2\d\d$/.test(code);
}

function hintFor(code: string, resource: Resource): string {
	if (code === '401' || code === '403') {
		return 'The service refused the API key. Check the API Key in the Contract Signing credential.';
	}
	if (code === '404') {
		return resource === 'client'
			? 'Check the Base URL in the Contract Signing credential.'
			: 'Check the keys this node sends (Client Key, User Key, Template Key): the service does not know one of them.';
	}
	if (code === '409')
		return 'The service cannot do this in the current state of the record. Check the keys and fields this node sends.';
	if (code === '429') {
		return 'The service is receiving too many requests. Space them out with Options → Batching, and turn on Retry On Fail in the node settings to retry automatically.';
	}
	if (/^5\d\d$/.test(code)) return `The service had a problem. ${RETRY_HINT}`;
	return 'Check the fields of this node against the message above.';
}

function isRetryable(code: string): boolean {
	return code === '429' || /^5\d\d$/.test(code);
}

function describeNonJson(statusCode: number, body: unknown): string {
	if (body === undefined || body === null || body === '') {
		return `The service sent an empty reply (HTTP ${statusCode})`;
	}
	if (typeof body === 'string' && /^\s*</.test(body)) {
		return `The service sent a web page instead of data (HTTP ${statusCode})`;
	}
	if (typeof body === 'string' && /^\s*[[{]/.test(body)) {
		return `The service sent an incomplete reply (HTTP ${statusCode}): it may have been cut off`;
	}
	return `The service sent a reply that is not JSON (HTTP ${statusCode})`;
}

/**
 * The one place that knows the service's reply format. Success needs a 2xx HTTP status,
 * a 2xx `code` in the body (text or number) and the resource member.
 */
export function checkReply(statusCode: number, body: unknown, resource: Resource): ReplyCheck {
	const status = String(statusCode);
	if (!isPlainObject(body)) {
		return {
			ok: false,
			message: describeNonJson(statusCode, body),
			description: isRetryable(status)
				? hintFor(status, resource)
				: `Check that the Base URL in the Contract Signing credential points to the service. ${RETRY_HINT}`,
			httpCode: status,
		};
	}
	const code = body.code === undefined || body.code === null ? '' : String(body.code);
	const serviceMessage = typeof body.message === 'string' ? body.message.trim() : '';
	if (isSuccess(status) && isSuccess(code)) {
		if (isPlainObject(body[resource])) return { ok: true, body };
		return {
			ok: false,
			message: `The service replied "${serviceMessage || code}" but sent no ${resource} record`,
			description: `The reply lacks the ${resource} the next steps need. ${RETRY_HINT}`,
			httpCode: code,
		};
	}
	const errorCode = isSuccess(code) || code === '' ? status : code;
	return {
		ok: false,
		message: serviceMessage || `The service answered with code ${errorCode} and no message`,
		description: hintFor(errorCode, resource),
		httpCode: errorCode,
	};
}

/**
 * A failure before any usable reply: what happened and what to do, from the network error's code
 * and text. n8n's own wording is kept where it is right (a refused connection) and replaced where
 * it misleads (it calls a timeout "aborted, perhaps the server is offline").
 */
export function describeTransportFailure(
	code: string,
	detail: string,
	message: string,
): { message: string; description: string } {
	if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return {
			message,
			description:
				'Nothing answers at the Base URL. Check the Base URL in the Contract Signing credential and that the service is up.',
		};
	}
	if (code === 'ETIMEDOUT' || (code === 'ECONNABORTED' && /timeout/i.test(detail))) {
		return {
			message: `The service did not answer in time (${detail})`,
			description: `Raise Options → Timeout, or space requests out with Options → Batching. ${RETRY_HINT}`,
		};
	}
	if (
		code === 'ECONNRESET' ||
		code === 'EPIPE' ||
		code === 'ECONNABORTED' ||
		/aborted|hang up|closed/i.test(detail)
	) {
		return {
			message: `The connection closed before the reply was complete (${detail})`,
			description: RETRY_HINT,
		};
	}
	return { message, description: 'Check the Base URL in the Contract Signing credential.' };
}

/** The value with every occurrence of the secret, in any string inside it, masked. */
export function withoutSecret<T>(value: T, secret: string | undefined): T {
	if (!secret) return value;
	if (typeof value === 'string') return value.split(secret).join('***') as T;
	if (Array.isArray(value)) return value.map((entry) => withoutSecret(entry, secret)) as T;
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, withoutSecret(entry, secret)]),
		) as T;
	}
	return value;
}
