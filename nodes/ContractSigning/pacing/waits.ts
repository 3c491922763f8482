import { sleep } from 'n8n-workflow';
import { Stopped } from '../failure/item-failure';
import type { StopSignal } from '../run/run-state';

const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 15_000;

/**
 * The pause before retry number `retry` (from 0): the service's Retry-After, or else exponential
 * backoff with jitter, so that items a busy service turned away together do not come back so.
 */
export function pauseBefore(retry: number, retryAfterMs?: number, random = Math.random): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** retry);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The longest single sleep of a pause: a stop leaves its timer behind for at most this long. */
const LONGEST_SLEEP_MS = 1000;

/**
 * Waits `ms`, or less when the execution is stopped: then it rejects with `Stopped` at once.
 * n8n's `sleep` cannot be cancelled, so a long pause is slept a second at a time.
 */
export async function pause(ms: number, signal?: StopSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw new Stopped();
	let onAbort = () => {};
	const stopped = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Stopped());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	const until = Date.now() + ms;
	try {
		for (let left = ms; left > 0; left = until - Date.now()) {
			await Promise.race([sleep(Math.min(left, LONGEST_SLEEP_MS)), stopped]);
		}
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
