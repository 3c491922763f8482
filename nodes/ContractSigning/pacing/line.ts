import type { RequestLimits } from './limits';

/** The most requests under way to one account at once, unless a run's Max Requests at Once is higher. */
export const ACCOUNT_CEILING = 256;

/** A request waiting for its turn at a pace. */
export interface Waiter {
	enter: (sentAt: number) => void;
}

/**
 * At most `most` requests under way; once reached, they go again only when an eighth is free,
 * together: one per reply measured slower (BENCHMARKS.md, "What each part of the pace pays for").
 */
class AtMost {
	private reached = false;

	constructor(private readonly most: number) {}

	allows(underWay: number): boolean {
		if (underWay >= this.most) this.reached = true;
		else if (underWay <= this.most - Math.ceil(this.most / 8)) this.reached = false;
		return !this.reached;
	}

	took(underWay: number): void {
		this.reached = underWay + 1 >= this.most;
	}
}

/**
 * One run's waiting requests at its account's pace, first come first served, within its limits:
 * the account's ceiling, and the Max Requests at Once and per Second set on the run.
 */
export class Line extends Set<Waiter> {
	underWay = 0;
	/** The run's next request goes no sooner (Max Requests per Second). */
	nextAt = 0;
	/** The waiters in the order they came: a Set's iterator also reaches those added later. */
	private order = this.values();
	private readonly ceiling: AtMost;
	private readonly own?: AtMost;
	private readonly gapMs: number;

	constructor({ maxAtOnce, maxPerSecond }: RequestLimits) {
		super();
		this.ceiling = new AtMost(Math.max(ACCOUNT_CEILING, maxAtOnce ?? 0));
		this.own = maxAtOnce === undefined ? undefined : new AtMost(maxAtOnce);
		this.gapMs = maxPerSecond ? 1000 / maxPerSecond : 0;
	}

	/** The run's next waiter, when its limits let it go now with `accountUnderWay` under way. */
	take(accountUnderWay: number, now: number): Waiter | undefined {
		if (now < this.nextAt) return undefined;
		if (!this.ceiling.allows(accountUnderWay)) return undefined;
		if (!(this.own?.allows(this.underWay) ?? true)) return undefined;
		this.ceiling.took(accountUnderWay);
		this.own?.took(this.underWay);
		this.underWay += 1;
		this.nextAt = now + this.gapMs;
		let step = this.order.next();
		// An iterator that has ended reaches nothing added later.
		if (step.done) step = (this.order = this.values()).next();
		if (!step.done) this.delete(step.value);
		return step.value;
	}
}
