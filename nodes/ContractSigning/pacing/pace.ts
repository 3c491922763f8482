/**
 * How fast the node sends to one account, for every execution at once, as TCP paces a connection:
 * a window that doubles per round of replies while full; once the service is busy, a rate a fifth
 * below what it accepted in the last second, rising while it keeps up, gone after a quiet minute;
 * a hold for a `Retry-After`; and turns round the waiting runs, each within its limits (line.ts),
 * so that a run of one item is not queued behind a run of thousands.
 */
import { sleep } from 'n8n-workflow';
import { Stopped } from '../failure/item-failure';
import type { RunStop } from '../run/run-state';
import type { RequestLimits } from './limits';
import { Line, type Waiter } from './line';

/** TCP's first window is 10 segments (RFC 6928). */
const FIRST_WINDOW = 10;
const SLOWER = 0.8;
/** The rate's rise per accepted request: at `rate` of them a second, 3 % a second. */
const FASTER_PER_ACCEPTED = 0.03;
const SLOWEST_RATE = 0.5;
/** After this long without the service saying it is busy, an idle pace's rate goes. */
const QUIET_MS = 60_000;

export class Pace {
	private inFlight = 0;
	private waiting = 0;
	/** Every run's line, kept while empty: it counts the run's requests under way. */
	private readonly lines = new WeakMap<object, Line>();
	/** The lines with waiters; the set's order is the rotation. */
	private readonly rotation = new Set<Line>();
	/** How many requests may be under way at once. */
	window = FIRST_WINDOW;
	/** Requests per second: none until the service is busy. */
	private rate?: number;
	private nextSendAt = 0;
	/** No request before this time (ms since epoch): the service asked to wait. */
	private notBefore = 0;
	private lastBusyAt = 0;
	private wakeAt?: number;
	lastUsedAt = Date.now();
	/** Reply times of the requests accepted in the last second, oldest first. */
	private accepted: number[] = [];

	/**
	 * Waits for a place in the window, a moment at the rate, the end of any hold, and the run's turn
	 * within its `limits`; an account not busy since its rate went opens its window to the run's Max
	 * Requests at Once. Resolves to the time it is sent.
	 */
	waitForTurn(run: object, stop?: RunStop, limits: RequestLimits = {}): Promise<number> {
		if (stop?.aborted) return Promise.reject(new Stopped());
		const now = Date.now();
		this.lastUsedAt = now;
		const quiet = now - Math.max(this.lastBusyAt, this.notBefore) > QUIET_MS;
		if (quiet && this.waiting === 0) this.rate = undefined;
		if (this.rate === undefined) this.window = Math.max(this.window, limits.maxAtOnce ?? 0);
		const line = this.lines.get(run) ?? new Line(limits);
		this.lines.set(run, line);
		return new Promise<number>((resolve, reject) => {
			const waiter = new TurnWaiter(this, line, resolve, reject, stop);
			stop?.add(waiter);
			line.add(waiter);
			this.rotation.add(line);
			this.waiting += 1;
			this.letIn();
		});
	}

	stoppedWaiting(line: Line, waiter: Waiter): void {
		line.delete(waiter);
		if (line.size === 0) this.rotation.delete(line);
		this.waiting -= 1;
	}

	/** The run's request sent at `sentAt` ended, served or busy: the pace learns from it. */
	requestEnded(
		run: object,
		sentAt: number,
		ended: 'served' | 'busy' | undefined,
		now = Date.now(),
	): void {
		this.lastUsedAt = now;
		const line = this.lines.get(run);
		if (line) line.underWay -= 1;
		if (ended === 'served') this.keptUp(sentAt, now, this.inFlight >= this.window);
		if (ended === 'busy') this.wasBusy(sentAt, now);
		this.inFlight -= 1;
		this.letIn();
	}

	holdUntil(time: number): void {
		this.notBefore = Math.max(this.notBefore, time);
	}

	get idle(): boolean {
		return this.inFlight === 0 && this.waiting === 0;
	}

	private letIn(): void {
		while (this.waiting > 0 && this.inFlight < this.window) {
			const now = Date.now();
			const at = Math.max(this.notBefore, this.nextSendAt);
			if (at > now) {
				this.wakeUpAt(at);
				return;
			}
			const waiter = this.nextInRotation(now);
			if (!waiter) return;
			this.waiting -= 1;
			this.inFlight += 1;
			this.nextSendAt = now + (this.rate ? 1000 / this.rate : 0);
			waiter.enter(now);
		}
	}

	/** The first waiter of the next run within its limits; that run goes to the back. */
	private nextInRotation(now: number): Waiter | undefined {
		let soonest = Infinity;
		for (const line of this.rotation) {
			const waiter = line.take(this.inFlight, now);
			if (waiter) {
				this.rotation.delete(line);
				if (line.size > 0) this.rotation.add(line);
				return waiter;
			}
			if (line.nextAt > now) soonest = Math.min(soonest, line.nextAt);
		}
		if (soonest < Infinity) this.wakeUpAt(soonest);
		return undefined;
	}

	private wakeUpAt(at: number): void {
		if (this.wakeAt !== undefined && this.wakeAt <= at) return;
		this.wakeAt = at;
		void sleep(Math.max(1, at - Date.now())).then(() => {
			if (this.wakeAt === at) this.wakeAt = undefined;
			this.letIn();
		});
	}

	private keptUp(sentAt: number, now: number, full: boolean): void {
		this.accepted.push(now);
		const accepted = this.acceptedInLastSecond(now);
		if (full) this.window += 1;
		if (this.rate === undefined) return;
		// Replies need not come in the order the service answered: one of the burst that comes after
		// its busy reply was not counted when the rate was learned.
		if (sentAt < this.lastBusyAt) this.rate = Math.max(this.rate, accepted * SLOWER);
		else this.rate += FASTER_PER_ACCEPTED;
	}

	private wasBusy(sentAt: number, now: number): void {
		// Requests sent before the last busy reply were part of the burst it already answered.
		if (sentAt < this.lastBusyAt) return;
		this.lastBusyAt = now;
		// What the service accepted is what it allows; the rate never rises at a busy reply.
		const accepted = this.acceptedInLastSecond(now);
		const from = Math.min(this.rate ?? Infinity, accepted > 0 ? accepted : this.inFlight);
		this.rate = Math.max(SLOWEST_RATE, from * SLOWER);
		// The next request keeps its distance at the new rate, so that a Retry-After the busy reply
		// brings (turns.ts holds every request for it) comes before it does.
		this.nextSendAt = Math.max(this.nextSendAt, now + 1000 / this.rate);
	}

	private acceptedInLastSecond(now: number): number {
		while (this.accepted.length > 0 && this.accepted[0] <= now - 1000) this.accepted.shift();
		return this.accepted.length;
	}
}

/** A request waiting for its turn; also its stop listener, so that a waiting item holds one object. */
class TurnWaiter implements Waiter {
	constructor(
		private readonly pace: Pace,
		private readonly line: Line,
		private readonly resolve: (sentAt: number) => void,
		private readonly reject: (error: Error) => void,
		private readonly stop: RunStop | undefined,
	) {}

	enter(sentAt: number): void {
		this.stop?.delete(this);
		this.resolve(sentAt);
	}

	handleEvent(): void {
		this.pace.stoppedWaiting(this.line, this);
		this.reject(new Stopped());
	}
}
