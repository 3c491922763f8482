/** How the node reads the service's reply: what it must hold, and what a failure means. */
import type { IDataObject, JsonObject } from 'n8n-workflow';
import { BUSY_STATUSES } from '../../../credentials/ContractSigningApi.credentials';
import type { Operation } from '../description/operation';
import { ItemFailure, TRY_LATER, type Outcome } from '../failure/item-failure';

/** What the operation's reply must hold, and what to check when the service answers 404. */
export type ExpectedReply = Pick<Operation, 'record' | 'notFoundHint'>;

export type ReplyHeaders = Record<string, unknown>;

/** An object of fields, as JSON has them: not a list, null, a date or another class. */
export function isPlainObject(value: unknown): value is IDataObject {
	return Object.prototype.toString.call(value) === '[object Object]';
}

const NOT_COMPLETED = 'The service could not complete the request.';

/** The service's message as it is shown: whole, unless it is longer than anyone reads. */
const LONGEST_MESSAGE = 2000;

/** The longest reply kept with an error, as JSON text; n8n stores it with the execution. */
const LONGEST_KEPT_REPLY = 10_000;

function hasRecordKey(body: IDataObject, { member, key: name }: ExpectedReply['record']): boolean {
	const record = body[member];
	const key = isPlainObject(record) ? record[name] : undefined;
	return (typeof key === 'string' && key.trim() !== '') || typeof key === 'number';
}

function isSuccess(code: string): boolean {
	return /^2\d\d$/.test(code);
}

export function isBusyCode(code: unknown): boolean {
	return BUSY_STATUSES.some((status) => String(status) === code);
}

function outcomeOf(code: string): Outcome {
	if (isBusyCode(code)) return 'busy';
	return /^[34]\d\d$/.test(code) ? 'refused' : 'unknown';
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

function describeNonJson(statusCode: string, body: unknown): string {
	const text = typeof body === 'string' ? body : undefined;
	if (body === undefined || body === null || body === '') {
		return `The service sent an empty reply (HTTP ${statusCode})`;
	}
	if (text && /^\s*</.test(text)) {
		return `The service sent a web page instead of data (HTTP ${statusCode})`;
	}
	if (text && /^\s*[[{]/.test(text)) {
		return `The service sent an incomplete reply (HTTP ${statusCode}): it may have been cut off`;
	}
	return `The service sent a reply that is not JSON (HTTP ${statusCode})`;
}

function header(headers: ReplyHeaders | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	const text = Array.isArray(value) ? value[0] : value;
	return typeof text === 'string' && text.trim() ? text.trim() : undefined;
}

/** Retry-After in milliseconds, from seconds (a fraction too) or an HTTP date, if readable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The reply body, when the service acted: a 2xx HTTP status, a 2xx `code` in the body (text or
 * number) and the record with its key. Otherwise the failure, with the reply it keeps.
 */
export function checkReply(
	statusCode: number,
	body: unknown,
	expected: ExpectedReply,
	headers?: ReplyHeaders,
): IDataObject | ItemFailure {
	const status = String(statusCode);
	const fail = (outcome: Outcome, message: string, description: string, code = status) => {
		const waitMs = outcome === 'busy' ? retryAfterMs(header(headers, 'retry-after')) : undefined;
		const reply = keptReply(body, message);
		return new ItemFailure(outcome, message, description, { code, reply, retryAfterMs: waitMs });
	};
	if (/^3\d\d$/.test(status)) {
		const location = header(headers, 'location');
		const message = location
			? `The service address redirects to ${location}`
			: `The service address redirects elsewhere (HTTP ${status})`;
		return fail(
			'refused',
			message,
			"Nothing was sent there: the API key goes only to the Base URL. If the service has moved, enter its new address as 'Base URL' in the Contract Signing credential.",
		);
	}
	if (!isPlainObject(body)) {
		const message = describeNonJson(status, body);
		if (!isSuccess(status))
			return fail(outcomeOf(status), message, hintFor(status, expected.notFoundHint));
		const hint = `Check that 'Base URL' in the Contract Signing credential points to the service. ${TRY_LATER}`;
		return fail('unknown', message, hint);
	}
	return checkJson(status, body, expected, fail);
}

/** The reply as it is kept with the error: whole, or its code and message when it is too big. */
function keptReply(body: unknown, message: string): JsonObject {
	if (typeof body !== 'object' || body === null) return { message };
	const size = JSON.stringify(body).length;
	if (size <= LONGEST_KEPT_REPLY) return body as JsonObject;
	const { code } = body as IDataObject;
	return {
		...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
		message,
		note: `The rest of the reply (${size} characters) is not kept.`,
	};
}

type Fail = (outcome: Outcome, message: string, description: string, code?: string) => ItemFailure;

function checkJson(status: string, body: IDataObject, expected: ExpectedReply, fail: Fail) {
	const { record } = expected;
	const code = body.code === undefined || body.code === null ? '' : String(body.code);
	const said = typeof body.message === 'string' ? body.message.trim() : '';
	const serviceMessage =
		said.length > LONGEST_MESSAGE
			? `${said.slice(0, LONGEST_MESSAGE)}… (${said.length - LONGEST_MESSAGE} more characters)`
			: said;
	if (isSuccess(status) && isSuccess(code)) {
		if (hasRecordKey(body, record)) return body;
		const what = isPlainObject(body[record.member])
			? `a ${record.member} record without its ${record.key}`
			: `no ${record.member} record`;
		const message = `The service replied "${serviceMessage || code}" but sent ${what}`;
		return fail(
			'unknown',
			message,
			`The reply lacks the ${record.key} the next steps need. ${TRY_LATER}`,
			code,
		);
	}
	const errorCode = isSuccess(code) || code === '' ? status : code;
	// An error that comes with the record's key contradicts itself: the record may exist.
	const outcome = hasRecordKey(body, record) ? 'unknown' : outcomeOf(errorCode);
	return fail(
		outcome,
		serviceMessage || `The service answered with code ${errorCode} and no message`,
		outcome === 'unknown'
			? `${NOT_COMPLETED} ${TRY_LATER}`
			: hintFor(errorCode, expected.notFoundHint),
		errorCode,
	);
}
