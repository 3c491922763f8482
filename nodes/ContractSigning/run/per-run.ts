import type { RunState } from './run-state';

/** A value kept for each run of the node (run-state.ts), let go with it. */
export class PerRun<Value> {
	private readonly runs = new WeakMap<RunState, Value>();

	/** The run's value, made by `make` on its first use. */
	of(run: RunState, make: () => Value): Value {
		let value = this.runs.get(run);
		if (value === undefined) {
			value = make();
			this.runs.set(run, value);
		}
		return value;
	}
}
