import { describe, expect, it } from 'vitest';
import { requestLimits, waitLimits } from '../../../nodes/ContractSigning/pacing/limits';

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

describe('requestLimits', () => {
	it.each([
		[{}, { maxAtOnce: undefined, maxPerSecond: undefined }],
		[
			{ maxAtOnce: 4.7, maxPerSecond: 2.5 },
			{ maxAtOnce: 4, maxPerSecond: 2.5 },
		],
		[
			{ maxAtOnce: 0, maxPerSecond: -1 },
			{ maxAtOnce: undefined, maxPerSecond: undefined },
		],
		['x', { maxAtOnce: undefined, maxPerSecond: undefined }],
	])('%j → %j', (value, limits) => {
		expect(requestLimits(value)).toEqual(limits);
	});
});
