import { createHash } from 'node:crypto';
import { IdleMap } from '../run/idle-map';
import { Pace } from './pace';

/**
 * The paces of the accounts this n8n process talks to, each shared by every execution in it (the
 * main process in regular mode, each worker in queue mode). An account is its Base URL's origin
 * and its API key, kept only as a hash.
 */
export class AccountPaces {
	private readonly paces: IdleMap<string, Pace>;

	constructor(letGoAfterMs = 5 * 60_000) {
		this.paces = new IdleMap(letGoAfterMs, (pace, now) => (pace.idle ? now - pace.lastUsedAt : 0));
	}

	of(origin: string, apiKey: string): Pace {
		const account = createHash('sha256').update(`${origin}\n${apiKey}`).digest('hex');
		return this.paces.of(account, () => new Pace());
	}
}

export const accountPaces = new AccountPaces();
