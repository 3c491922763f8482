/**
 * The limits the user set in Options on the node's pace and on its waits for a busy service
 * (description/settings.ts), and where a message sends the user to change them.
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

/** How long and how often one item may wait for a busy service; the user sets both. */
export interface WaitLimits {
	maxRetries: number;
	maxWaitMs: number;
}

/** Where the node shows the limits, in the words a message uses to send the user there. */
export const LIMITS_SHOWN = {
	waits: 'as far as Max Retries When Busy and Max Wait When Busy (Seconds) in Options allow',
	rate: 'Options → Max Requests per Second',
};

/** The waits for a busy service the user allowed the item's node. */
export function waitLimitsOf(context: IExecuteSingleFunctions): WaitLimits {
	return waitLimits(context.getNodeParameter(optionsField.name, {}));
}

/** The cap the user set on the node's own pace. */
export function paceLimitsOf(context: IExecuteSingleFunctions): PaceLimits {
	return paceLimits(context.getNodeParameter(optionsField.name, {}));
}

/** The waits a limits' collection allows; anything unreadable keeps its default. */
export function waitLimits(value: unknown): WaitLimits {
	const maxRetries = numberIn(value, 'maxRetries', 0) ?? DEFAULT_MAX_RETRIES;
	const maxWaitSeconds = numberIn(value, 'maxWaitSeconds', 0) ?? DEFAULT_MAX_WAIT_SECONDS;
	return { maxRetries: Math.floor(maxRetries), maxWaitMs: maxWaitSeconds * 1000 };
}

/** The limits the user set; anything unreadable is left to the pace. */
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
