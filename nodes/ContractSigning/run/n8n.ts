/** How the node knows its run and its end; CONTRIBUTING gives each call's precedent in n8n. */
import type { IExecuteSingleFunctions } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'contractSigningApi';

/** A run of the node: its execution, name and run index, the same on every try of Retry On Fail. */
export function runKeyOf(context: IExecuteSingleFunctions): string {
	const { $runIndex } = context.getWorkflowDataProxy(context.getItemIndex());
	return `${context.getExecutionId()}\n${context.getNode().name}\n${String($runIndex)}`;
}

/**
 * Calls `handler` (maybe more than once) when the execution ends, a stopped one too: n8n runs a
 * declarative node without its cancel signal, but its finish hook fires on Stop. Without that
 * hook (1.x, 2.0.x) only a cancel signal, should n8n give one, calls it.
 */
export function onExecutionEnd(context: IExecuteSingleFunctions, handler: () => void): void {
	context.onExecutionCancellation(handler);
	context.onExecutionFinish?.(handler);
}
