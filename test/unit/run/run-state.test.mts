import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RunState } from '../../../nodes/ContractSigning/run/run-state';

describe('RunState.stopOf', () => {
	it('passes the execution’s stop on to every wait of the run through one listener', () => {
		const memory = new RunState();
		const execution = new AbortController();
		const stop = memory.stopOf(execution.signal);
		const calls: number[] = [];
		const waits = Array.from({ length: 500 }, (_, index) => () => calls.push(index));
		for (const wait of waits) memory.stopOf(execution.signal).addEventListener('abort', wait);
		stop.removeEventListener('abort', waits[0]);

		expect(getEventListeners(execution.signal, 'abort')).toHaveLength(1);
		expect(stop.aborted).toBe(false);
		execution.abort('stopped');
		expect(calls).toHaveLength(499);
		expect(calls).not.toContain(0);
		expect(memory.stopOf(execution.signal)).toMatchObject({ aborted: true, reason: 'stopped' });
	});

	it('calls each wait once, and a listener object by its handleEvent', () => {
		const memory = new RunState();
		const execution = new AbortController();
		let handled = 0;
		memory.stopOf(execution.signal).addEventListener('abort', { handleEvent: () => handled++ });
		execution.abort();
		memory.stopOf(execution.signal).abort();
		expect(handled).toBe(1);
	});

	it('never stops a run that has no signal of its execution', () => {
		const memory = new RunState();
		expect(memory.stopOf(undefined).aborted).toBe(false);
	});
});
