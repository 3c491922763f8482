/** What happens to one item, top-down, from its fields to its output. */
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

export interface OperationToSend {
	operation: Operation;
	fields: WireField[];
	rules: LabelledRules;
}

/**
 * The item's output: the service's record, or its error under "On Error: Continue". Under Retry
 * On Fail, a final result of an earlier try stands: sending again could create a record twice.
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

/** One try for the item, step by step; a step that fails ends it with its failure. */
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
	const { operation } = toSend;
	const request = { context, run, requestData, envelope, access, expected: operation };
	const reply = await sendUntilServed(request);
	if (!(reply instanceof ItemFailure))
		return simplify ? operation.simplify(reply, envelope) : reply;
	// An unknown outcome of a create: the record may exist. Where to look; final for the run.
	if (reply.kind !== 'unknown' || !operation.creates) return reply;
	return reply.with(operation.creates.mayExist(envelope), { final: true });
}

function readItem(
	context: IExecuteSingleFunctions,
	{ operation, fields, rules }: OperationToSend,
): { envelope: IDataObject; simplify: boolean } | ItemFailure {
	try {
		return {
			envelope: finishEnvelope(readFields(context, operation.action, fields), rules),
			simplify: simplifyOf(context.getNodeParameter(simplifyField.name, true)),
		};
	} catch (error) {
		return inputFailure(error);
	}
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
