import { describe, expect, it, vi } from 'vitest';
import { AccountPaces } from '../../../nodes/ContractSigning/pacing/account-paces';

const RUN = {};

/** The accounts remembered, by the hash they are kept by. */
const accountsOf = (paces: AccountPaces) => [
	...(paces as unknown as { paces: { keys(): Iterable<string> } }).paces.keys(),
];

describe('AccountPaces', () => {
	it('one pace per origin and key; the key is kept only as a hash', () => {
		const paces = new AccountPaces();
		const pace = paces.of('https://a.example', 'sk_live_123456');
		expect(paces.of('https://a.example', 'sk_live_123456')).toBe(pace);
		expect(paces.of('https://b.example', 'sk_live_123456')).not.toBe(pace);
		expect(paces.of('https://a.example', 'sk_live_654321')).not.toBe(pace);
		expect(JSON.stringify(accountsOf(paces))).not.toContain('sk_live');
	});

	it('lets go an account idle for its time, but not one with requests under way', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const paces = new AccountPaces(60_000);
			const now = Date.now();
			const idle = paces.of('https://idle.example', 'sk_idle_123456');
			const inUse = paces.of('https://in-use.example', 'sk_in_use_12345');
			await inUse.waitForTurn(RUN);
			vi.setSystemTime(now + 61_000 + 1000);
			paces.of('https://other.example', 'sk_other_12345');
			expect(accountsOf(paces)).toHaveLength(2);
			expect(paces.of('https://in-use.example', 'sk_in_use_12345')).toBe(inUse);
			expect(paces.of('https://idle.example', 'sk_idle_123456')).not.toBe(idle);
		} finally {
			vi.useRealTimers();
		}
	});
});
