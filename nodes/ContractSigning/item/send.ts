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
 * sends an item again that was created, or may have been. `itemOutput` (output.ts) reads what
 * happens to an item, in order. If a future n8n stopped calling the hook, no request would be sent at
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
import type {
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	INodePropertyRouting,
} from 'n8n-workflow';
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
	const send: OperationToSend = {
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

/** How many items this run of the node has, for the run's state to know when it is done. */
function itemCount(context: IExecuteSingleFunctions): number {
	const input = context.getExecuteData().data;
	return (input.main ?? input.ai_tool)?.[0]?.length ?? 1;
}
