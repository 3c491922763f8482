import { createHash } from 'node:crypto';
import { Pace } from './pace';

/**
 * The paces of the accounts this n8n process talks to, each shared by every execution of every
 * workflow in it (the main process in regular mode, each worker in queue mode). An account is its
 * Base URL's origin and its API key, kept only as a hash. An account idle for `forgetAfterMs` is
 * forgotten, so memory stays bounded by the accounts in use.
 */
export class AccountPaces {
	private readonly paces = new Map<string, Pace>();

	private sweptAt = 0;

	constructor(private readonly forgetAfterMs = 5 * 60_000) {}

	of(origin: string, apiKey: string): Pace {
		this.forgetIdle();
		const account = createHash('sha256').update(`${origin}\n${apiKey}`).digest('hex');
		const pace = this.paces.get(account) ?? new Pace();
		this.paces.set(account, pace);
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

export const accountPaces = new AccountPaces();
