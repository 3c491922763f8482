/**
 * pauseBefore: how long an item waits for a busy service before it is sent again. Called directly,
 * with a fixed random number in place of Math.random.
 */
import { describe, expect, it } from 'vitest';
import { pauseBefore } from '../../../nodes/ContractSigning/shared/send';

/** The pauses before the tries after the first, 0 to `count - 1`, with this random number. */
const pauses = (count: number, random: number, retryAfterMs?: number) =>
	Array.from({ length: count }, (_, attempt) => pauseBefore(attempt, retryAfterMs, () => random));

describe('pauseBefore', () => {
	it('doubles with each try from 1 s, up to 20 s before the spread', () => {
		expect(pauses(7, 0.5)).toEqual([1000, 2000, 4000, 8000, 16_000, 20_000, 20_000]);
		expect(pauseBefore(60, undefined, () => 0.5)).toBe(20_000);
	});

	it('spreads each pause over half to one and a half its length, so that items do not return together', () => {
		expect(pauses(3, 0)).toEqual([500, 1000, 2000]);
		expect(pauses(3, 0.75)).toEqual([1250, 2500, 5000]);
		// Math.random stays below 1: a pause is at most one and a half its length, so at most 30 s.
		const almostOne = 1 - Number.EPSILON;
		expect(pauseBefore(2, undefined, () => almostOne)).toBe(6000);
		expect(pauseBefore(30, undefined, () => almostOne)).toBe(30_000);
	});

	it.each([0, 0.5, 1 - Number.EPSILON])(
		'waits at least what Retry-After asks, also beyond 30 s (random %d)',
		(random) => {
			for (const retryAfterMs of [0, 1, 1500, 5000, 29_999, 45_000, 3_600_000]) {
				for (const pause of pauses(8, random, retryAfterMs)) {
					expect(pause).toBeGreaterThanOrEqual(retryAfterMs);
				}
			}
		},
	);

	it('stretches Retry-After by up to half, and takes the backoff where it is longer', () => {
		expect(pauses(4, 0, 5000)).toEqual([5000, 5000, 5000, 5000]);
		expect(pauses(5, 0, 5000).at(-1)).toBe(8000);
		expect(pauseBefore(0, 45_000, () => 0.5)).toBe(56_250);
		expect(pauses(3, 0, 0)).toEqual(pauses(3, 0));
	});
});
