/**
 * The send path of every operation.
 *
 * Why through `routing.operations.pagination`: n8n's routing engine (n8n-core routing-node.js,
 * `makeRequest`; the same in 1.x and 2.x) calls that function in place of its own send when the
 * routing sets `send.paginate`, for each item, with the request n8n has prepared: method, URL,
 * headers, and n8n's own protections (proxy, timeout, SSL options, allowed domains). It starts
 * every item's call without waiting for the one before (`runNode`: one `makeRequest` per item,
 * then `Promise.allSettled`), so without Batching (Settings → Request Options) all items are in
 * flight at once; with Batching it pauses between batches before starting the next items' calls.
 * The node relies on exactly that: the hook is called once for each item, its `this` gives the
 * item's parameters, and what it returns is the item's output (n8n pairs errors and outputs by
 * item index). From this hook, and from nowhere else, each item's envelope is finished and
 * checked, sent in its turn (pacing/turns.ts, wire/request.ts), the reply masked and checked, and every
 * failure either thrown or, with "On Error: Continue", returned as an item paired with its input.
 * Here too the node waits out a busy service, ends a request when the execution is stopped or
 * the Timeout of Settings → Request Options has passed in all, and, under Retry On Fail, never
 * sends an item again that was created, or may have been. `itemOutput` below reads what happens
 * to an item, in order. If a future n8n stopped calling the hook, no request would be sent at
 * all: the end-to-end suite runs every operation in real n8n (2.41.1 and 1.123.81 in `npm test`, 2.0.3 in `npm run test:compat`).
 *
 * Each request goes out with `helpers.httpRequestWithAuthentication`, the helper n8n's own
 * `makeRoutingRequest` calls, but with the credential read once per run of the node rather than
 * once per item: n8n reads it from the database and decrypts it for every request otherwise,
 * which cost more than the request itself. The credential is resolved for the run's first item,
 * as n8n resolves `$credentials` in routing; it lives in the run's state, is dropped after the
 * run's last item, and never enters output or error data. The credential's `authenticate` still
 * runs for every request (the key header, the Base URL, the origin check).
 */
import {
	deepCopy,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
	type INodePropertyRouting,
} from 'n8n-workflow';
import { accessFor } from '../credential/access';
import { wireFields, type Operation, type WireField } from '../description/operation';
import { simplifyOf } from '../description/settings';
import { inputFailure, ItemFailure } from '../failure/item-failure';
import { errorItemJson, nodeErrorOf } from '../failure/n8n-error';
import { sendUntilServed } from '../pacing/turns';
import { runStateOf } from '../run/run-state';
import { finishEnvelope, labelledRulesOf, type LabelledRules } from './envelope';
import { readFields } from './read-fields';
import { retryMemoryOf } from './retry-memory';

/**
 * The routing of an operation: a POST of the `data` envelope, built from the operation's fields
 * and sent and checked as above. The fields carry no routing of their own: n8n evaluates the
 * expression of every routed field once more per item to find the base URL. Redirects are not
 * followed: the API key goes to the Base URL's origin only.
 */
export function operationRouting(operation: Operation): INodePropertyRouting {
	const send: Send = {
		operation,
		fields: wireFields(operation),
		rules: labelledRulesOf(operation),
	};
	return {
		request: {
			method: 'POST',
			url: operation.request.path,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		send: { paginate: true },
		operations: {
			pagination: async function (this: IExecutePaginationFunctions, requestData) {
				try {
					return await itemOutput(this, send, requestData);
				} finally {
					runStateOf(this.getExecuteData()).itemDone(itemCount(this));
				}
			},
		},
	};
}

/** An operation, with the fields it sends and the rules its envelope is checked by. */
interface Send {
	operation: Operation;
	fields: WireField[];
	rules: LabelledRules;
}

/** The item's output: the service's record, or its error under "On Error: Continue". */
async function itemOutput(
	context: IExecutePaginationFunctions,
	send: Send,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = context.getItemIndex();
	const pairedItem = { item: itemIndex };
	const output = await onceUnderRetries(
		context,
		async () => await tryItem(context, send, requestData),
	);
	if (!(output instanceof ItemFailure)) return [{ json: output, pairedItem }];
	const error = nodeErrorOf(context.getNode(), output, itemIndex);
	if (!context.continueOnFail()) throw error;
	return [{ json: errorItemJson(error, output), pairedItem }];
}

/**
 * One try of the node for the item, step by step, to the item's output json; a step that fails
 * ends it with its failure. Only the output outlives the try: the envelope and the whole reply go.
 */
async function tryItem(
	context: IExecutePaginationFunctions,
	send: Send,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<IDataObject | ItemFailure> {
	const item = readItem(context, send);
	if (item instanceof ItemFailure) return item;
	const access = await accessFor(context);
	if (access instanceof ItemFailure) return access;
	const { envelope, simplify } = item;
	const reply = await sendUntilServed({
		context,
		requestData,
		envelope,
		access,
		expected: send.operation,
	});
	if (reply instanceof ItemFailure) return whatItMeans(reply, send.operation, envelope);
	return simplify ? send.operation.simplify(reply, envelope) : reply;
}

/** The item's envelope and output setting, or why the node cannot send it. */
function readItem(
	context: IExecuteSingleFunctions,
	{ operation, fields, rules }: Send,
): { envelope: IDataObject; simplify: boolean } | ItemFailure {
	try {
		const body = readFields(context, operation.request.action, fields);
		const normalize = operation.normalize ?? ((fields: IDataObject) => fields);
		return {
			envelope: finishEnvelope(normalize(body), rules),
			simplify: simplifyOf(context.getNodeParameter('simplify', true)),
		};
	} catch (error) {
		return inputFailure(error);
	}
}

/**
 * A failure whose outcome is unknown, of an operation that creates: the record may exist. It
 * says where to look, and is final: the item is not sent again in this run.
 */
function whatItMeans(
	failure: ItemFailure,
	operation: Operation,
	envelope: IDataObject,
): ItemFailure {
	if (failure.kind !== 'unknown' || !operation.creates) return failure;
	return failure.with(operation.creates.mayExist(envelope), { final: true });
}

/**
 * What `send` gave the item; under Retry On Fail, what it gave on an earlier try where sending
 * it again could create its record twice: its output, or a final failure. The item is known by
 * its index, whatever its fields give on this try.
 */
async function onceUnderRetries(
	context: IExecutePaginationFunctions,
	send: () => Promise<IDataObject | ItemFailure>,
): Promise<IDataObject | ItemFailure> {
	if (context.getNode().retryOnFail !== true) return await send();
	const memory = retryMemoryOf<IDataObject | ItemFailure>(context.getExecuteData());
	const { attempt, replayed } = await memory.once(
		context.getItemIndex(),
		send,
		(earlier) => !(earlier instanceof ItemFailure) || earlier.details.final === true,
	);
	return replayed && !(attempt instanceof ItemFailure) ? deepCopy(attempt) : attempt;
}

/** How many items this run of the node has, for the run's state to know when it is done. */
function itemCount(context: IExecuteSingleFunctions): number {
	const input = context.getExecuteData().data;
	return (input.main ?? input.ai_tool)?.[0]?.length ?? 1;
}
