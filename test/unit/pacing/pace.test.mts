import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_CEILING } from '../../../nodes/ContractSigning/pacing/line';
import type { RequestLimits } from '../../../nodes/ContractSigning/pacing/limits';
import { Pace } from '../../../nodes/ContractSigning/pacing/pace';
import { RunStop } from '../../../nodes/ContractSigning/run/run-state';
import { Stopped } from '../../../nodes/ContractSigning/failure/item-failure';

const RUN = {};

/** Once every turn the pace can give now has been given: its turns come by promises, not timers, without a rate. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The gaps in ms between the next three turns, under fake timers: 1000 / the pace's rate (to the
 * timer's millisecond), or 0 where it has none.
 */
async function gapsBetweenTurns(pace: Pace): Promise<number[]> {
	const turns = Promise.all([1, 2, 3].map(async () => await pace.waitForTurn({})));
	await vi.advanceTimersByTimeAsync(5000);
	const times = await turns;
	return times.slice(1).map((time, index) => time - times[index]);
}

/** Runs `test` under fake timers, and puts the real ones back after it. */
async function withFakeTimers(test: () => Promise<void>): Promise<void> {
	vi.useFakeTimers();
	try {
		await test();
	} finally {
		vi.useRealTimers();
	}
}

/**
 * `accepted` requests accepted within the last second at `now`, then a busy reply: the pace
 * learns a rate of 80 % of them.
 */
function learnRate(pace: Pace, accepted: number, now: number): void {
	for (let index = 0; index < accepted; index++) pace.requestEnded(RUN, now, 'served', now + index);
	pace.requestEnded(RUN, now + accepted, 'busy', now + accepted + 1);
}

/** Gaps of 1000 / `perSecond` ms, give or take a timer's rounding. */
const gapsOf = (perSecond: number) => [
	expect.closeTo(1000 / perSecond, -0.5),
	expect.closeTo(1000 / perSecond, -0.5),
];

describe('Pace', () => {
	it('starts with 10 at once, and grows by one per reply while the window is full: double per round', async () => {
		const pace = new Pace();
		const sent: number[] = [];
		for (let index = 0; index < 100; index++)
			void pace.waitForTurn(RUN).then((at) => sent.push(at));
		await settled();
		expect(sent).toHaveLength(10);
		for (const sentAt of sent.splice(0)) pace.requestEnded(RUN, sentAt, 'served');
		await settled();
		expect(pace.window).toBe(20);
		expect(sent).toHaveLength(20);
	});

	it('does not grow while the window is not full: more at once would bring nothing more through', async () => {
		const pace = new Pace();
		for (let round = 0; round < 5; round++) {
			const sentAt = await Promise.all([pace.waitForTurn(RUN), pace.waitForTurn(RUN)]);
			for (const at of sentAt) pace.requestEnded(RUN, at, 'served');
		}
		expect(pace.window).toBe(10);
	});

	it('never has more under way than the ceiling of the run, 256 unless the run asks for more', async () => {
		const pace = new Pace();
		const underWay = { count: 0, most: 0 };
		const send = async (run: object, limits: RequestLimits) => {
			const sentAt = await pace.waitForTurn(run, undefined, limits);
			underWay.count += 1;
			underWay.most = Math.max(underWay.most, underWay.count);
			await new Promise((resolve) => setTimeout(resolve, 1));
			underWay.count -= 1;
			pace.requestEnded(run, sentAt, 'served');
		};
		await Promise.all(Array.from({ length: 3000 }, async () => await send(RUN, {})));
		expect(underWay.most).toBe(ACCOUNT_CEILING);
		underWay.most = 0;
		const raised = {};
		await Promise.all(
			Array.from({ length: 3000 }, async () => await send(raised, { maxAtOnce: 400 })),
		);
		expect(underWay.most).toBe(400);
	});

	it.each([
		['at the ceiling of the account’s requests, 256', {}, ACCOUNT_CEILING],
		['at a run’s Max Requests at Once', { maxAtOnce: 16 }, 16],
	])(
		'%s, lets the run go again only once an eighth of it is free, together',
		async (_, limits: RequestLimits, most) => {
			const pace = new Pace();
			pace.window = 1000;
			const sent: number[] = [];
			for (let index = 0; index < most + 50; index++)
				void pace.waitForTurn(RUN, undefined, limits).then((at) => sent.push(at));
			await settled();
			expect(sent).toHaveLength(most);
			const eighth = Math.ceil(most / 8);
			for (const at of sent.slice(0, eighth - 1)) pace.requestEnded(RUN, at, 'served');
			await settled();
			expect(sent).toHaveLength(most);
			pace.requestEnded(RUN, sent[eighth - 1], 'served');
			await settled();
			expect(sent).toHaveLength(most + eighth);
		},
	);

	it('starts from a run’s Max Requests at Once to an account that has not said it is busy, not after it has', async () => {
		const pace = new Pace();
		const sent: number[] = [];
		for (let index = 0; index < 100; index++)
			void pace.waitForTurn({}, undefined, { maxAtOnce: 40 }).then((at) => sent.push(at));
		await settled();
		expect(sent).toHaveLength(40);
		expect(pace.window).toBe(40);
		pace.requestEnded(RUN, sent[0], 'busy');
		void pace.waitForTurn({}, undefined, { maxAtOnce: 80 });
		expect(pace.window).toBe(40);
	});

	it('keeps a run at its ceiling when its turns come one at a time, as Max Requests at Once lets them in', async () => {
		const pace = new Pace();
		const limits = { maxAtOnce: 16 };
		const sent = await Promise.all(
			Array.from({ length: 16 }, async () => await pace.waitForTurn(RUN, undefined, limits)),
		);
		// The run's line is empty now; its next turn comes after a reply, as Max Requests at Once gives it.
		pace.requestEnded(RUN, sent[0], 'served');
		let entered = 0;
		void pace.waitForTurn(RUN, undefined, limits).then(() => (entered += 1));
		await settled();
		// 15 under way: not yet 2 (an eighth of 16) free.
		expect(entered).toBe(0);
		pace.requestEnded(RUN, sent[1], 'served');
		await settled();
		expect(entered).toBe(1);
	});

	it('learns a rate from what the service accepted in the last second, and slows once per burst', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const now = Date.now();
			for (let index = 0; index < 40; index++) pace.requestEnded(RUN, now, 'served', now + index);
			expect(await gapsBetweenTurns(pace)).toEqual([0, 0]);
			pace.requestEnded(RUN, now + 40, 'busy', now + 41);
			// 80 % of the 40 accepted in the last second.
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(32));
			// Refusals of requests sent before that slowdown belong to the same burst.
			pace.requestEnded(RUN, now + 40, 'busy', now + 42);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(32));
			pace.requestEnded(RUN, now + 50, 'busy', now + 51);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(25.6));
		}));

	it('counts toward its rate the replies of a burst that come after the burst’s busy reply', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const now = Date.now();
			learnRate(pace, 30, now);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(24));
			// 10 more of the burst were accepted: 80 % of the 40.
			for (let index = 0; index < 10; index++)
				pace.requestEnded(RUN, now, 'served', now + 40 + index);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(32));
		}));

	it('speeds up by 3 % a second while the service keeps up', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const now = Date.now();
			learnRate(pace, 40, now);
			// At 32 a second, 100 accepted take about 3 s: 32 + 100 × 0.03.
			for (let index = 0; index < 100; index++) {
				pace.requestEnded(RUN, now + 50, 'served', now + 50 + index * 31);
			}
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(35));
		}));

	it('after a busy reply, the next request keeps its distance at the new rate', async () => {
		const pace = new Pace();
		const [turnedAway, other] = await Promise.all([pace.waitForTurn(RUN), pace.waitForTurn(RUN)]);
		const busyAt = Date.now();
		// None accepted in the last second: 80 % of the 2 under way, 1.6 per second.
		pace.requestEnded(RUN, turnedAway, 'busy', busyAt);
		const next = pace.waitForTurn(RUN);
		pace.requestEnded(RUN, other, undefined);
		expect((await next) - busyAt).toBeGreaterThanOrEqual(620);
	});

	it('spaces a run’s requests out at its Max Requests per Second', async () => {
		const pace = new Pace();
		const times: number[] = [];
		await Promise.all(
			Array.from({ length: 4 }, async () => {
				times.push(await pace.waitForTurn(RUN, undefined, { maxPerSecond: 20 }));
			}),
		);
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(45);
	});

	it('keeps a run to the limits the user set, counting the run’s requests sent', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const limits = { maxAtOnce: 3, maxPerSecond: 5 };
			const sent: number[] = [];
			for (let index = 0; index < 10; index++)
				void pace.waitForTurn(RUN, undefined, limits).then((at) => sent.push(at));
			await vi.advanceTimersByTimeAsync(2000);
			expect(sent.map((at) => at - sent[0])).toEqual([0, 200, 400]);
			pace.requestEnded(RUN, sent[0], 'served');
			await vi.advanceTimersByTimeAsync(0);
			expect(sent).toHaveLength(4);
			// Another run's requests are not held by this run's limits.
			expect(await pace.waitForTurn({})).toBe(Date.now());
		}));

	it('spaces a run’s requests at its Max Requests per Second after a hold too, not all at its end', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const now = Date.now();
			pace.holdUntil(now + 1000);
			const sent: number[] = [];
			for (let index = 0; index < 3; index++) {
				void pace
					.waitForTurn(RUN, undefined, { maxPerSecond: 10 })
					.then((at) => sent.push(at - now));
			}
			await vi.advanceTimersByTimeAsync(2000);
			expect(sent).toEqual([1000, 1100, 1200]);
		}));

	it('holds every turn until a Retry-After has passed', async () => {
		const pace = new Pace();
		const startedAt = Date.now();
		pace.holdUntil(startedAt + 200);
		expect((await pace.waitForTurn(RUN)) - startedAt).toBeGreaterThanOrEqual(195);
	});

	it('a turn still waiting ends when the execution is stopped, and frees nothing twice', async () => {
		const pace = new Pace();
		const stop = new RunStop();
		const first = await pace.waitForTurn(RUN, stop, { maxAtOnce: 1 });
		const waiting = pace.waitForTurn(RUN, stop);
		stop.abort();
		await expect(waiting).rejects.toBeInstanceOf(Stopped);
		const endedAt = Date.now();
		pace.requestEnded(RUN, first, 'served');
		// The one place is free again: the next turn is given now, not held by the stopped one.
		expect(await pace.waitForTurn(RUN)).toBeGreaterThanOrEqual(endedAt);
	});
});

describe('Pace shared by runs', () => {
	it('gives turns round the waiting runs: one that comes later is not queued behind all of another', async () => {
		const pace = new Pace();
		pace.window = 1;
		const bulk = {};
		const single = {};
		const order: string[] = [];
		const first = await pace.waitForTurn(bulk);
		const turns = [
			...[1, 2, 3].map(async () => {
				await pace.waitForTurn(bulk);
				order.push('bulk');
			}),
			(async () => {
				await pace.waitForTurn(single);
				order.push('single');
			})(),
		];
		pace.requestEnded(bulk, first, 'served');
		for (const run of [bulk, single, bulk]) {
			await new Promise((resolve) => setTimeout(resolve, 5));
			pace.requestEnded(run, Date.now(), 'served');
		}
		await Promise.all(turns);
		expect(order).toEqual(['bulk', 'single', 'bulk', 'bulk']);
	});

	it('a run whose every waiting request stopped holds back no other run', async () => {
		const pace = new Pace();
		pace.window = 1;
		const first = await pace.waitForTurn(RUN);
		const stop = new RunStop();
		const stopped = pace.waitForTurn({}, stop);
		const other = pace.waitForTurn({});
		stop.abort();
		await expect(stopped).rejects.toBeInstanceOf(Stopped);
		const endedAt = Date.now();
		pace.requestEnded(RUN, first, 'served');
		expect(await other).toBeGreaterThanOrEqual(endedAt);
	});

	it('opens up again once the service has said nothing of being busy for a minute', async () =>
		await withFakeTimers(async () => {
			const pace = new Pace();
			const now = Date.now();
			learnRate(pace, 10, now);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(8));
			vi.setSystemTime(now + 30_000);
			expect(await gapsBetweenTurns(pace)).toEqual(gapsOf(8));
			vi.setSystemTime(now + 90_000);
			expect(await gapsBetweenTurns(pace)).toEqual([0, 0]);
		}));
});
