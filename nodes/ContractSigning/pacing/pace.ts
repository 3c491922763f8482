/**
 * How fast the node sends to one service account, for every execution at once (one pace per
 * account in the process: account-paces.ts). Each request waits here for its turn, the way TCP
 * paces a connection:
 * - a window of requests at once: 10 at first, one more per reply while it is full (it doubles per
 *   round of replies);
 * - a rate, once the service has said it is busy: a fifth below what it accepted in the last
 *   second, rising a little each second while it keeps up;
 * - a hold: a `Retry-After` holds back every request until it has passed;
 * - a ceiling per run (line.ts), and turns round the runs that wait, one each in turn, so that a
 *   run of one item is not queued behind a run of thousands.
 * After a minute without refusals and nothing waiting, the rate goes.
 * A run whose user set Max Requests per Second or at Once also gets a pace of its own with those
 * limits, which learns nothing (its cap).
 */
import { sleep } from 'n8n-workflow';
import { Stopped } from '../failure/item-failure';
import type { StopSignal } from '../run/run-state';
import type { PaceLimits } from './limits';
import { Line, type Waiter } from './line';

/** How a request ended, for the pace: accepted, refused as too many, or anything else. */
export type PaceOutcome = 'accepted' | 'busy' | 'other';

/** An account's first window, before any reply: TCP's first window is 10 segments (RFC 6928). */
const FIRST_WINDOW = 10;
/** The most requests under way to one account at once, unless a run's Max Requests at Once is higher. */
export const ACCOUNT_CEILING = 256;
const SLOWER = 0.8;
/** The rate's rise per accepted request: at `rate` of them a second, 3 % a second. */
const FASTER_PER_ACCEPTED = 0.03;
const SLOWEST_RATE = 0.5;
/** After this long without the service saying it is busy, an idle pace's rate goes. */
const QUIET_MS = 60_000;

export class Pace {
	private inFlight = 0;

	private waiting = 0;

	/**
	 * Every run's line, waiting or not: a run whose line empties between its turns (one capped by
	 * Max Requests at Once gets them one at a time) still goes in groups at its ceiling.
	 */
	private readonly lines = new WeakMap<object, Line>();

	/** The lines with waiters; the set's order is the rotation. */
	private readonly rotation = new Set<Line>();

	private windowSize: number;

	/** Requests per second; none until the service first says it is busy, or the user sets one. */
	private rate?: number;

	private nextSendAt = 0;

	/** No request before this time (ms since epoch): the service asked to wait. */
	private notBefore = 0;

	private lastSlowdownAt = 0;

	/** When the pending wake-up is due, if one is. */
	private wakeAt?: number;

	/** When a request last asked for a turn or ended. */
	lastUsedAt = Date.now();

	/** Reply times of the requests accepted in the last second, oldest first. */
	private accepted: number[] = [];

	/**
	 * An account's pace, which learns from the replies; or, given the limits the user set, a run's
	 * cap, which keeps to them and learns nothing.
	 */
	constructor(private readonly limits?: PaceLimits) {
		this.windowSize = limits ? (limits.maxAtOnce ?? Infinity) : FIRST_WINDOW;
		this.rate = limits?.maxPerSecond;
	}

	/**
	 * Waits for a request's turn: a place in the window, its moment at the current rate, the end
	 * of any hold the service asked for, and its run's turn in the rotation. `run` is what the
	 * request's run is known by; its requests go only while fewer than `ceiling` are under way (at
	 * a run's cap, its Max Requests at Once: so that they go in groups there too).
	 * Returns the time it may be sent, for `requestEnded`.
	 */
	waitForTurn(
		run: object,
		stop?: StopSignal,
		ceiling = this.limits?.maxAtOnce ?? Infinity,
	): Promise<number> {
		if (stop?.aborted) return Promise.reject(new Stopped());
		const now = Date.now();
		this.lastUsedAt = now;
		const quiet = now - Math.max(this.lastSlowdownAt, this.notBefore) > QUIET_MS;
		if (quiet && this.waiting === 0 && !this.limits) this.rate = undefined;
		const line = this.lines.get(run) ?? new Line(ceiling);
		this.lines.set(run, line);
		return new Promise<number>((resolve, reject) => {
			const waiter = new TurnWaiter(this, line, resolve, reject, stop);
			stop?.addEventListener('abort', waiter, { once: true });
			line.push(waiter);
			this.rotation.add(line);
			this.waiting += 1;
			this.letIn();
		});
	}

	/**
	 * A run's user set Max Requests at Once: the service takes that many at once. An account that
	 * has not said it is busy since its rate last went starts there rather than growing to it.
	 */
	openTo(maxAtOnce: number): void {
		if (this.limits || this.rate !== undefined) return;
		this.windowSize = Math.max(this.windowSize, maxAtOnce);
	}

	/** A waiter that stopped waiting: the execution was stopped or its Timeout passed. */
	stoppedWaiting(line: Line, waiter: Waiter): void {
		line.leave(waiter);
		if (line.empty) this.rotation.delete(line);
		this.waiting -= 1;
	}

	/** A request that had its turn has ended: the pace learns from how. */
	requestEnded(sentAt: number, outcome: PaceOutcome, now = Date.now()): void {
		this.lastUsedAt = now;
		if (outcome === 'accepted') this.keptUp(sentAt, now, this.inFlight >= this.window);
		if (outcome === 'busy') this.refused(sentAt, now);
		this.inFlight -= 1;
		this.letIn();
	}

	/** The service asked that nothing be sent before this time. */
	holdUntil(time: number): void {
		this.notBefore = Math.max(this.notBefore, time);
	}

	/** The window: how many requests may be under way at once now. */
	get window(): number {
		return this.windowSize;
	}

	/** Nothing under way and nothing waiting. */
	get idle(): boolean {
		return this.inFlight === 0 && this.waiting === 0;
	}

	/** Gives turns while there is a place and the moment has come; else wakes up when it comes. */
	private letIn(): void {
		while (this.waiting > 0 && this.inFlight < this.window) {
			const now = Date.now();
			const at = Math.max(this.notBefore, this.nextSendAt);
			if (at > now) {
				this.wakeUpAt(at);
				return;
			}
			const waiter = this.nextInRotation();
			if (!waiter) return;
			this.waiting -= 1;
			this.inFlight += 1;
			this.nextSendAt = now + (this.rate ? 1000 / this.rate : 0);
			waiter.enter(now);
		}
	}

	/**
	 * The first waiter of the run whose turn it is, among the runs below their ceiling; that run
	 * goes to the back of the rotation.
	 */
	private nextInRotation(): Waiter | undefined {
		for (const line of this.rotation) {
			if (!line.mayGo(this.inFlight)) continue;
			this.rotation.delete(line);
			const waiter = line.next();
			if (!line.empty) this.rotation.add(line);
			return waiter;
		}
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

	/** An accepted request; `full` when the window was, so that a larger one could bring more through. */
	private keptUp(sentAt: number, now: number, full: boolean): void {
		this.accepted.push(now);
		const accepted = this.acceptedInLastSecond(now);
		if (this.limits) return;
		// Never past the most under way plus one: only a full window grows.
		if (full) this.windowSize += 1;
		if (this.rate === undefined) return;
		// Replies need not come in the order the service answered: one of the burst that comes after
		// its refusal was not counted when the rate was learned.
		if (sentAt < this.lastSlowdownAt) this.rate = Math.max(this.rate, accepted * SLOWER);
		else this.rate += FASTER_PER_ACCEPTED;
	}

	private refused(sentAt: number, now: number): void {
		// Requests sent before the last slowdown were part of the burst it already answered.
		if (sentAt < this.lastSlowdownAt) return;
		this.lastSlowdownAt = now;
		if (this.limits) return;
		// What the service accepted is what it allows; the rate never rises at a refusal.
		const accepted = this.acceptedInLastSecond(now);
		const from = Math.min(this.rate ?? Infinity, accepted > 0 ? accepted : this.inFlight);
		this.rate = Math.max(SLOWEST_RATE, from * SLOWER);
		// The next request keeps its distance at the new rate, so that a Retry-After the refused
		// request brings (turns.ts holds every request for it) comes before it does.
		this.nextSendAt = Math.max(this.nextSendAt, now + 1000 / this.rate);
	}

	/** How many were accepted in the last second; the older ones are dropped. */
	private acceptedInLastSecond(now: number): number {
		while (this.accepted.length > 0 && this.accepted[0] <= now - 1000) this.accepted.shift();
		return this.accepted.length;
	}
}

/** A request waiting for its turn at a pace; also its listener for the end of its wait. */
class TurnWaiter implements Waiter {
	constructor(
		private readonly pace: Pace,
		private readonly line: Line,
		private readonly resolve: (sentAt: number) => void,
		private readonly reject: (error: Error) => void,
		private readonly stop: StopSignal | undefined,
	) {}

	enter(sentAt: number): void {
		this.stop?.removeEventListener('abort', this);
		this.resolve(sentAt);
	}

	/** The wait's signal aborted. */
	handleEvent(): void {
		this.pace.stoppedWaiting(this.line, this);
		this.reject(new Stopped());
	}
}
