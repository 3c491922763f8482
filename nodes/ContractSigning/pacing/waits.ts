import { sleep } from 'n8n-workflow';
import { Stopped } from '../failure/item-failure';
import type { StopSignal } from '../run/run-state';

const FIRST_BACKOFF_MS = 500;
const LONGEST_BACKOFF_MS = 15_000;

/**
 * The pause before retry number `retry` (from 0): what the service asked for in Retry-After,
 * or else exponential backoff with jitter, so that items refused together do not come back together.
 */
export function pauseBefore(retry: number, retryAfterMs?: number, random = Math.random): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** retry);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits `ms`, or less when the execution is stopped: then it rejects with `Stopped`. */
export async function pause(ms: number, signal?: StopSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw new Stopped();
	let onAbort = () => {};
	const stopped = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Stopped());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), stopped]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}
