/**
 * A map whose entries go once idle for `afterMs`, so that memory stays bounded by what is in use.
 * Idle entries are looked for when an entry is asked for, at most once a second: no timer keeps
 * n8n's process busy.
 */
export class IdleMap<Key, Value> extends Map<Key, Value> {
	private lookedAt = 0;

	constructor(
		private readonly afterMs: number,
		/** How long the value has been idle; 0 while it is in use. */
		private readonly idleFor: (value: Value, now: number) => number,
	) {
		super();
	}

	of(key: Key, make: () => Value): Value {
		const now = Date.now();
		if (now - this.lookedAt >= 1000) {
			this.lookedAt = now;
			for (const [idleKey, value] of this) {
				if (this.idleFor(value, now) > this.afterMs) this.delete(idleKey);
			}
		}
		let value = this.get(key);
		if (value === undefined) this.set(key, (value = make()));
		return value;
	}

	/** Lets the value for `key` go, if it is still this one. */
	letGo(key: Key, value: Value): void {
		if (this.get(key) === value) this.delete(key);
	}
}
