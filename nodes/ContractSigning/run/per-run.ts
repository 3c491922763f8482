/**
 * A value kept for each run of the node. A run is one execution's run of the node, known by the
 * execute data n8n hands every item of it (the same object on each try under Retry On Fail,
 * n8n-core workflow-execute); its values are let go with it.
 */
export class PerRun<Value> {
	private readonly runs = new WeakMap<object, Value>();

	/** The run's value, made by `make` on its first use. */
	of(executeData: object, make: () => Value): Value {
		let value = this.runs.get(executeData);
		if (value === undefined) {
			value = make();
			this.runs.set(executeData, value);
		}
		return value;
	}
}
