/**
 * The send path of every operation: the node's `requestOperations.pagination`, which n8n's
 * routing (n8n-core routing-node.js, `makeRequest`, in 1.x and 2.x) calls per item in place of
 * its own send when the operation's routing sets `send.paginate`, with the request it prepared
 * (method, URL, headers, proxy, timeout, SSL options, allowed domains). n8n starts every item's
 * call without waiting for the one before: without Batching all items are in flight at once.
 * The hook sends with `httpRequestWithAuthentication`, as `this.makeRoutingRequest` does, but
 * itself: that one gives back only the reply's body, and the node reads the status and a busy
 * service's Retry-After. `itemOutput` (output.ts) reads what happens to an item, in order.
 */
import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { wireFields, type Operations } from '../description/operation';
import { runStateOf } from '../run/run-state';
import { labelledRulesOf } from './envelope';
import { itemOutput, type OperationToSend } from './output';

type Hook = (
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

/**
 * The fields carry no routing of their own: n8n evaluates every field in each of its walks over
 * the description (its item loop, and `resolveBaseUrl` in 2.41.1), and a routed field once more
 * in each; the node reading a field itself costs one evaluation, routing it two.
 */
export function sendEachItem(operations: Record<string, Operations>): Hook {
	const prepared = new Map<string, OperationToSend>();
	for (const [resource, byValue] of Object.entries(operations)) {
		for (const [value, operation] of Object.entries(byValue)) {
			const toSend = {
				operation,
				fields: wireFields(operation),
				rules: labelledRulesOf(operation),
			};
			prepared.set(`${resource}:${value}`, toSend);
		}
	}
	return async function (this: IExecutePaginationFunctions, requestData) {
		const resource = this.getNodeParameter('resource', '') as string;
		const toSend = prepared.get(`${resource}:${this.getNodeParameter('operation', '') as string}`);
		if (!toSend) throw new Error(`The node has no operation for ${resource}`);
		const run = runStateOf(this);
		run.itemStarted();
		try {
			return await itemOutput(this, run, toSend, requestData);
		} finally {
			run.itemDone();
		}
	};
}
