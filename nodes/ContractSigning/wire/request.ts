/**
 * One request of an item to the service and what came of it: the service's reply body, or the
 * failure with the service's text masked. The request is the one n8n's routing prepared for the
 * item, with its protections (timeout, proxy, SSL options, allowed domains), sent with
 * `httpRequestWithAuthentication`: n8n reads the credential and its `authenticate` adds the key,
 * as n8n-nodes-base's Okta sends (`nodes/Okta/UserFunctions.ts`).
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import type { Access } from '../account/access';
import { ItemFailure } from '../failure/item-failure';
import { CREDENTIAL_TYPE } from '../run/n8n';
import type { RunState } from '../run/run-state';
import { checkReply, type ExpectedReply, type ReplyHeaders } from './reply';
import { describeTransportFailure, isTimeout, networkError, notSent } from './transport-failure';

/** The longest reply kept with an error, as JSON text; n8n stores it with the execution. */
const LONGEST_KEPT_REPLY = 10_000;

/** An item's request: what n8n prepared for it, the envelope, and what its reply must hold. */
export interface ItemRequest {
	context: IExecutePaginationFunctions;
	run: RunState;
	/** The request n8n prepared for the item: method, URL, headers, its options. */
	requestData: DeclarativeRestApiSettings.ResultOptions;
	envelope: IDataObject;
	access: Access;
	expected: ExpectedReply;
}

/** Posts the item once: the reply body when the service acted, else the failure. */
export async function postOnce(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, requestData, envelope, access } = request;
	let response: IN8nHttpFullResponse;
	try {
		const options = { ...requestData.options, body: envelope, returnFullResponse: true };
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options as IHttpRequestOptions,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		return requestFailure(error, access, requestData.options.timeout);
	}
	return replyOf(response, request);
}

function requestFailure(error: unknown, { mask }: Access, timeoutMs?: number): ItemFailure {
	const { code, detail, sent } = networkError(error);
	const failure = sent
		? describeTransportFailure(code ?? '', mask.text(detail), timeoutMs)
		: notSent(mask.text(detail));
	return new ItemFailure(failure.outcome, failure.message, failure.description, {
		code: code && isTimeout(code, detail) ? 'ETIMEDOUT' : code,
	});
}

function replyOf(response: IN8nHttpFullResponse, request: ItemRequest): IDataObject | ItemFailure {
	const { mask } = request.access;
	const body = mask.value(response.body);
	const check = checkReply(
		response.statusCode,
		body,
		request.expected,
		mask.value(response.headers) as ReplyHeaders,
	);
	if (check.ok) return check.body;
	return new ItemFailure(check.outcome, check.message, check.description, {
		code: check.httpCode,
		reply: keptReply(body, check.message),
		retryAfterMs: check.retryAfterMs,
	});
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
