/** A request waiting for its turn at a pace: `enter` lets it go. */
export interface Waiter {
	enter: (sentAt: number) => void;
}

/**
 * One run's waiting requests at a pace (pace.ts), first come first served. Once the pace has the
 * run's ceiling under way, they go again only when an eighth of the ceiling is free, together:
 * one per reply measured slower (BENCHMARKS.md, "What each part of the pace pays for").
 */
export class Line extends Set<Waiter> {
	/** Walks the waiters in the order they came: a Set's iterator also reaches those added later. */
	private order = this.values();

	/** The ceiling was reached, and too few places have been freed since. */
	private atCeiling = false;

	constructor(readonly ceiling: number) {
		super();
	}

	/** Whether the run's next request may go while `inFlight` of the pace's are under way. */
	mayGo(inFlight: number): boolean {
		if (inFlight >= this.ceiling) this.atCeiling = true;
		else if (inFlight <= this.ceiling - Math.ceil(this.ceiling / 8)) this.atCeiling = false;
		if (this.atCeiling) return false;
		// The one that goes now fills the ceiling: the next go together, once enough are free.
		this.atCeiling = inFlight + 1 >= this.ceiling;
		return true;
	}

	next(): Waiter | undefined {
		let step = this.order.next();
		// An iterator that has ended reaches nothing added later.
		if (step.done) step = (this.order = this.values()).next();
		if (!step.done) this.delete(step.value);
		return step.value;
	}
}
