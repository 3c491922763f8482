/**
 * How fast one run of the node sends: at the service's own pace, without Batching to tune.
 *
 * n8n starts every item's request at once (see the top of send.ts); a service that limits its
 * rate refuses most of them, and without a pace they all come back together, wave after wave.
 * So each request first waits for its turn here, the way TCP paces a connection, from the moment
 * the service first says it is busy (429 or 503, or a refused connection):
 * - a window of requests at once: half of those under way at that moment, halved again at each
 *   new burst of refusals, and growing by about one per round of replies while it keeps up;
 * - a rate: requests are spaced out, starting from what the service accepted in the last second,
 *   about 3 % faster a second while it keeps up, and a fifth slower at each new burst of refusals;
 * - a `Retry-After` holds back every request until it has passed.
 * Until then nothing holds a request back, so a service that keeps up is used as fast as before:
 * a first window of 32 or 64 requests cut the first burst's refusals to 15–40 % of what they are
 * without one, but made runs of constant fields 40–60 % slower in the benchmark. A user who
 * knows the service's numbers can cap both from the start. Waiting for a turn is not a retry:
 * the item has not been refused.
 */
import type { INodeProperties } from 'n8n-workflow';
import { Cancelled, pause } from './waits';

export const requestRateField: INodeProperties = {
	displayName: 'Request Rate',
	name: 'requestRate',
	type: 'collection',
	placeholder: 'Add Limit',
	default: {},
	description:
		'The node finds the service’s pace by itself: it sends every item’s request at once while the service keeps up, and slows down and spaces requests out once the service says it is busy. Add a limit if you know your service’s numbers.',
	options: [
		{
			displayName: 'Max Requests per Second',
			name: 'maxPerSecond',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: 10,
			description:
				'The node never sends faster than this, such as the limit your service’s plan allows',
		},
		{
			displayName: 'Max Requests at Once',
			name: 'maxAtOnce',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1000 },
			default: 10,
			description: 'How many requests may wait for the service’s answer at the same time',
		},
	],
};

/** The limits the user set; anything unreadable is left to the pace. */
export function paceLimits(value: unknown): PaceLimits {
	const set = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
	const positive = (entry: unknown) =>
		typeof entry === 'number' && Number.isFinite(entry) && entry > 0 ? entry : undefined;
	const atOnce = positive(set.maxAtOnce);
	return {
		maxPerSecond: positive(set.maxPerSecond),
		maxAtOnce: atOnce === undefined ? undefined : Math.max(1, Math.floor(atOnce)),
	};
}

export interface PaceLimits {
	maxAtOnce?: number;
	maxPerSecond?: number;
}

/** How a request ended, for the pace: accepted, refused as too many, or anything else. */
export type PaceOutcome = 'accepted' | 'busy' | 'other';

const LARGEST_WINDOW = 100_000;
const WAITING_FOR_TURN = 'while the node waited for its turn';
const SLOWER = 0.8;
const FASTER_PER_SECOND = 0.03;
const SLOWEST_RATE = 0.5;

export class Pace {
	private inFlight = 0;

	private window: number;

	/** The window doubles per round of replies up to here, then grows by one per round. */
	private doubleUntil = Infinity;

	/** Requests per second; none until the service first says it is busy, or the user sets one. */
	private rate?: number;

	private nextSendAt = 0;

	/** No request before this time (ms since epoch): the service asked to wait. */
	private notBefore = 0;

	private lastSlowdownAt = 0;

	/** When the run's latest request was accepted. */
	lastAcceptedAt = 0;

	/** Reply times of accepted requests; those from `acceptedFrom` on are of the last second. */
	private accepted: number[] = [];

	private acceptedFrom = 0;

	/** Requests waiting for a place, in the order they came; those before `waitingFrom` have one. */
	private waiting: Array<{ gone: boolean; enter: () => void }> = [];

	private waitingFrom = 0;

	constructor(private readonly limits: PaceLimits = {}) {
		this.window = limits.maxAtOnce ?? LARGEST_WINDOW;
		this.rate = limits.maxPerSecond;
	}

	/**
	 * Waits for a request's turn: a place in the window, its moment at the current rate, and the
	 * end of any hold the service asked for. Returns the time it may be sent, for `done`.
	 */
	async turn(cancel?: AbortSignal): Promise<number> {
		await this.place(cancel);
		let sentAt: number | undefined;
		try {
			sentAt = await this.moment(cancel);
			return sentAt;
		} finally {
			// Canceled while waiting: the place is given up.
			if (sentAt === undefined) this.leave();
		}
	}

	private async moment(cancel?: AbortSignal): Promise<number> {
		for (;;) {
			const now = Date.now();
			const at = Math.max(this.notBefore, this.nextSendAt);
			if (at <= now) {
				this.nextSendAt = now + (this.rate ? 1000 / this.rate : 0);
				return now;
			}
			await pause(at - now, cancel);
		}
	}

	/** A request that had its turn has ended: the pace learns from how. */
	done(sentAt: number, outcome: PaceOutcome, now = Date.now()): void {
		if (outcome === 'accepted') this.keptUp(now);
		if (outcome === 'busy') this.refused(sentAt, now);
		this.leave();
	}

	/** The service asked that nothing be sent before this time. */
	holdUntil(time: number): void {
		this.notBefore = Math.max(this.notBefore, time);
	}

	/** How many requests may be under way at once now. */
	get atOnce(): number {
		return Math.max(1, Math.floor(this.window));
	}

	/** Requests per second now, if the pace has one. */
	get perSecond(): number | undefined {
		return this.rate;
	}

	private keptUp(now: number): void {
		this.lastAcceptedAt = now;
		this.accepted.push(now);
		const lastSecond = this.acceptedInLastSecond(now);
		if (this.limits.maxAtOnce === undefined) {
			this.window += this.window < this.doubleUntil ? 1 : 1 / this.window;
			this.window = Math.min(this.window, LARGEST_WINDOW);
		}
		if (this.rate !== undefined) {
			const faster = this.rate + Math.max(FASTER_PER_SECOND * this.rate, 1) / this.rate;
			// Only as far as the run really sends: a rate far above that says nothing of the service.
			if (faster <= 2 * lastSecond + 1) {
				this.rate = Math.min(faster, this.limits.maxPerSecond ?? Infinity);
			}
		}
	}

	private refused(sentAt: number, now: number): void {
		// Requests sent before the last slowdown were part of the burst it already answered.
		if (sentAt < this.lastSlowdownAt) return;
		this.lastSlowdownAt = now;
		if (this.limits.maxAtOnce === undefined) {
			this.doubleUntil = Math.max(1, Math.min(this.window, this.inFlight) / 2);
			this.window = this.doubleUntil;
		}
		const from = this.rate ?? Math.max(this.acceptedInLastSecond(now), this.inFlight);
		this.rate = Math.max(SLOWEST_RATE, from * SLOWER);
	}

	private acceptedInLastSecond(now: number): number {
		while (
			this.acceptedFrom < this.accepted.length &&
			this.accepted[this.acceptedFrom] <= now - 1000
		) {
			this.acceptedFrom += 1;
		}
		if (this.acceptedFrom > 1000) {
			this.accepted = this.accepted.slice(this.acceptedFrom);
			this.acceptedFrom = 0;
		}
		return this.accepted.length - this.acceptedFrom;
	}

	private async place(cancel?: AbortSignal): Promise<void> {
		if (this.waitingFrom === this.waiting.length && this.inFlight < this.atOnce) {
			this.inFlight += 1;
			return;
		}
		if (cancel?.aborted) return await Promise.reject(new Cancelled(WAITING_FOR_TURN));
		await new Promise<void>((resolve, reject) => {
			const waiter = { gone: false, enter: () => {} };
			// A stopped item keeps its place in the queue, marked gone, and is passed over.
			const onAbort = () => {
				waiter.gone = true;
				reject(new Cancelled(WAITING_FOR_TURN));
			};
			waiter.enter = () => {
				cancel?.removeEventListener('abort', onAbort);
				resolve();
			};
			cancel?.addEventListener('abort', onAbort, { once: true });
			this.waiting.push(waiter);
		});
	}

	private leave(): void {
		this.inFlight -= 1;
		while (this.waitingFrom < this.waiting.length && this.inFlight < this.atOnce) {
			this.inFlight += 1;
			const waiter = this.waiting[this.waitingFrom];
			this.waitingFrom += 1;
			if (waiter.gone) {
				this.inFlight -= 1;
				continue;
			}
			waiter.enter();
		}
		if (this.waitingFrom > 1024 && 2 * this.waitingFrom > this.waiting.length) {
			this.waiting = this.waiting.slice(this.waitingFrom);
			this.waitingFrom = 0;
		}
	}
}
