/**
 * What the node asks of n8n to know its run and its end. CONTRIBUTING's "Where the node leans on
 * n8n" gives, for each call into n8n, where n8n documents it or which of its nodes does the same.
 */
import type { IExecuteSingleFunctions } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'contractSigningApi';

/**
 * What one run of the node is known by: the execution, the node and its run index, the same on
 * every try of Retry On Fail, which runs the node again on all its items.
 */
export function runKeyOf(context: IExecuteSingleFunctions): string {
	const { $runIndex } = context.getWorkflowDataProxy(context.getItemIndex());
	return `${context.getExecutionId()}\n${context.getNode().name}\n${String($runIndex)}`;
}

/**
 * Calls `handler` when the execution ends, a stopped one too: n8n runs a declarative node without
 * the execution's cancel signal (n8n-core, `executeDeclarativeNodeInTest`), but its finish hook
 * fires on Stop. Without that hook (1.x, 2.0.x) only a cancel signal, should n8n give one, calls
 * it. `handler` may be called more than once.
 */
export function onExecutionEnd(context: IExecuteSingleFunctions, handler: () => void): void {
	context.onExecutionCancellation(handler);
	context.onExecutionFinish?.(handler);
}
