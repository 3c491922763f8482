/**
 * The send path of every operation: `routing.operations.pagination`, which n8n's routing engine
 * (n8n-core routing-node.js, `makeRequest`, the same in 1.x and 2.x) calls once per item in place
 * of its own send when the routing sets `send.paginate`, with the request it prepared: method, URL,
 * headers, and n8n's own protections (proxy, timeout, SSL options, allowed domains). n8n starts
 * every item's call without waiting for the one before, so without Batching (Settings → Request
 * Options) all items are in flight at once; what the hook returns is the item's output, paired by
 * item index. From here each item's envelope is finished and checked, sent in its turn
 * (pacing/turns.ts, wire/request.ts), its reply masked and checked, and every failure either
 * thrown or, with "On Error: Continue", returned as an item paired with its input. The hook sends
 * with `httpRequestWithAuthentication`, as `this.makeRoutingRequest` (which it is given) does, but
 * itself: that one gives back only the reply's body (n8n-core routing-node.js,
 * `postProcessResponseData`), and the node reads the status and a busy service's Retry-After.
 * `itemOutput` (output.ts) reads what happens to an item, in order.
 */
import type { IExecutePaginationFunctions, INodePropertyRouting } from 'n8n-workflow';
import { wireFields, type Operation } from '../description/operation';
import { runStateOf } from '../run/run-state';
import { labelledRulesOf } from './envelope';
import { itemOutput, type OperationToSend } from './output';

/**
 * The routing of an operation: a POST of the `data` envelope, built from the operation's fields
 * and sent and checked as above. The fields carry no routing of their own: n8n evaluates the
 * expression of every routed field once more per item to find the base URL. Redirects are not
 * followed: the API key goes to the Base URL's origin only.
 */
export function operationRouting(operation: Operation): INodePropertyRouting {
	const toSend: OperationToSend = {
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
				const run = runStateOf(this);
				run.itemStarted();
				try {
					return await itemOutput(this, run, toSend, requestData);
				} finally {
					run.itemDone();
				}
			},
		},
	};
}
