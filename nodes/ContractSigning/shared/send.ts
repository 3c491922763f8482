/**
 * The send path of every operation.
 *
 * Why through `routing.operations.pagination`: n8n's routing engine (n8n-core routing-node.js,
 * `makeRequest`; the same in 1.x and 2.x) calls that function in place of its own send when the
 * routing sets `send.paginate`, for each item, with the request n8n has prepared: method, URL,
 * headers, and n8n's own protections (proxy, timeout, SSL options, allowed domains). It starts
 * every item's call without waiting for the one before (`runNode`: one `makeRequest` per item,
 * then `Promise.allSettled`), so without Options → Batching all items are in flight at once; with
 * Batching it pauses between batches before starting the next items' calls. The node relies on
 * exactly that: the hook is called once for each item, its `this` gives the item's parameters,
 * and what it returns is the item's output (n8n pairs errors and outputs by item index). It is
 * the one place per item where the envelope is finished and checked, sent, the reply masked and
 * checked, and every failure either thrown or, with "On Error: Continue", returned as an item
 * paired with its input. Here too the node waits out a busy service, ends a request when the
 * execution is stopped or Options → Timeout has passed in all, and, under Retry On Fail, never
 * sends an item again that was created, or may have been. If a future n8n stopped calling the
 * hook, no request would be sent at all: the end-to-end suite runs every operation in real n8n
 * (2.41.1 and 1.123.81 in `npm test`, 2.0.3 in `npm run test:compat`).
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
	UserError,
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
	type Outcome,
	type ReplyHeaders,
	type Resource,
} from './reply';
import { accountPaces, paceLimits, type Pace, type PaceOutcome } from './pace';
import { memoryOf, type RunMemory } from './run-memory';
import { SecretMask } from './secret';
import { serviceKey, serviceRoot } from './service-access';
import { Cancelled, pause, pauseBefore, waitLimits, type WaitLimits } from './waits';

const CREDENTIAL_TYPE = 'contractSigningApi';

/** n8n's own default for Options → Timeout, used where n8n gives none. */
const DEFAULT_TIMEOUT_MS = 300_000;

/** The longest reply kept with an error, as JSON text; n8n stores it with the execution. */
const LONGEST_KEPT_REPLY = 10_000;

const NOTHING_SENT = 'Nothing was sent to the service: run the item again once this is corrected.';

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
	/** Nothing was sent: refused input, or a credential that cannot work. */
	input?: boolean;
}

/** How sending ended. A `final` failure must not be sent again in this run. */
type Result = { ok: true; value: IDataObject } | { ok: false; failure: Failure; final: boolean };

/** One item's attempt in this run: what it sent (if it got that far) and how that ended. */
interface Attempt {
	result: Result;
	envelope?: IDataObject;
	simplify?: boolean;
}

/** The run's credential, ready to send with, the mask for what comes back, the account's pace. */
interface Access {
	credential: ICredentialDataDecryptedObject;
	mask: SecretMask;
	pace: Pace;
}

/** A failure that may be sent again in this run (the send loop marks the final ones). */
function failedWith(failure: Failure): Result {
	return { ok: false, final: false, failure };
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

/**
 * The run's credential, read and decrypted once (see the top of this module) and checked as
 * the credential itself checks it for every request, so that one that cannot work is reported
 * before anything is sent.
 */
async function accessOf(context: IExecuteSingleFunctions): Promise<Access | Failure> {
	let credential: ICredentialDataDecryptedObject;
	try {
		credential = await memoryOf(context.getExecuteData()).credentialOnce(
			async () => await context.getCredentials(CREDENTIAL_TYPE),
		);
	} catch (error) {
		return {
			...inputFailure(error),
			message: `The Contract Signing credential could not be read: ${(error as Error).message ?? String(error)}`,
			description: `${NOTHING_SENT} Select the credential again in the node, or create it anew.`,
		};
	}
	let pace: Pace;
	try {
		pace = accountPaces.of(
			new URL(serviceRoot(credential.baseUrl)).origin,
			serviceKey(credential.apiKey),
		);
	} catch (error) {
		return { ...inputFailure(error), description: NOTHING_SENT };
	}
	const apiKey = typeof credential.apiKey === 'string' ? credential.apiKey : undefined;
	return { credential, mask: new SecretMask(apiKey), pace };
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

/**
 * The signal a request is sent with: it aborts when the execution ends (stopped), or when
 * Options → Timeout has passed in all. n8n's own timeout only fires when the connection is idle,
 * so a reply that trickles in would otherwise keep the run going for as long as it trickles.
 */
function requestSignals(timeoutMs: number, cancel: AbortSignal) {
	const timedOut = AbortSignal.timeout(timeoutMs);
	return { timedOut, signal: AbortSignal.any([timedOut, cancel]) };
}

/** One request: the service's record, or what went wrong with the service's text masked. */
async function sendOnce(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
	{ credential, mask }: Access,
	cancel: AbortSignal,
): Promise<Result> {
	const timeoutMs = Number(requestData.options.timeout) || DEFAULT_TIMEOUT_MS;
	const { timedOut, signal } = requestSignals(timeoutMs, cancel);
	let response: IN8nHttpFullResponse;
	try {
		const { id, name = '' } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
		// The options n8n prepared, as its own routing request passes them to this helper.
		const options = {
			...requestData.options,
			body: envelope,
			returnFullResponse: true,
		} as IHttpRequestOptions;
		// n8n's helper sets the request's signal from its `this` (1.x and 2.x alike), over any in
		// the options; for declarative nodes that gives none.
		const withSignal = Object.create(context, {
			getExecutionCancelSignal: { value: () => signal },
		});
		response = (await context.helpers.httpRequestWithAuthentication.call(
			withSignal as IExecutePaginationFunctions,
			CREDENTIAL_TYPE,
			options,
			{ credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data: credential } },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		if (cancel.aborted) {
			throw new NodeOperationError(
				context.getNode(),
				new Cancelled('while the service was answering').message,
			);
		}
		const { code, detail } = networkError(error);
		// n8n's idle timeout and the node's total one are the same limit: one way to say it.
		if (timedOut.aborted || (code === 'ECONNABORTED' && /timeout/i.test(detail))) {
			const detail = `timeout of ${timeoutMs}ms exceeded`;
			return failedWith({
				...describeTransportFailure('ETIMEDOUT', detail, ''),
				code: 'ETIMEDOUT',
			});
		}
		const transport = describeTransportFailure(
			code ?? '',
			mask.text(detail),
			mask.text((error as { message?: string }).message ?? String(error)),
		);
		return failedWith({ ...transport, code });
	}
	const body = mask.value(response.body);
	const check = checkReply(
		response.statusCode,
		body,
		operation.resource,
		mask.value(response.headers) as ReplyHeaders,
	);
	if (check.ok) return { ok: true, value: check.body };
	return failedWith({
		message: check.message,
		description: check.description,
		outcome: check.outcome,
		code: check.httpCode,
		reply: keptReply(body, check.message),
		retryAfterMs: check.retryAfterMs,
	});
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
 * Sends the item, in its turn (pace.ts), until the service acts, waiting out a busy service (429,
 * 503, no connection) within the user's limits; one Retry-After holds back every request to the
 * account.
 */
async function sendUntilServed(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
	access: Access,
): Promise<Result> {
	const memory = memoryOf<Attempt>(context.getExecuteData());
	const { signal: cancel, release } = memory.itemSignal(
		context.getExecutionCancelSignal?.() ??
			memory.endOfExecution(context.onExecutionFinish?.bind(context)),
	);
	try {
		return await sendInTurn(context, operation, requestData, envelope, access, memory, cancel);
	} finally {
		release();
	}
}

async function sendInTurn(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	envelope: IDataObject,
	access: Access,
	memory: RunMemory<Attempt>,
	cancel: AbortSignal,
): Promise<Result> {
	const cap = memory.paceOnce(() => paceLimits(context.getNodeParameter('requestRate', {})));
	const { pace } = access;
	const turns = turnSignal(context, cancel);
	let limits: WaitLimits | undefined;
	let retries = 0;
	let waitedMs = 0;
	let refusedAt = 0;
	for (;;) {
		let result: Result | undefined;
		const cappedAt = await takeTurn(context, cap, memory, turns);
		if (typeof cappedAt !== 'number') return cappedAt;
		try {
			const sentAt = await takeTurn(context, pace, memory, turns);
			if (typeof sentAt !== 'number') return sentAt;
			try {
				result = await sendOnce(context, operation, requestData, envelope, access, cancel);
			} finally {
				pace.done(sentAt, paceOutcome(result));
			}
		} finally {
			cap.done(cappedAt, 'other');
		}
		if (result.ok) return result;
		const { failure } = result;
		if (failure.outcome !== 'busy') {
			return { ...result, final: failure.outcome === 'unknown' && !!operation.mayExist };
		}
		// While other requests to the account get through, the service is pacing them, not stuck.
		if (pace.lastAcceptedAt > refusedAt) {
			retries = 0;
			waitedMs = 0;
		}
		refusedAt = Date.now();
		const nextMs = pauseBefore(retries, failure.retryAfterMs);
		limits ??= waitLimits(context.getNodeParameter('retryWhenBusy', {}));
		if (retries >= limits.maxRetries || waitedMs + nextMs > limits.maxWaitMs) {
			return { ...result, failure: stillBusy(failure, retries, waitedMs, nextMs) };
		}
		if (failure.retryAfterMs !== undefined) pace.holdUntil(Date.now() + nextMs);
		await pause(nextMs, cancel);
		waitedMs += nextMs;
		retries += 1;
	}
}

interface TurnSignal {
	signal: AbortSignal;
	cancel: AbortSignal;
	/** Options → Timeout as the user set it, which also ends the item's wait for its turns. */
	timeout?: { ms: number; signal: AbortSignal };
}

/** What ends an item's wait for its turns: a stop, and Options → Timeout when the user set it. */
function turnSignal(context: IExecutePaginationFunctions, cancel: AbortSignal): TurnSignal {
	const { timeout } = context.getNodeParameter('requestOptions', {}) as { timeout?: unknown };
	if (typeof timeout !== 'number' || !(timeout > 0)) return { signal: cancel, cancel };
	const timedOut = AbortSignal.timeout(timeout);
	return {
		signal: AbortSignal.any([cancel, timedOut]),
		cancel,
		timeout: { ms: timeout, signal: timedOut },
	};
}

/** The item's turn at a pace; a failure when Options → Timeout passed first. */
async function takeTurn(
	context: IExecutePaginationFunctions,
	pace: Pace,
	run: object,
	turns: TurnSignal,
): Promise<number | Result> {
	const turn = await pace.turn(run, turns.signal).catch((error: Error) => error);
	if (typeof turn === 'number') return turn;
	if (turns.cancel.aborted || !turns.timeout?.signal.aborted) {
		throw new NodeOperationError(context.getNode(), turn.message);
	}
	return failedWith({
		message: `The item had no turn at the service within Options → Timeout (${seconds(turns.timeout.ms)})`,
		description: `The service was busy with this account’s other requests, and the item waited for its turn. ${NOTHING_SENT} Raise Options → Timeout, or run the workflow again later.`,
		outcome: 'busy',
		code: 'ETIMEDOUT',
	});
}

function paceOutcome(result: Result | undefined): PaceOutcome {
	if (result?.ok) return 'accepted';
	return result?.failure.outcome === 'busy' ? 'busy' : 'other';
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

/** Simplify as the user set it; text from an expression counts only as "true" or "false". */
function simplifyOf(context: IExecuteSingleFunctions): boolean {
	const value = context.getNodeParameter('simplify', true) as unknown;
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw new UserError(
		`Simplify must be true or false, but it is ${JSON.stringify(value) ?? String(value)}`,
		{
			description:
				'Switch Simplify on or off, or give an expression that results in true or false.',
		},
	);
}

/** The item's envelope and output setting, or why the node cannot send it. */
function readItem(
	context: IExecuteSingleFunctions,
	operation: Operation,
): { envelope: IDataObject; simplify: boolean } | Failure {
	try {
		const normalize = operation.normalize ?? ((body: IDataObject) => body);
		return {
			envelope: finishEnvelope(
				normalize(readFields(context, operation.action, operation.fields)),
				operation.rules,
			),
			simplify: simplifyOf(context),
		};
	} catch (error) {
		return inputFailure(error);
	}
}

/** Reads, checks and sends the item: everything one try of the node does for it. */
async function attemptItem(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<Attempt> {
	const item = readItem(context, operation);
	if ('message' in item) return { result: failedWith(item) };
	const access = await accessOf(context);
	if ('message' in access) return { result: failedWith(access) };
	const result = await sendUntilServed(context, operation, requestData, item.envelope, access);
	return { ...item, result };
}

/**
 * The item's attempt; under Retry On Fail, the earlier one where sending it again could create
 * its record twice: after a success, or a failure whose outcome is unknown. The item is known by
 * its index, whatever its fields give on this try.
 */
async function sendItem(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<Attempt> {
	const attempt = async () => await attemptItem(context, operation, requestData);
	if (context.getNode().retryOnFail !== true) return await attempt();
	const memory = memoryOf<Attempt>(context.getExecuteData());
	const { attempt: done, replayed } = await memory.once(
		context.getItemIndex(),
		attempt,
		({ result }) => result.ok || result.final,
	);
	return replayed && done.result.ok
		? { ...done, result: { ok: true, value: deepCopy(done.result.value) } }
		: done;
}

/** The item's output: the service's record, or its error under "On Error: Continue". */
async function sendAndShape(
	context: IExecutePaginationFunctions,
	operation: Operation,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = context.getItemIndex();
	const pairedItem = { item: itemIndex };
	const { result, envelope, simplify } = await sendItem(context, operation, requestData);
	if (result.ok) {
		const json = simplify ? operation.simplify(result.value, envelope!) : result.value;
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
