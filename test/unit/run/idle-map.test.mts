import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleMap } from '../../../nodes/ContractSigning/run/idle-map';

afterEach(() => {
	vi.useRealTimers();
});

describe('IdleMap', () => {
	it('looks for idle entries when one is asked for, at most once a second', () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		const startedAt = Date.now();
		const map = new IdleMap<string, { idle: boolean }>(100, (value, now) =>
			value.idle ? now - startedAt : 0,
		);
		map.of('idle', () => ({ idle: true }));
		map.of('in use', () => ({ idle: false }));
		vi.setSystemTime(startedAt + 999);
		map.of('in use', () => ({ idle: false }));
		// Idle for longer than 100 ms, but the last look was less than a second ago.
		expect([...map.keys()]).toEqual(['idle', 'in use']);
		vi.setSystemTime(startedAt + 1000);
		map.of('in use', () => ({ idle: false }));
		expect([...map.keys()]).toEqual(['in use']);
	});
});
