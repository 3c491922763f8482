/** A request waiting for its turn at a pace: `enter` lets it go; `gone` once it stopped waiting. */
export interface Waiter {
	gone: boolean;
	enter: (sentAt: number) => void;
}

/**
 * One run's waiting requests at a pace (pace.ts), first come first served. Once the pace has the
 * run's ceiling under way, they go again only when an eighth of the ceiling is free, together
 * (why: the top of pace.ts).
 */
export class Line {
	private items: Waiter[] = [];

	/** The ceiling was reached, and too few places have been freed since. */
	private atCeiling = false;

	/** The run's requests go only while fewer than this many of the pace's are under way. */
	constructor(readonly ceiling: number) {}

	/** Whether the run's next request may go while `inFlight` of the pace's are under way. */
	mayGo(inFlight: number): boolean {
		if (inFlight >= this.ceiling) this.atCeiling = true;
		else if (inFlight <= this.ceiling - Math.ceil(this.ceiling / 8)) this.atCeiling = false;
		if (this.atCeiling) return false;
		// The one that goes now fills the ceiling: the next go together, once enough are free.
		this.atCeiling = inFlight + 1 >= this.ceiling;
		return true;
	}

	private head = 0;

	push(waiter: Waiter): void {
		this.items.push(waiter);
	}

	/** The next waiter still there, or undefined. */
	next(): Waiter | undefined {
		while (this.head < this.items.length) {
			const waiter = this.items[this.head++];
			if (this.head === this.items.length) {
				// Emptied: the line is kept for its run (pace.ts), not the waiters that left it.
				this.items.length = 0;
				this.head = 0;
			} else if (this.head > 1024 && 2 * this.head > this.items.length) {
				this.items = this.items.slice(this.head);
				this.head = 0;
			}
			if (!waiter.gone) return waiter;
		}
		return undefined;
	}

	get empty(): boolean {
		return this.head >= this.items.length;
	}
}
