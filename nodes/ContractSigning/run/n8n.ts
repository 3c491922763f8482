/**
 * The node's only calls into n8n beyond a declarative node's description, reading its parameters
 * and credential, and throwing n8n's errors. Each is typed in n8n-workflow; CONTRIBUTING's "Where
 * the node leans on n8n" gives, for each, where n8n documents it or which of n8n's own nodes uses
 * it the same way, and what it is for.
 *
 * The routing's pagination hook is the send path (item/send.ts), as n8n-nodes-base's Okta wraps
 * its send, but the hook does not send with the `this.makeRoutingRequest` it is given: that reads
 * and decrypts the credential from n8n's database for every request (what that costs: BENCHMARKS.md,
 * "What reading the credential once saves"). It sends with the helper `makeRoutingRequest` calls,
 * and the credential the run read once.
 */
import type {
	ICredentialDataDecryptedObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

/** The credential type, as n8n knows it. */
export const CREDENTIAL_TYPE = 'contractSigningApi';

/**
 * What one run of the node is known by: the execution, the node and its run index (`$runIndex`),
 * all the same on every try of Retry On Fail, which runs the node again on all its items.
 */
export function runKeyOf(context: IExecuteSingleFunctions): string {
	const { $runIndex } = context.getWorkflowDataProxy(context.getItemIndex());
	return `${context.getExecutionId()}\n${context.getNode().name}\n${String($runIndex)}`;
}

/**
 * Calls `handler` when the execution ends, when it is stopped too: n8n runs a declarative node
 * without the execution's cancel signal (n8n-core, `executeDeclarativeNodeInTest`), but its finish
 * hook also fires on Stop. On n8n versions without that hook (1.x, 2.0.x) only a cancel signal,
 * should n8n give one, calls it. `handler` may be called more than once.
 */
export function onExecutionEnd(context: IExecuteSingleFunctions, handler: () => void): void {
	context.onExecutionCancellation(handler);
	context.onExecutionFinish?.(handler);
}

/** A request with the credential the run read once; its `authenticate` runs for each request. */
export async function sendWithCredential(
	context: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	credential: ICredentialDataDecryptedObject,
): Promise<IN8nHttpFullResponse> {
	const { id = '', name = '' } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
	return (await context.helpers.httpRequestWithAuthentication.call(
		context,
		CREDENTIAL_TYPE,
		options,
		{ credentialsDecrypted: { id: id ?? '', name, type: CREDENTIAL_TYPE, data: credential } },
	)) as IN8nHttpFullResponse;
}
