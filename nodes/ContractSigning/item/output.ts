/**
 * What happens to one item, top-down, from its fields to its output: `itemOutput` is what the
 * routing's hook returns for the item (send.ts), `tryItem` one try of it, step by step.
 */
import {
	UserError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { accessFor } from '../account/access';
import { simplifyField } from '../description/settings';
import type { Operation, WireField } from '../description/operation';
import { inputFailure, ItemFailure } from '../failure/item-failure';
import { errorItemJson, nodeErrorOf } from '../failure/n8n-error';
import { sendUntilServed } from '../pacing/turns';
import type { RunState } from '../run/run-state';
import { finishEnvelope, type LabelledRules } from './envelope';
import { readFields } from './read-fields';
import { retryMemoryOf, type ItemResult } from './retry-memory';

/** An operation, with the fields it sends and the rules its envelope is checked by. */
export interface OperationToSend {
	operation: Operation;
	fields: WireField[];
	rules: LabelledRules;
}

/**
 * The item's output: the service's record, or its error under "On Error: Continue". Under Retry
 * On Fail, a final result of an earlier try stands: sending the item again could create its
 * record twice.
 */
export async function itemOutput(
	context: IExecutePaginationFunctions,
	run: RunState,
	toSend: OperationToSend,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const itemIndex = context.getItemIndex();
	const memory = context.getNode().retryOnFail === true ? retryMemoryOf(run) : undefined;
	let result = await memory?.finalResult(itemIndex);
	if (result === undefined) {
		const thisTry = tryItem(context, run, toSend, requestData);
		memory?.keep(itemIndex, thisTry);
		result = await thisTry;
	}
	const pairedItem = { item: itemIndex };
	if (!(result instanceof ItemFailure)) return [{ json: result, pairedItem }];
	// After a stop, a failure is no output: n8n then marks the execution as stopped, not failed.
	if (run.stop.aborted) return [];
	const error = nodeErrorOf(context.getNode(), result, itemIndex);
	if (!context.continueOnFail()) throw error;
	return [{ json: errorItemJson(error, result), pairedItem }];
}

/**
 * One try of the node for the item, step by step, to the item's output json; a step that fails
 * ends it with its failure. Only the output outlives the try, or the failure with at most 10,000
 * characters of the reply (`wire/request.ts`): the envelope and the rest of the reply go.
 */
async function tryItem(
	context: IExecutePaginationFunctions,
	run: RunState,
	toSend: OperationToSend,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<ItemResult> {
	const item = readItem(context, toSend);
	if (item instanceof ItemFailure) return item;
	const access = await accessFor(context, run);
	if (access instanceof ItemFailure) return access;
	const { envelope, simplify } = item;
	const reply = await sendUntilServed({
		context,
		run,
		requestData,
		envelope,
		access,
		expected: toSend.operation,
	});
	if (reply instanceof ItemFailure) return withMayExistHint(reply, toSend.operation, envelope);
	return simplify ? toSend.operation.simplify(reply, envelope) : reply;
}

/** The item's envelope and output setting, or why the node cannot send it. */
function readItem(
	context: IExecuteSingleFunctions,
	{ operation, fields, rules }: OperationToSend,
): { envelope: IDataObject; simplify: boolean } | ItemFailure {
	try {
		const body = readFields(context, operation.action, fields);
		const normalize = operation.normalize ?? ((fields: IDataObject) => fields);
		return {
			envelope: finishEnvelope(normalize(body), rules),
			simplify: simplifyOf(context.getNodeParameter(simplifyField.name, true)),
		};
	} catch (error) {
		return inputFailure(error);
	}
}

/**
 * A failure whose outcome is unknown, of an operation that creates: the record may exist. It
 * says where to look, and is final: the item is not sent again in this run.
 */
function withMayExistHint(
	failure: ItemFailure,
	operation: Operation,
	envelope: IDataObject,
): ItemFailure {
	if (failure.kind !== 'unknown' || !operation.creates) return failure;
	return failure.with(operation.creates.mayExist(envelope), { final: true });
}

/** Simplify as the user set it; text from an expression counts only as "true" or "false". */
export function simplifyOf(value: unknown): boolean {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	throw new UserError(
		`'Simplify' must be true or false, but it is ${JSON.stringify(value) ?? String(value)}`,
		{
			description:
				"Switch 'Simplify' on or off, or give an expression that results in true or false.",
		},
	);
}
