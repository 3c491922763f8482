/**
 * What one run of the node holds while it sends: its access, the stop that ends its waits, and
 * what other modules keep for it. Every try of Retry On Fail finds the same state; it goes when
 * the execution ends, or after a minute idle.
 */
import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { IdleMap } from './idle-map';
import { onExecutionEnd, runKeyOf } from './n8n';

/** A run with no item under way for this long is let go; n8n waits at most 5 s between tries. */
export const LET_GO_RUN_AFTER_MS = 60_000;

export class RunState {
	/** Aborts when the execution ends, a stopped one included; every wait of the run listens to it. */
	readonly stop = new RunStop();

	private access?: Promise<unknown>;
	private readonly kept = new Map<object, unknown>();
	private underWay = 0;
	lastUsedAt = Date.now();

	/** Made once while items are under way: once per try, unless Batching lets them all end first. */
	async accessOnce<Access>(load: () => Promise<Access>): Promise<Access> {
		this.access ??= load();
		return (await this.access) as Access;
	}

	/** What another module keeps for the run under `key`, made by `make` on its first use. */
	keep<Value>(key: object, make: () => Value): Value {
		if (!this.kept.has(key)) this.kept.set(key, make());
		return this.kept.get(key) as Value;
	}

	/** Does an item's `work`, counting the item as under way meanwhile. */
	async withItem<Result>(work: () => Promise<Result>): Promise<Result> {
		this.underWay += 1;
		this.lastUsedAt = Date.now();
		try {
			return await work();
		} finally {
			this.underWay -= 1;
			this.lastUsedAt = Date.now();
			if (this.underWay === 0) this.access = undefined;
		}
	}

	idleSince(now: number): number {
		return this.underWay > 0 ? 0 : now - this.lastUsedAt;
	}
}

/** A listener of a run's stop: a function, or an object by its `handleEvent`. */
type StopListener = (() => void) | { handleEvent: () => void };

/** Not an AbortSignal: thousands of waits on one would warn of a leak. */
export class RunStop extends Set<StopListener> {
	aborted = false;

	abort(): void {
		if (this.aborted) return;
		this.aborted = true;
		const listeners = [...this];
		this.clear();
		for (const listener of listeners) {
			if (typeof listener === 'function') listener();
			else listener.handleEvent();
		}
	}
}

const runs = new IdleMap<string, RunState>(LET_GO_RUN_AFTER_MS, (run, now) => run.idleSince(now));

export function runStateOf(context: IExecuteSingleFunctions): RunState {
	const key = runKeyOf(context);
	return runs.of(key, () => {
		const state = new RunState();
		onExecutionEnd(context, () => {
			state.stop.abort();
			runs.letGo(key, state);
		});
		return state;
	});
}

export function runsRemembered(): number {
	return runs.size;
}
