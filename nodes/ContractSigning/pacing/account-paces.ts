import { createHash } from 'node:crypto';
import { IdleMap } from '../run/idle-map';
import { Pace } from './pace';

/**
 * The paces of the accounts this n8n process (main, or one queue-mode worker) talks to, shared by
 * its executions. An account is its Base URL's origin and API key, kept only as a hash.
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
