import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RunState } from '../../../nodes/ContractSigning/run/run-state';

describe('RunState.itemSignal', () => {
	it('passes the execution’s stop on to every item through one listener', () => {
		const memory = new RunState();
		const execution = new AbortController();
		const items = Array.from({ length: 500 }, () => memory.itemSignal(execution.signal));
		items[0].release();

		expect(getEventListeners(execution.signal, 'abort')).toHaveLength(1);
		execution.abort();
		expect(items.filter(({ signal }) => signal.aborted)).toHaveLength(499);
		expect(memory.itemSignal(execution.signal).signal.aborted).toBe(true);
	});
});
