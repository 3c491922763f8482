import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	LET_GO_RUN_AFTER_MS,
	RunStop,
	runStateOf,
	runsRemembered,
} from '../../../nodes/ContractSigning/run/run-state';

afterEach(() => {
	vi.useRealTimers();
});

/** An item's context as n8n gives it, with the hooks the run state registers. */
function itemOf(executionId: string, runIndex = 0, node = 'Create Client') {
	const ends: Array<() => unknown> = [];
	const context = {
		getExecutionId: () => executionId,
		getNode: () => ({ name: node }),
		getItemIndex: () => 0,
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		onExecutionCancellation: () => {},
		onExecutionFinish: (handler: () => unknown) => ends.push(handler),
	} as unknown as IExecuteSingleFunctions;
	return { context, end: () => ends.forEach((handler) => handler()) };
}

describe('runStateOf', () => {
	it('is the same for the items and tries of one run, and another for each run or execution', () => {
		const first = runStateOf(itemOf('exec-a').context);
		expect(runStateOf(itemOf('exec-a').context)).toBe(first);
		expect(runStateOf(itemOf('exec-a', 1).context)).not.toBe(first);
		expect(runStateOf(itemOf('exec-a', 0, 'Create Contract').context)).not.toBe(first);
		expect(runStateOf(itemOf('exec-b').context)).not.toBe(first);
	});

	it('stops every wait of the run and lets it go when the execution ends', () => {
		const { context, end } = itemOf('exec-ended');
		const run = runStateOf(context);
		const before = runsRemembered();
		end();
		expect(run.stop.aborted).toBe(true);
		expect(runsRemembered()).toBe(before - 1);
		expect(runStateOf(context)).not.toBe(run);
	});

	it('lets go a run idle for a minute, not one with an item under way', async () => {
		vi.useFakeTimers();
		const idle = runStateOf(itemOf('exec-idle').context);
		const busy = runStateOf(itemOf('exec-busy').context);
		let done = () => {};
		const working = busy.withItem(async () => await new Promise<void>((end) => (done = end)));
		vi.advanceTimersByTime(LET_GO_RUN_AFTER_MS + 1000);
		expect(runStateOf(itemOf('exec-busy').context)).toBe(busy);
		expect(runStateOf(itemOf('exec-idle').context)).not.toBe(idle);
		done();
		await working;
	});
});

describe('RunStop', () => {
	it('calls every wait once, but one removed before', () => {
		const stop = new RunStop();
		const calls: number[] = [];
		const waits = Array.from({ length: 500 }, (_, index) => () => calls.push(index));
		for (const wait of waits) stop.add(wait);
		stop.delete(waits[0]);
		stop.abort();
		stop.abort();
		expect(calls).toHaveLength(499);
		expect(calls).not.toContain(0);
	});

	it('calls a listener object by its handleEvent', () => {
		const stop = new RunStop();
		let handled = 0;
		stop.add({ handleEvent: () => handled++ });
		stop.abort();
		expect(handled).toBe(1);
	});
});
