import { sleep } from 'n8n-workflow';
import { Stopped } from '../failure/item-failure';
import type { RunStop } from '../run/run-state';

const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 15_000;

/**
 * The pause before retry `retry` (from 0): the service's Retry-After, or else exponential backoff
 * with jitter, so that items turned away together do not come back together.
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
export async function pause(ms: number, stop?: RunStop): Promise<void> {
	if (!stop) return await sleep(ms);
	if (stop.aborted) throw new Stopped();
	let onAbort = () => {};
	const stopped = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Stopped());
		stop.add(onAbort);
	});
	const until = Date.now() + ms;
	try {
		for (let left = ms; left > 0; left = until - Date.now()) {
			await Promise.race([sleep(Math.min(left, LONGEST_SLEEP_MS)), stopped]);
		}
	} finally {
		stop.delete(onAbort);
	}
}
