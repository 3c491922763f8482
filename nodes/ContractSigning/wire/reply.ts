/**
 * How the node reads the service's reply to an operation: what it must hold, and what a failed
 * one means for the record. The credential's test reads its reply by the credential's own rules.
 */
import type { IDataObject } from 'n8n-workflow';
import { BUSY_STATUSES } from '../../../credentials/ContractSigningApi.credentials';
import type { Operation } from '../description/operation';
import { TRY_LATER, type Outcome } from '../failure/item-failure';

/** What the operation's reply must hold, and what to check when the service answers 404. */
export type ExpectedReply = Pick<Operation, 'record' | 'notFoundHint'>;

export interface ReplyFailure {
	ok: false;
	message: string;
	description: string;
	httpCode: string;
	outcome: Outcome;
	/** How long the service asked to wait (Retry-After), in milliseconds. */
	retryAfterMs?: number;
}

export type ReplyCheck = { ok: true; body: IDataObject } | ReplyFailure;

export type ReplyHeaders = Record<string, unknown>;

/** An object of fields, as JSON has them: not a list, not null, not a date or other class. */
export function isPlainObject(value: unknown): value is IDataObject {
	return Object.prototype.toString.call(value) === '[object Object]';
}

const NOT_COMPLETED = 'The service could not complete the request.';

/** The service's message as it is shown: whole, unless it is longer than anyone reads. */
const LONGEST_MESSAGE = 2000;

/** The text, cut after `longest` characters with a note of how much was left out. */
function boundText(text: string, longest: number): string {
	if (text.length <= longest) return text;
	return `${text.slice(0, longest)}… (${text.length - longest} more characters)`;
}

function hasRecordKey(body: IDataObject, { member, key: name }: ExpectedReply['record']): boolean {
	const record = body[member];
	if (!isPlainObject(record)) return false;
	const key = record[name];
	return (typeof key === 'string' && key.trim() !== '') || typeof key === 'number';
}

function isSuccess(code: string): boolean {
	return /^2\d\d$/.test(code);
}

/** The service says it is busy: it did not act, and asks to be asked again later. */
export function isBusyCode(code: unknown): boolean {
	return BUSY_STATUSES.some((status) => String(status) === code);
}

function outcomeOf(code: string): Outcome {
	if (isBusyCode(code)) return 'busy';
	if (/^[34]\d\d$/.test(code)) return 'refused';
	return 'unknown';
}

function hintFor(code: string, notFoundHint: string): string {
	if (code === '401' || code === '403') {
		return "The service refused the API key. Check 'API Key' in the Contract Signing credential.";
	}
	if (code === '404') return notFoundHint;
	if (code === '409')
		return 'The service cannot do this in the current state of the record. Check the keys and fields this node sends.';
	if (isBusyCode(code)) return 'The service is busy.';
	if (/^5\d\d$/.test(code)) return `${NOT_COMPLETED} ${TRY_LATER}`;
	return 'Check the fields of this node against the message above.';
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

function header(headers: ReplyHeaders | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	const text = Array.isArray(value) ? value[0] : value;
	return typeof text === 'string' && text.trim() ? text.trim() : undefined;
}

/**
 * Retry-After in milliseconds, from seconds (whole, or with a fraction as some services send)
 * or an HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function redirectFailure(status: string, headers: ReplyHeaders | undefined): ReplyFailure {
	const location = header(headers, 'location');
	return {
		ok: false,
		message: location
			? `The service address redirects to ${location}`
			: `The service address redirects elsewhere (HTTP ${status})`,
		description:
			"Nothing was sent there: the API key goes only to the Base URL. If the service has moved, enter its new address as 'Base URL' in the Contract Signing credential.",
		httpCode: status,
		outcome: 'refused',
	};
}

/**
 * How the node reads the service's replies to its operations (the credential's test request
 * checks the same `code` on its own). Success needs a 2xx HTTP status,
 * a 2xx `code` in the body (text or number) and the record with its key. A failure says what it
 * means for the record (`outcome`) and, where the service asked, how long to wait.
 */
export function checkReply(
	statusCode: number,
	body: unknown,
	expected: ExpectedReply,
	headers?: ReplyHeaders,
): ReplyCheck {
	const status = String(statusCode);
	if (/^3\d\d$/.test(status)) return redirectFailure(status, headers);
	const check = isPlainObject(body)
		? checkJson(status, body, expected)
		: nonJsonFailure(statusCode, body, expected);
	const waitMs = retryAfterMs(header(headers, 'retry-after'));
	return !check.ok && check.outcome === 'busy' && waitMs !== undefined
		? { ...check, retryAfterMs: waitMs }
		: check;
}

function nonJsonFailure(statusCode: number, body: unknown, expected: ExpectedReply): ReplyFailure {
	const status = String(statusCode);
	return {
		ok: false,
		message: describeNonJson(statusCode, body),
		description: isSuccess(status)
			? `Check that 'Base URL' in the Contract Signing credential points to the service. ${TRY_LATER}`
			: hintFor(status, expected.notFoundHint),
		httpCode: status,
		outcome: isSuccess(status) ? 'unknown' : outcomeOf(status),
	};
}

function checkJson(status: string, body: IDataObject, expected: ExpectedReply): ReplyCheck {
	const { record } = expected;
	const code = body.code === undefined || body.code === null ? '' : String(body.code);
	const serviceMessage =
		typeof body.message === 'string' ? boundText(body.message.trim(), LONGEST_MESSAGE) : '';
	if (isSuccess(status) && isSuccess(code)) {
		if (hasRecordKey(body, record)) return { ok: true, body };
		const what = isPlainObject(body[record.member])
			? `a ${record.member} record without its ${record.key}`
			: `no ${record.member} record`;
		return {
			ok: false,
			message: `The service replied "${serviceMessage || code}" but sent ${what}`,
			description: `The reply lacks the ${record.key} the next steps need. ${TRY_LATER}`,
			httpCode: code,
			outcome: 'unknown',
		};
	}
	const errorCode = isSuccess(code) || code === '' ? status : code;
	// An error that comes with the record's key contradicts itself: the record may exist.
	const outcome = hasRecordKey(body, record) ? 'unknown' : outcomeOf(errorCode);
	return {
		ok: false,
		message: serviceMessage || `The service answered with code ${errorCode} and no message`,
		description:
			outcome === 'unknown'
				? `${NOT_COMPLETED} ${TRY_LATER}`
				: hintFor(errorCode, expected.notFoundHint),
		httpCode: errorCode,
		outcome,
	};
}
