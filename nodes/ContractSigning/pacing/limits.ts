/**
 * The limits the user set in Options (description/settings.ts) on the node's pace and on its
 * waits for a busy service.
 */
import type { IExecuteSingleFunctions } from 'n8n-workflow';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_MAX_WAIT_SECONDS,
	optionsField,
} from '../description/settings';

/** The caps the user set on the node's own requests, within one execution. */
export interface PaceLimits {
	maxAtOnce?: number;
	maxPerSecond?: number;
}

export interface WaitLimits {
	maxRetries: number;
	maxWaitMs: number;
}

/** The item's node's Options, where the limits are. */
export function optionsOf(context: IExecuteSingleFunctions): unknown {
	return context.getNodeParameter(optionsField.name, {});
}

/** The waits Options allow an item; anything unreadable keeps its default. */
export function waitLimits(value: unknown): WaitLimits {
	const maxRetries = numberIn(value, 'maxRetries', 0) ?? DEFAULT_MAX_RETRIES;
	const maxWaitSeconds = numberIn(value, 'maxWaitSeconds', 0) ?? DEFAULT_MAX_WAIT_SECONDS;
	return { maxRetries: Math.floor(maxRetries), maxWaitMs: maxWaitSeconds * 1000 };
}

/** The cap Options set a run; anything unreadable is left to the pace. */
export function paceLimits(value: unknown): PaceLimits {
	const maxAtOnce = numberIn(value, 'maxAtOnce', Number.MIN_VALUE);
	return {
		maxPerSecond: numberIn(value, 'maxPerSecond', Number.MIN_VALUE),
		maxAtOnce: maxAtOnce === undefined ? undefined : Math.max(1, Math.floor(maxAtOnce)),
	};
}

/** The collection's entry `name` when it is a finite number of at least `least`. */
function numberIn(collection: unknown, name: string, least: number): number | undefined {
	const entry = (collection as Record<string, unknown> | null | undefined)?.[name];
	return typeof entry === 'number' && Number.isFinite(entry) && entry >= least ? entry : undefined;
}
