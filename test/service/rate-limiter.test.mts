import { describe, expect, it } from 'vitest';
import { TokenBucket, type RateLimit } from './rate-limiter.mts';

/** Each request's time is given, so the bucket's figures follow from them alone. */
describe('the stand-in’s token bucket', () => {
	it('lets a burst through at once, then gives the milliseconds until a token is there', () => {
		const bucket = new TokenBucket(() => ({ perSecond: 5, burst: 5 }));
		expect([0, 0, 0, 0, 0].map((at) => bucket.take(1000 + at))).toEqual([0, 0, 0, 0, 0]);
		expect(bucket.take(1000)).toBe(200);
		expect(bucket.take(1100)).toBeCloseTo(100, 9);
		expect(bucket.take(1200)).toBe(0);
	});

	it('refills at its rate up to the burst, and takes a new rate at once', () => {
		let limit: RateLimit = { perSecond: 10, burst: 1 };
		const bucket = new TokenBucket(() => limit);
		expect(bucket.take(0)).toBe(0);
		expect(bucket.take(50)).toBeCloseTo(50, 9);
		expect(bucket.take(150)).toBe(0);
		// Ten seconds idle fill no more than the burst of 1.
		expect(bucket.take(10_150)).toBe(0);
		expect(bucket.take(10_150)).toBe(100);
		limit = { perSecond: 1, burst: 1 };
		expect(bucket.take(10_270)).toBeCloseTo(880, 9);
	});

	it('has no limit without one, and starts full again after reset', () => {
		let limit: RateLimit | undefined;
		const bucket = new TokenBucket(() => limit);
		expect(bucket.take(0)).toBe(0);
		limit = { perSecond: 1 };
		expect(bucket.take(0)).toBe(0);
		expect(bucket.take(0)).toBe(1000);
		bucket.reset();
		expect(bucket.take(0)).toBe(0);
	});
});
