/**
 * The stand-in's rate limit (its choice: the API reference shows no limits): a token bucket in
 * front of the service, as API gateways have. Up to `burst` requests at once, refilled at
 * `perSecond`; a request beyond it gets HTTP 429 with `Retry-After` (whole seconds until a request
 * is allowed again) and is not acted on.
 */
export interface RateLimit {
	perSecond: number;
	/** How many requests may come at once; default `perSecond`. */
	burst?: number;
}

export class TokenBucket {
	private tokens = Number.NaN;

	private refilledAt = 0;

	/** `limit` is read for every request: a test may change it mid-run. */
	constructor(private readonly limit: () => RateLimit | undefined) {}

	/** Takes a token; the milliseconds until one is there when there is none. */
	take(now: number): number {
		const limit = this.limit();
		if (!limit) return 0;
		const burst = limit.burst ?? limit.perSecond;
		const refilled = Number.isNaN(this.tokens)
			? burst
			: this.tokens + ((now - this.refilledAt) / 1000) * limit.perSecond;
		this.tokens = Math.min(burst, refilled);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return 0;
		}
		return ((1 - this.tokens) / limit.perSecond) * 1000;
	}

	reset(): void {
		this.tokens = Number.NaN;
	}
}
