import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../nodes/ContractSigning/shared/reply';
import { RunMemory } from '../../nodes/ContractSigning/shared/run-memory';
import { pause, pauseBefore, waitLimits } from '../../nodes/ContractSigning/shared/waits';

describe('retryAfterMs', () => {
	const now = Date.parse('2026-11-23T10:00:00Z');

	it.each([
		['2', 2000],
		['0', 0],
		['Mon, 23 Nov 2026 10:00:05 GMT', 5000],
		['Mon, 23 Nov 2026 09:59:00 GMT', 0],
		['soon', undefined],
		[undefined, undefined],
	])('reads %j as %j ms', (value, expected) => {
		expect(retryAfterMs(value, now)).toBe(expected);
	});
});

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

describe('waitLimits', () => {
	it('defaults to 5 retries within 60 s, and takes what the user set', () => {
		expect(waitLimits({})).toEqual({ maxRetries: 5, maxWaitMs: 60_000 });
		expect(waitLimits({ maxRetries: 0, maxWaitSeconds: 2.5 })).toEqual({
			maxRetries: 0,
			maxWaitMs: 2500,
		});
		expect(waitLimits({ maxRetries: -1, maxWaitSeconds: 'x' })).toEqual({
			maxRetries: 5,
			maxWaitMs: 60_000,
		});
	});
});

describe('pause', () => {
	it('ends early, rejecting, when the execution is cancelled', async () => {
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 50);
		await expect(pause(5000, controller.signal)).rejects.toThrow(/canceled/);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});

describe('RunMemory.once', () => {
	type Attempt = { final: boolean; value: string };

	it('gives an earlier final attempt again without sending, and sends the rest again', async () => {
		const memory = new RunMemory<Attempt>();
		let sent = 0;
		const send = (attempt: Attempt) => async () => {
			sent += 1;
			return attempt;
		};
		const isFinal = (attempt: Attempt) => attempt.final;
		await memory.once(0, send({ final: true, value: 'created' }), isFinal);
		await memory.once(1, send({ final: false, value: 'busy' }), isFinal);

		expect(await memory.once(0, send({ final: true, value: 'again' }), isFinal)).toEqual({
			attempt: { final: true, value: 'created' },
			replayed: true,
		});
		expect(await memory.once(1, send({ final: true, value: 'now' }), isFinal)).toEqual({
			attempt: { final: true, value: 'now' },
			replayed: false,
		});
		expect(sent).toBe(3);
	});

	it('waits for a send still under way instead of sending again', async () => {
		const memory = new RunMemory<Attempt>();
		let sent = 0;
		let finish: (attempt: Attempt) => void = () => {};
		const isFinal = (attempt: Attempt) => attempt.final;
		const first = memory.once(
			0,
			() => {
				sent += 1;
				return new Promise<Attempt>((resolve) => (finish = resolve));
			},
			isFinal,
		);
		const second = memory.once(
			0,
			async () => {
				sent += 1;
				return { final: true, value: 'second' };
			},
			isFinal,
		);
		finish({ final: true, value: 'first' });

		expect((await second).attempt).toEqual({ final: true, value: 'first' });
		expect((await first).attempt).toEqual({ final: true, value: 'first' });
		expect(sent).toBe(1);
	});
});

describe('RunMemory.itemSignal', () => {
	it('passes the execution’s stop on to every item through one listener', () => {
		const memory = new RunMemory<unknown>();
		const execution = new AbortController();
		const items = Array.from({ length: 500 }, () => memory.itemSignal(execution.signal));
		items[0].release();

		expect(getEventListeners(execution.signal, 'abort')).toHaveLength(1);
		execution.abort();
		expect(items.filter(({ signal }) => signal.aborted)).toHaveLength(499);
		expect(memory.itemSignal(execution.signal).signal.aborted).toBe(true);
	});
});
