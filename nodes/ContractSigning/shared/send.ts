/**
 * The send path of every operation.
 *
 * Why through `routing.operations.pagination`: n8n's routing engine (n8n-core routing-node.js,
 * `makeRequest`; the same in 1.x and 2.x) calls that function in place of its own send when the
 * routing sets `send.paginate`, once per item, with the request n8n has prepared: method, URL,
 * headers, and n8n's own protections (proxy, timeout, SSL options, allowed domains). The node
 * relies on exactly that: the hook is called for each item in item order, its `this` gives the
 * item's parameters, and what it returns is the item's output (n8n pairs errors and outputs by
 * item index, and applies Batching between items before calling it). It is the one place per item
 * where the envelope is finished and checked, sent, the reply checked, and every failure either
 * thrown or, with "On Error: Continue", returned as an item paired with its input. Here too the
 * node waits out a busy service and, under Retry On Fail, never sends an item again that was
 * created, or may have been. If a future n8n stopped calling the hook, no request would be sent
 * at all: the end-to-end suite runs every operation in real n8n (2.41.1, 1.123.81, 2.0.x).
 *
 * Each request goes out with `helpers.httpRequestWithAuthentication`, the helper n8n's own
 * `makeRoutingRequest` calls, but with the credential read once per run of the node rather than
 * once per item: n8n reads it from the database and decrypts it for every request otherwise,
 * which cost more than the request itself. The credential is resolved for the run's first item,
 * as n8n resolves `$credentials` in routing; it lives in the run's memory, is dropped after the
 * run's last item, and never enters output or error data. The credential's `authenticate` still
 * runs for every request (the key header, the Base URL, the origin check).
 */
import {
	deepCopy,
	NodeApiError,
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type INodePropertyRouting,
	type JsonObject,
} from 'n8n-workflow';
import { finishEnvelope, type EnvelopeRules, type WireField } from './envelope';
import { readFields } from './read-fields';
import {
	checkReply,
	describeTransportFailure,
	withoutSecret,
	type Outcome,
	type ReplyHeaders,
	type Resource,
} from './reply';
import { memoryOf, type Sent } from './run-memory';
import { pause, pauseBefore, waitLimits, type WaitLimits } from './waits';

const CREDENTIAL_TYPE = 'contractSigningApi';

export type SimplifyReply = (reply: IDataObject, sent: IDataObject) => IDataObject;

export interface Operation {
	url: string;
	action: string;
	resource: Resource;
	fields: WireField[];
	rules: EnvelopeRules;
	simplify: SimplifyReply;
	/** Reshapes what the fields gave before the rules apply. */
	normalize?: (body: IDataObject) => IDataObject;
	/**
	 * Set for operations that create a record: when the service may have acted without saying
	 * so, this tells the user where to look for the record, and the item is not sent again.
	 */
	mayExist?: (envelope: IDataObject) => string;
}

interface Failure {
	message: string;
	description: string;
	outcome: Outcome;
	/** HTTP status, the service's code, or the network error code; none for refused input. */
	code?: string;
	/** The service's reply, secret masked, for the error n8n shows. */
	reply?: JsonObject;
	retryAfterMs?: number;
	/** Refused input: nothing was sent. */
	input?: boolean;
}

type Result = Sent<IDataObject, Failure>;

/** The run's credential, read and decrypted once (see the top of this module). */
async function credentialOf(
	context: IExecuteSingleFunctions,
): Promise<ICredentialDataDecryptedObject> {
	return await memoryOf(context.getExecuteData()).credentialOnce(
		async () => await context.getCredentials(CREDENTIAL_TYPE),
	);
}

async function apiKeyOf(context: IExecuteSingleFunctions): Promise<string | undefined> {
	const { apiKey } = await credentialOf(context);
	return typeof apiKey === 'string' ? apiKey : undefined;
}

/** How many items this run of the node has, for the run's memory to know when it is done. */
function itemCount(context: IExecuteSingleFunctions): number {
	const input = context.getExecuteData().data;
	return (input.main ?? input.ai_tool)?.[0]?.length ?? 1;
}

/**
 * The network error's code (ECONNREFUSED, ECONNABORTED …) and its own text. n8n 2.x keeps the
 * request error as the `cause`; n8n 1.x wraps it in a NodeApiError whose `httpCode` is the code
 * and whose `messages` hold the text.
 */
function networkError(error: unknown): { code?: string; detail: string } {
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

/** One request: the service's record, or what went wrong with the service's text masked. */
async function sendOnce(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
): Promise<Result> {
	let response: IN8nHttpFullResponse;
	try {
		const data = await credentialOf(context);
		const { id, name = '' } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
		// The options n8n prepared, as its own routing request passes them to this helper.
		const options = {
			...requestData.options,
			body: envelope,
			returnFullResponse: true,
		} as IHttpRequestOptions;
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options,
			{ credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const apiKey = await apiKeyOf(context);
		const { code, detail } = networkError(error);
		const transport = describeTransportFailure(
			code ?? '',
			withoutSecret(detail, apiKey),
			withoutSecret((error as { message?: string }).message ?? String(error), apiKey),
		);
		return { ok: false, final: false, failure: { ...transport, code } };
	}
	const check = checkReply(
		response.statusCode,
		response.body,
		operation.resource,
		response.headers as ReplyHeaders,
	);
	if (check.ok) return { ok: true, value: check.body };
	const apiKey = await apiKeyOf(context);
	const body = withoutSecret(response.body, apiKey);
	const message = withoutSecret(check.message, apiKey);
	return {
		ok: false,
		final: false,
		failure: {
			message,
			description: check.description,
			outcome: check.outcome,
			code: check.httpCode,
			reply: typeof body === 'object' && body !== null ? (body as JsonObject) : { message },
			retryAfterMs: check.retryAfterMs,
		},
	};
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

function stillBusy(failure: Failure, retries: number, waitedMs: number, nextMs: number): Failure {
	const tried =
		retries === 0
			? 'The node did not wait'
			: `The node waited ${seconds(waitedMs)} and sent it ${retries} more time${retries === 1 ? '' : 's'}`;
	const asked =
		failure.retryAfterMs === undefined ? '' : ` The service asked to wait ${seconds(nextMs)}.`;
	return {
		...failure,
		description: `${failure.description} ${tried}, as far as Retry When Busy allows.${asked}`,
	};
}

/**
 * Sends the item until the service acts, waiting out a busy service (429, 503, no connection)
 * within the user's limits; one Retry-After holds back every request of this run of the node.
 */
async function sendUntilServed(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
): Promise<Result> {
	const memory = memoryOf<IDataObject, Failure>(context.getExecuteData());
	const cancelSignal = () =>
		context.getExecutionCancelSignal?.() ??
		memory.endOfExecution(context.onExecutionFinish?.bind(context));
	let limits: WaitLimits | undefined;
	let waitedMs = 0;
	for (let retry = 0; ; retry++) {
		const held = memory.heldFor();
		if (held > 0) await pause(held, cancelSignal());
		const result = await sendOnce(context, operation, requestData, envelope);
		if (result.ok) return result;
		const { failure } = result;
		if (failure.outcome !== 'busy') {
			return { ...result, final: failure.outcome === 'unknown' && !!operation.mayExist };
		}
		const nextMs = pauseBefore(retry, failure.retryAfterMs);
		limits ??= waitLimits(context.getNodeParameter('retryWhenBusy', {}));
		if (retry >= limits.maxRetries || waitedMs + nextMs > limits.maxWaitMs) {
			return { ...result, failure: stillBusy(failure, retry, waitedMs, nextMs) };
		}
		if (failure.retryAfterMs !== undefined) memory.holdUntil(Date.now() + nextMs);
		await pause(nextMs, cancelSignal());
		waitedMs += nextMs;
	}
}

/** Input the node refuses, or an expression n8n could not evaluate: nothing was sent. */
function inputFailure(error: unknown): Failure {
	const { message, description } = error as { message?: string; description?: unknown };
	return {
		message: message ?? String(error),
		description: typeof description === 'string' ? description : '',
		outcome: 'refused',
		input: true,
	};
}

/** The error n8n shows; for a create whose outcome is unknown, it says where to look. */
function asError(
	node: INode,
	failure: Failure,
	itemIndex: number,
	operation: Operation,
	envelope: IDataObject | undefined,
): NodeApiError | NodeOperationError {
	if (failure.input) {
		return new NodeOperationError(node, failure.message, {
			description: failure.description || undefined,
			itemIndex,
		});
	}
	const description =
		failure.outcome === 'unknown' && operation.mayExist && envelope
			? operation.mayExist(envelope)
			: failure.description;
	// The code is kept out of a transport error: n8n rewrites the message of a code it knows.
	const httpCode = failure.reply ? failure.code : undefined;
	return new NodeApiError(node, failure.reply ?? { message: failure.message }, {
		message: failure.message,
		description,
		httpCode,
		itemIndex,
	});
}

/** The item's envelope, or why the node cannot send it. */
function buildEnvelope(
	context: IExecuteSingleFunctions,
	operation: Operation,
): { envelope: IDataObject } | { failure: Failure } {
	try {
		const normalize = operation.normalize ?? ((body: IDataObject) => body);
		return {
			envelope: finishEnvelope(
				normalize(readFields(context, operation.action, operation.fields)),
				operation.rules,
			),
		};
	} catch (error) {
		return { failure: inputFailure(error) };
	}
}

/**
 * Sends the item, or under Retry On Fail gives its earlier result where sending it again could
 * create its record twice: after a success, or a failure whose outcome is unknown.
 */
async function sendItem(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
): Promise<Result> {
	const send = async () => await sendUntilServed(context, operation, requestData, envelope);
	if (context.getNode().retryOnFail !== true) return await send();
	const memory = memoryOf<IDataObject, Failure>(context.getExecuteData());
	const request = `${operation.url} ${JSON.stringify(envelope)}`;
	const { result, replayed } = await memory.once(context.getItemIndex(), request, send);
	return replayed && result.ok ? { ok: true, value: deepCopy(result.value) } : result;
}

/** The item's output: the service's record, or its error under "On Error: Continue". */
async function sendAndShape(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = context.getItemIndex();
	const pairedItem = { item: itemIndex };
	const built = buildEnvelope(context, operation);
	const envelope = 'envelope' in built ? built.envelope : undefined;
	const result: Result = envelope
		? await sendItem(context, operation, requestData, envelope)
		: { ok: false, final: false, failure: (built as { failure: Failure }).failure };
	if (result.ok) {
		const json = context.getNodeParameter('simplify', true)
			? operation.simplify(result.value, envelope!)
			: result.value;
		return [{ json, pairedItem }];
	}
	const { failure } = result;
	const error = asError(context.getNode(), failure, itemIndex, operation, envelope);
	if (!context.continueOnFail()) throw error;
	const itemError = {
		message: error.message,
		...(failure.code ? { code: failure.code } : {}),
		...(error.description ? { description: error.description } : {}),
	};
	// `error` as the only key: the one shape that both n8n 1.x and 2.x route to the error
	// output under "Continue (using error output)" (1.x accepts `error`, or `error` and `message`).
	return [{ json: { error: itemError }, pairedItem }];
}

function sendGuarded(operation: Operation) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		try {
			return await sendAndShape(this, operation, requestData);
		} finally {
			memoryOf(this.getExecuteData()).itemDone(itemCount(this));
		}
	};
}

/**
 * The routing of an operation: a POST of the `data` envelope, built from the operation's fields
 * and sent and checked as above. The fields carry no routing of their own: n8n evaluates the
 * expression of every routed field once more per item to find the base URL. Redirects are not
 * followed: the API key goes to the Base URL's origin only.
 */
export function operationRouting(operation: Operation): INodePropertyRouting {
	return {
		request: {
			method: 'POST',
			url: operation.url,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		send: { paginate: true },
		operations: { pagination: sendGuarded(operation) },
	};
}
