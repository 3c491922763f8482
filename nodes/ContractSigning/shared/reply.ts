/**
 * The `postReceive` of every operation: the one place that reads the service's reply. A reply
 * that is not the record becomes a NodeApiError with the service's own message and what to do.
 */
import {
	NodeApiError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type JsonObject,
	type PostReceiveAction,
} from 'n8n-workflow';
import { sentOf } from './sent';

/** What an operation's reply holds, what to check when the service answers 404, and, with Simplify on, the item it gives (from the reply and what was sent). */
export interface ExpectedReply {
	member: string;
	key: string;
	notFoundHint: string;
	simplify?: (reply: IDataObject, sent: IDataObject) => IDataObject;
}

export const TRY_LATER =
	'This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.';
const FAILED = `The service could not complete the request. ${TRY_LATER}`;

/** How the node reads a failure: did the service act, and should the item wait and go again? */
export type Outcome = 'refused' | 'busy' | 'unknown';

/** A failed reply; its outcome and Retry-After go to the send (shared/send.ts) in the error's `context`. */
export interface ReplyFailure {
	message: string;
	description: string;
	code: string;
	outcome: Outcome;
	reply: JsonObject;
}

const LONGEST_MESSAGE = 2000;
const LONGEST_KEPT_REPLY = 10_000;
const isObject = (value: unknown): value is IDataObject =>
	Object.prototype.toString.call(value) === '[object Object]';
const isSuccess = (code: string) => /^2\d\d$/.test(code);

// 429 and 503: the service did not act, and asks to be asked again later.
const outcomeOf = (code: string): Outcome =>
	code === '429' || code === '503' ? 'busy' : /^[34]\d\d$/.test(code) ? 'refused' : 'unknown';

function hintFor(code: string, { notFoundHint }: ExpectedReply): string {
	if (code === '404') return notFoundHint;
	if (code === '401' || code === '403')
		return "The service refused the API key. Check 'API Key' in the Contract Signing credential.";
	if (code === '409')
		return 'The service cannot do this in the current state of the record. Check the keys and fields this node sends.';
	if (/^3\d\d$/.test(code))
		return "Nothing was sent there: the node does not follow redirects. If the service has moved, enter its new address as 'Base URL' in the Contract Signing credential.";
	if (outcomeOf(code) === 'busy') return `The service is busy. ${TRY_LATER}`;
	return /^5\d\d$/.test(code) ? FAILED : 'Check the fields of this node against the message above.';
}

/** Retry-After in milliseconds, from seconds or an HTTP date. */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
	const text = String(Array.isArray(value) ? value[0] : (value ?? '')).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	const date = Date.parse(text);
	return text && !Number.isNaN(date) ? Math.max(0, date - now) : undefined;
}

/** A redirect, which the node does not follow, or a reply that is not a JSON object. */
function unreadable({ body, statusCode, headers }: IN8nHttpFullResponse, expected: ExpectedReply) {
	const code = String(statusCode);
	let message = `The service sent a reply that is not JSON (HTTP ${code})`;
	if (/^3\d\d$/.test(code)) {
		message = `The service address redirects to ${String(headers?.location ?? 'another address')} (HTTP ${code})`;
	} else if (body === undefined || body === null || body === '') {
		message = `The service sent an empty reply (HTTP ${code})`;
	} else if (typeof body === 'string' && /^\s*</.test(body)) {
		message = `The service sent a web page instead of data (HTTP ${code})`;
	}
	const description = isSuccess(code)
		? `Check that 'Base URL' in the Contract Signing credential points to the service. ${TRY_LATER}`
		: hintFor(code, expected);
	const outcome = isSuccess(code) ? 'unknown' : outcomeOf(code);
	return { message, description, code, outcome, reply: { message } };
}

/** The reply kept with the error: whole, or its code and message when it is too big. */
function kept(body: IDataObject, message: string): JsonObject {
	const size = JSON.stringify(body).length;
	if (size <= LONGEST_KEPT_REPLY) return body as JsonObject;
	const note = `The rest of the reply (${size} characters) is not kept.`;
	return { code: String(body.code ?? ''), message, note };
}

/**
 * The failure a reply stands for, or nothing when it holds the record: HTTP 2xx, a 2xx `code`
 * when the body has one, and the record's key. A non-2xx HTTP status decides the outcome; within
 * 2xx, the body's code.
 */
export function replyFailure(
	response: IN8nHttpFullResponse,
	expected: ExpectedReply,
): ReplyFailure | undefined {
	const { body } = response;
	const status = String(response.statusCode);
	if (!isObject(body) || /^3\d\d$/.test(status)) return unreadable(response, expected);
	const code = isSuccess(status) && body.code ? String(body.code) : status;
	const record = body[expected.member];
	const key = isObject(record) ? record[expected.key] : undefined;
	const hasKey = (typeof key === 'string' && key.trim() !== '') || typeof key === 'number';
	if (isSuccess(code) && hasKey) return undefined;
	let said = typeof body.message === 'string' ? body.message.trim() : '';
	if (said.length > LONGEST_MESSAGE) {
		said = `${said.slice(0, LONGEST_MESSAGE)}… (${said.length - LONGEST_MESSAGE} more characters)`;
	}
	if (isSuccess(code)) {
		const message = `The service replied "${said || code}" but sent no ${expected.member} with its ${expected.key}`;
		const description = `The reply lacks the ${expected.key} the next steps need. ${TRY_LATER}`;
		return { message, description, code, outcome: 'unknown', reply: kept(body, message) };
	}
	// An error that comes with the record's key contradicts itself: the record may exist.
	const outcome = hasKey ? 'unknown' : outcomeOf(code);
	const message = said || `The service answered with code ${code} and no message`;
	const description = outcome === 'unknown' ? FAILED : hintFor(code, expected);
	return { message, description, code, outcome, reply: kept(body, message) };
}

/**
 * The operation's `postReceive`: with Simplify on, the item `simplify` gives; else the reply as it
 * came. A reply without the record throws its failure.
 */
export function checkReply(expected: ExpectedReply): PostReceiveAction {
	return async function (this: IExecuteSingleFunctions, items: INodeExecutionData[], response) {
		const failure = replyFailure(response, expected);
		if (failure === undefined) {
			const { envelope = {}, simplify } = sentOf(this);
			const flat = simplify === false ? undefined : expected.simplify;
			return flat ? items.map((item) => ({ ...item, json: flat(item.json, envelope) })) : items;
		}
		const { message, description, code, outcome, reply } = failure;
		const error = new NodeApiError(this.getNode(), reply, {
			message,
			description,
			httpCode: code,
			itemIndex: this.getItemIndex(),
		});
		const retryAfter = outcome === 'busy' ? retryAfterMs(response.headers?.['retry-after']) : 0;
		Object.assign(error.context, { outcome, retryAfterMs: retryAfter });
		throw error;
	};
}
