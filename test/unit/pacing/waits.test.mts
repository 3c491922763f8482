import { describe, expect, it, vi } from 'vitest';
import { pause, pauseBefore } from '../../../nodes/ContractSigning/pacing/waits';
import { RunStop } from '../../../nodes/ContractSigning/run/run-state';
import { Stopped } from '../../../nodes/ContractSigning/failure/item-failure';

describe('pauseBefore', () => {
	it('takes what the service asked for', () => {
		expect(pauseBefore(3, 1234)).toBe(1234);
	});

	it('backs off exponentially, with jitter between half and all of the step, capped', () => {
		expect([0, 1, 2, 3].map((retry) => pauseBefore(retry, undefined, () => 0))).toEqual([
			250, 500, 1000, 2000,
		]);
		expect([0, 1, 2, 3].map((retry) => pauseBefore(retry, undefined, () => 1))).toEqual([
			500, 1000, 2000, 4000,
		]);
		expect(pauseBefore(20, undefined, () => 1)).toBe(15_000);
	});
});

describe('pause', () => {
	it('ends early, rejecting, when the execution is stopped', async () => {
		vi.useFakeTimers();
		try {
			const stop = new RunStop();
			let ended: unknown;
			const paused = pause(5000, stop).catch((error: unknown) => (ended = error));
			await vi.advanceTimersByTimeAsync(50);
			expect(ended).toBeUndefined();
			stop.abort();
			await paused;
			expect(ended).toBeInstanceOf(Stopped);
		} finally {
			vi.useRealTimers();
		}
	});

	it('leaves no timer behind for more than a second after a stop', async () => {
		vi.useFakeTimers();
		try {
			const stop = new RunStop();
			const paused = pause(30_000, stop);
			await vi.advanceTimersByTimeAsync(2_500);
			stop.abort();
			await expect(paused).rejects.toBeInstanceOf(Stopped);
			await vi.advanceTimersByTimeAsync(1_000);
			expect(vi.getTimerCount()).toBe(0);
		} finally {
			vi.useRealTimers();
		}
	});

	it('still waits the whole time when nothing stops it', async () => {
		vi.useFakeTimers();
		try {
			let done = false;
			const paused = pause(2_500, new RunStop()).then(() => (done = true));
			await vi.advanceTimersByTimeAsync(2_400);
			expect(done).toBe(false);
			await vi.advanceTimersByTimeAsync(100);
			await paused;
			expect(done).toBe(true);
		} finally {
			vi.useRealTimers();
		}
	});
});
