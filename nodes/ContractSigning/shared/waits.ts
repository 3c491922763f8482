import { sleep, type INodeProperties } from 'n8n-workflow';

/** How long and how often one item may wait for a busy service; the user sets both. */
export interface WaitLimits {
	maxRetries: number;
	maxWaitMs: number;
}

const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_MAX_WAIT_SECONDS = 60;
const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 15_000;

export const retryWhenBusyField: INodeProperties = {
	displayName: 'Retry When Busy',
	name: 'retryWhenBusy',
	type: 'collection',
	placeholder: 'Add Limit',
	default: {},
	description:
		'When the service says it is busy (429 or 503) or refuses the connection, it has not acted on the request: the node waits, as long as the service asks, and sends that item again',
	options: [
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 20 },
			default: DEFAULT_MAX_RETRIES,
			description: 'How many times at most one item is sent again. 0 turns waiting off.',
		},
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: DEFAULT_MAX_WAIT_SECONDS,
			description: 'How long at most the node waits for one item, in all',
		},
	],
};

export function waitLimits(value: unknown): WaitLimits {
	const set = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
	const number = (entry: unknown, fallback: number) =>
		typeof entry === 'number' && Number.isFinite(entry) && entry >= 0 ? entry : fallback;
	return {
		maxRetries: Math.floor(number(set.maxRetries, DEFAULT_MAX_RETRIES)),
		maxWaitMs: number(set.maxWaitSeconds, DEFAULT_MAX_WAIT_SECONDS) * 1000,
	};
}

/**
 * The pause before retry number `retry` (from 0): what the service asked for in Retry-After,
 * or else exponential backoff with jitter, so that items refused together do not come back together.
 */
export function pauseBefore(retry: number, retryAfterMs?: number, random = Math.random): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** retry);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class Cancelled extends Error {
	constructor(when = 'while the node waited for the service') {
		// n8n marks an execution canceled when its error message says so.
		super(`The execution was canceled ${when}`);
	}
}

/** Waits `ms`, or less when the execution is cancelled: then it rejects with `Cancelled`. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw new Cancelled();
	let onAbort = () => {};
	const cancelled = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Cancelled());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		// n8n 1.x's sleep takes no signal; the race ends the wait there too.
		await Promise.race([sleep(ms, signal).catch(() => cancelled), cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
