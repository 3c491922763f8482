/**
 * The send path: `requestOperations.pagination`, which n8n's routing (`makeRequest`) calls per item
 * with the request it prepared when the operation sets `send.paginate`, starting every item's call
 * without waiting for the one before. It sends as `makeRoutingRequest` does, but itself: that one
 * gives back only the body, not the status and Retry-After. output.ts names an item's steps.
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
 * The fields carry no routing: n8n evaluates every field in each walk over the description (its
 * item loop; `resolveBaseUrl` in 2.41.1), a routed one twice; the node's own read is one more.
 */
export function sendEachItem(operations: Record<string, Operations>): Hook {
	const prepared = new Map<string, OperationToSend>();
	for (const [resource, byValue] of Object.entries(operations)) {
		for (const [value, operation] of Object.entries(byValue)) {
			const fields = wireFields(operation);
			const rules = labelledRulesOf(fields, operation.rules);
			prepared.set(`${resource}:${value}`, { operation, fields, rules });
		}
	}
	return async function (this: IExecutePaginationFunctions, requestData) {
		const resource = this.getNodeParameter('resource', '') as string;
		const toSend = prepared.get(`${resource}:${this.getNodeParameter('operation', '') as string}`);
		if (!toSend) throw new Error(`The node has no operation for ${resource}`);
		const run = runStateOf(this);
		return await run.withItem(async () => await itemOutput(this, run, toSend, requestData));
	};
}
