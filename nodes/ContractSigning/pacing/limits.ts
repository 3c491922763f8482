/** The limits the user set in Options (description/settings.ts) on the pace and the waits. */
import type { IExecuteSingleFunctions } from 'n8n-workflow';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_WAIT_SECONDS,
	optionsField,
} from '../description/settings';

/** Max Requests at Once and per Second: per run. */
export interface RequestLimits {
	maxAtOnce?: number;
	maxPerSecond?: number;
}

/** Max Retries When Busy and Max Wait When Busy: per item. */
export interface WaitLimits {
	maxRetries: number;
	maxWaitMs: number;
}

export function optionsOf(context: IExecuteSingleFunctions): unknown {
	return context.getNodeParameter(optionsField.name, {});
}

/** The waits Options allow an item; anything unreadable keeps its default. */
export function waitLimits(value: unknown): WaitLimits {
	const maxRetries = numberIn(value, 'maxRetries', 0) ?? DEFAULT_MAX_RETRIES;
	const maxWaitSeconds = numberIn(value, 'maxWaitSeconds', 0) ?? DEFAULT_MAX_WAIT_SECONDS;
	return { maxRetries: Math.floor(maxRetries), maxWaitMs: maxWaitSeconds * 1000 };
}

/** The request limits Options set a run; anything unreadable is left to the pace. */
export function requestLimits(value: unknown): RequestLimits {
	const maxAtOnce = numberIn(value, 'maxAtOnce', Number.MIN_VALUE);
	return {
		maxPerSecond: numberIn(value, 'maxPerSecond', Number.MIN_VALUE),
		maxAtOnce: maxAtOnce === undefined ? undefined : Math.max(1, Math.floor(maxAtOnce)),
	};
}

function numberIn(collection: unknown, name: string, least: number): number | undefined {
	const entry = (collection as Record<string, unknown> | null | undefined)?.[name];
	return typeof entry === 'number' && Number.isFinite(entry) && entry >= least ? entry : undefined;
}
