import { createHash } from 'node:crypto';
import { Pace } from './pace';

/** An account not used for this long is forgotten; so is its pace. */
export const FORGET_AFTER_MS = 5 * 60_000;

/**
 * The paces of the accounts this n8n process talks to, each shared by every execution of every
 * workflow in it (the main process in regular mode, each worker in queue mode). An account is its
 * Base URL's origin and its API key, kept only as a hash. Nothing of it outlives the process, and
 * an account idle for `forgetAfterMs` is dropped, so memory stays bounded by the accounts in use.
 */
export class AccountPaces {
	private readonly paces = new Map<string, Pace>();

	private sweptAt = 0;

	constructor(private readonly forgetAfterMs = FORGET_AFTER_MS) {}

	/** The pace of the account at `origin` with `apiKey`. */
	of(origin: string, apiKey: string): Pace {
		this.forgetIdle();
		const account = createHash('sha256').update(`${origin}\n${apiKey}`).digest('hex');
		let pace = this.paces.get(account);
		if (!pace) {
			pace = new Pace();
			this.paces.set(account, pace);
		}
		return pace;
	}

	private forgetIdle(now = Date.now()): void {
		if (now - this.sweptAt < 1000) return;
		this.sweptAt = now;
		for (const [account, pace] of this.paces) {
			if (pace.idle && now - pace.lastUsedAt > this.forgetAfterMs) this.paces.delete(account);
		}
	}
}

/** The one set of account paces of this n8n process. */
export const accountPaces = new AccountPaces();
