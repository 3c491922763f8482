/**
 * The memory: what the node keeps while it runs, in the node's context of this execution
 * (`this.getContext('node')`, where Loop Over Items keeps its own), which ends with the execution.
 */
import { deepCopy, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';

/** An item's output, or the error (message, code, description) that stands for it on every try. */
export type ItemResult = { json: IDataObject[] } | { error: IDataObject };

/**
 * The item's request under way: what it sends and whether its output is simplified; for a create,
 * where to look for a record the service may have made (`whereToLook` in shared/envelope.ts);
 * under On Error → Continue, the input error.
 */
export interface Sent {
	envelope?: IDataObject;
	simplify?: boolean;
	mayExist?: { record: string; lookFor: (data: IDataObject) => string };
	refused?: ItemResult;
}

interface Memory {
	/** By item index: a run of the node handles one item at each index at a time. */
	sent?: Record<number, Sent>;
	/** Under Retry On Fail, each item's final result: sending again could create it twice. */
	results?: Record<string, ItemResult>;
}

const memoryOf = (context: IExecuteSingleFunctions) => context.getContext('node') as Memory;

export function keepSent(context: IExecuteSingleFunctions, sent: Sent): void {
	(memoryOf(context).sent ??= {})[context.getItemIndex()] = sent;
}

/** The item's request under way; `forget` once its send is over. */
export function sentOf(context: IExecuteSingleFunctions, forget = false): Sent {
	const kept = memoryOf(context).sent ?? {};
	const sent = kept[context.getItemIndex()] ?? {};
	if (forget) delete kept[context.getItemIndex()];
	return sent;
}

/** The item's place across the tries of Retry On Fail, which keep the run index. */
function resultKey(context: IExecuteSingleFunctions): string {
	const { $runIndex } = context.getWorkflowDataProxy(context.getItemIndex());
	return `${context.getExecutionId()}:${$runIndex}:${context.getItemIndex()}`;
}

export function earlierResult(context: IExecuteSingleFunctions): ItemResult | undefined {
	const result = memoryOf(context).results?.[resultKey(context)];
	return result && deepCopy(result);
}

export function keepResult(context: IExecuteSingleFunctions, result: ItemResult): void {
	(memoryOf(context).results ??= {})[resultKey(context)] = deepCopy(result);
}
