/**
 * One request of an item to the service, as n8n's own routing sends it, and what came of it:
 * the service's reply body, or the failure with the service's text masked.
 */
import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE, type Access } from '../credential/access';
import { Cancelled, ItemFailure } from '../failure/item-failure';
import { stopOrTimeout, type StopSignal } from '../run/run-state';
import { checkReply, type ExpectedReply, type ReplyHeaders } from './reply';
import { describeTransportFailure, networkError } from './transport-failure';

/** n8n's own default timeout, used where the node's Settings → Request Options give none. */
const DEFAULT_TIMEOUT_MS = 300_000;

/** The longest reply kept with an error, as JSON text; n8n stores it with the execution. */
const LONGEST_KEPT_REPLY = 10_000;

/** An item's request: what n8n prepared for it, the envelope, and what its reply must hold. */
export interface ItemRequest {
	context: IExecutePaginationFunctions;
	/** The request n8n prepared for the item: method, URL, headers, its options. */
	requestData: DeclarativeRestApiSettings.ResultOptions;
	envelope: IDataObject;
	access: Access;
	expected: ExpectedReply;
}

/**
 * Posts the item once: the reply body when the service acted, else the failure. `cancel`
 * aborts when the execution is stopped.
 */
export async function postOnce(
	request: ItemRequest,
	cancel: StopSignal,
): Promise<IDataObject | ItemFailure> {
	const { requestData, access } = request;
	const timeoutMs = Number(requestData.options.timeout) || DEFAULT_TIMEOUT_MS;
	// n8n's own timeout only fires while the connection is idle: a reply that trickles in would
	// keep the run going for as long as it trickles. This one counts all the time the reply takes.
	const ending = stopOrTimeout(cancel, timeoutMs);
	let response: IN8nHttpFullResponse;
	try {
		response = await postWithCredential(request, ending.signal);
	} catch (error) {
		if (cancel.aborted) {
			throw new NodeOperationError(
				request.context.getNode(),
				new Cancelled('while the service was answering').message,
			);
		}
		return requestFailure(error, ending.timedOut(), timeoutMs, access);
	} finally {
		ending.release();
	}
	return replyOf(response, request);
}

/** The POST, with the options n8n prepared, as its own routing request passes them to this helper. */
async function postWithCredential(
	{ context, requestData, envelope, access }: ItemRequest,
	signal: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	const { id, name = '' } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
	const options = {
		...requestData.options,
		body: envelope,
		returnFullResponse: true,
	} as IHttpRequestOptions;
	// n8n's helper sets the request's signal from its `this` (1.x and 2.x alike), over any in the
	// options; for declarative nodes that gives none.
	const withSignal = Object.create(context, { getExecutionCancelSignal: { value: () => signal } });
	return (await context.helpers.httpRequestWithAuthentication.call(
		withSignal as IExecutePaginationFunctions,
		CREDENTIAL_TYPE,
		options,
		{
			credentialsDecrypted: {
				id: id ?? '',
				name,
				type: CREDENTIAL_TYPE,
				data: access.credential,
			},
		},
	)) as IN8nHttpFullResponse;
}

function requestFailure(
	error: unknown,
	timedOut: boolean,
	timeoutMs: number,
	{ mask }: Access,
): ItemFailure {
	const { code, detail } = networkError(error);
	// n8n's idle timeout and the node's total one are the same limit: one way to say it.
	if (timedOut || (code === 'ECONNABORTED' && /timeout/i.test(detail))) {
		const failure = describeTransportFailure('ETIMEDOUT', `timeout of ${timeoutMs}ms exceeded`, '');
		return new ItemFailure(failure.outcome, failure.message, failure.description, {
			code: 'ETIMEDOUT',
		});
	}
	const failure = describeTransportFailure(
		code ?? '',
		mask.text(detail),
		mask.text((error as { message?: string }).message ?? String(error)),
	);
	return new ItemFailure(failure.outcome, failure.message, failure.description, { code });
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
