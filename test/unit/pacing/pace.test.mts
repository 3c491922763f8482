import { describe, expect, it, vi } from 'vitest';
import { Pace } from '../../../nodes/ContractSigning/pacing/pace';

const RUN = {};

/** Starts `count` turns; resolves with how many got theirs within `ms`. */
async function turnsWithin(pace: Pace, count: number, ms: number) {
	let got = 0;
	for (let index = 0; index < count; index++) void pace.turn(RUN).then(() => (got += 1));
	await new Promise((resolve) => setTimeout(resolve, ms));
	return got;
}

describe('Pace', () => {
	it('holds nothing back until the service first says it is busy', async () => {
		const pace = new Pace();
		expect(await turnsWithin(pace, 500, 20)).toBe(500);
		expect(pace.perSecond).toBeUndefined();
	});

	it('then sends half as many at once as were under way, and lets the next go when one is done', async () => {
		const pace = new Pace();
		const started = await Promise.all(Array.from({ length: 20 }, async () => await pace.turn(RUN)));
		pace.done(started[0], 'busy');
		// 19 still under way: the window is half of the 20 there were, so nothing more goes now.
		expect(pace.atOnce).toBe(10);
		let entered = 0;
		for (let index = 0; index < 3; index++) void pace.turn(RUN).then(() => (entered += 1));
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(entered).toBe(0);
		for (const sentAt of started.slice(1, 11)) pace.done(sentAt, 'other');
		// 9 under way, 10 at once: one of the three waiting goes.
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(entered).toBe(1);
	});

	it('after a slowdown the window grows by about one per window of accepted requests', () => {
		const pace = new Pace();
		const now = Date.now();
		const sentAt = now - 10;
		void Promise.all(Array.from({ length: 16 }, async () => await pace.turn(RUN)));
		pace.done(sentAt + 20, 'busy', now);
		const window = pace.atOnce;
		for (let index = 0; index < window + 1; index++) pace.done(now, 'accepted', now + 1);
		expect(pace.atOnce).toBe(window + 1);
	});

	it('learns a rate from what the service accepted in the last second, and slows once per burst', () => {
		const pace = new Pace();
		const now = Date.now();
		for (let index = 0; index < 40; index++) pace.done(now, 'accepted', now + index);
		expect(pace.perSecond).toBeUndefined();
		pace.done(now + 40, 'busy', now + 41);
		expect(pace.perSecond).toBe(32);
		// Refusals of requests sent before that slowdown belong to the same burst.
		pace.done(now + 40, 'busy', now + 42);
		expect(pace.perSecond).toBe(32);
		pace.done(now + 50, 'busy', now + 51);
		expect(pace.perSecond).toBeCloseTo(25.6);
	});

	it('spaces requests out at its rate', async () => {
		const pace = new Pace({ maxPerSecond: 20 });
		const times: number[] = [];
		await Promise.all(
			Array.from({ length: 4 }, async () => {
				times.push(await pace.turn(RUN));
			}),
		);
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(45);
	});

	it('keeps to the limits the user set', () => {
		const pace = new Pace({ maxAtOnce: 3, maxPerSecond: 5 });
		const now = Date.now();
		for (let index = 0; index < 50; index++) pace.done(now, 'accepted', now + index);
		expect(pace.atOnce).toBe(3);
		expect(pace.perSecond).toBe(5);
	});

	it('holds every turn until a Retry-After has passed', async () => {
		const pace = new Pace();
		const startedAt = Date.now();
		pace.holdUntil(startedAt + 200);
		expect((await pace.turn(RUN)) - startedAt).toBeGreaterThanOrEqual(195);
	});

	it('a turn still waiting ends when the execution is stopped, and frees nothing twice', async () => {
		const pace = new Pace({ maxAtOnce: 1 });
		const stop = new AbortController();
		const first = await pace.turn(RUN, stop.signal);
		const waiting = pace.turn(RUN, stop.signal);
		stop.abort();
		await expect(waiting).rejects.toThrow(
			'The execution was canceled while the node waited for its turn',
		);
		pace.done(first, 'accepted');
		expect(await pace.turn(RUN)).toBeGreaterThan(0);
	});
});

describe('Pace shared by runs', () => {
	it('gives turns round the waiting runs: one that comes later is not queued behind all of another', async () => {
		const pace = new Pace({ maxAtOnce: 1 });
		const bulk = {};
		const single = {};
		const order: string[] = [];
		const first = await pace.turn(bulk);
		const turns = [
			...[1, 2, 3].map(async () => {
				await pace.turn(bulk);
				order.push('bulk');
			}),
			(async () => {
				await pace.turn(single);
				order.push('single');
			})(),
		];
		pace.done(first, 'accepted');
		for (let index = 0; index < 3; index++) {
			await new Promise((resolve) => setTimeout(resolve, 5));
			pace.done(Date.now(), 'accepted');
		}
		await Promise.all(turns);
		expect(order).toEqual(['bulk', 'single', 'bulk', 'bulk']);
	});

	it('opens up again once the service has said nothing of being busy for a minute', () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const pace = new Pace();
			const now = Date.now();
			for (let index = 0; index < 10; index++) pace.done(now, 'accepted', now + index);
			pace.done(now + 20, 'busy', now + 21);
			expect(pace.perSecond).toBe(8);
			vi.setSystemTime(now + 30_000);
			void pace.turn(RUN);
			expect(pace.perSecond).toBeDefined();
			pace.done(now + 30_000, 'accepted');
			vi.setSystemTime(now + 90_000);
			void pace.turn(RUN);
			expect(pace.perSecond).toBeUndefined();
		} finally {
			vi.useRealTimers();
		}
	});
});
