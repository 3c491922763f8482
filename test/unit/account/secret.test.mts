import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../../nodes/ContractSigning/account/secret';

const KEY = 'sk_live_7QmZ9xV2';

describe('SecretMask', () => {
	const mask = new SecretMask(KEY);

	it.each([
		['as sent', `Invalid service key ${KEY}`, 'Invalid service key ***'],
		['in another letter case', `key ${KEY.toUpperCase()} / ${KEY.toLowerCase()}`, 'key *** / ***'],
		[
			'URL-encoded',
			`https://x.example/?k=${encodeURIComponent(`${KEY}/+ä`)}`,
			'https://x.example/?k=***%2F%2B%C3%A4',
		],
		['inside a longer token', `key_${KEY}_v2 and ${KEY}${KEY}`, 'key_***_v2 and ***'],
		['nowhere', 'Client created', 'Client created'],
	])('masks the key %s', (_how, text, masked) => {
		expect(mask.text(text)).toBe(masked);
	});

	it('masks the key as it was stored and as it was sent (trimmed)', () => {
		const pasted = new SecretMask(`  ${KEY}\n`);
		expect(pasted.text(`bad key "${KEY}"`)).toBe('bad key "***"');
		expect(pasted.text(`bad key "  ${KEY}\n"`)).toBe('bad key "***"');
	});

	it('masks URL-encoded keys with characters that need encoding', () => {
		const spaced = new SecretMask('sk live/7QmZ9xV2');
		expect(spaced.text('k=sk%20live%2F7QmZ9xV2 or k=sk+live%2f7qmz9xv2')).toBe('k=*** or k=***');
	});

	it('masks object keys and values at any depth, keeping every entry', () => {
		const reply = {
			code: '401',
			message: `Invalid service key ${KEY}`,
			[KEY]: { echoed: [KEY.toUpperCase(), 1, null, true] },
			'***': 'already there',
		};
		expect(mask.value(reply)).toEqual({
			code: '401',
			message: 'Invalid service key ***',
			'***': { echoed: ['***', 1, null, true] },
			'*** (2)': 'already there',
		});
	});

	it('keeps prototype-like keys as plain data', () => {
		const reply = JSON.parse(`{"__proto__": {"polluted": "${KEY}"}, "constructor": "x"}`) as object;
		const masked = mask.value(reply) as Record<string, unknown>;
		expect(Object.getOwnPropertyNames(masked)).toEqual(['__proto__', 'constructor']);
		expect(Object.getOwnPropertyDescriptor(masked, '__proto__')?.value).toEqual({
			polluted: '***',
		});
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('masks a very long key, once or many times, without failing', () => {
		const long = `sk_${'x9'.repeat(200_000)}`;
		const text = `a ${long} b ${long.toUpperCase()}`;
		expect(new SecretMask(long).text(text)).toBe('a *** b ***');
	});

	it('masks a 50 MB text', () => {
		const text = `${'a'.repeat(50_000_000)}${KEY}`;
		expect(mask.text(text).endsWith('a***')).toBe(true);
	});

	it('folds case one character for one, also where a lower case is longer', () => {
		expect(new SecretMask('İstanbul-key-1234').text('x İSTANBUL-KEY-1234 y')).toBe('x *** y');
	});

	it('masks a key too short to be real only where it stands alone, so no word is garbled', () => {
		const short = new SecretMask('k');
		expect(short.text('Check the API Key: k was refused (key=k)')).toBe(
			'Check the API Key: *** was refused (key=***)',
		);
		expect(new SecretMask('abc').text('abcdef abc ABC')).toBe('abcdef *** ***');
	});

	it('leaves everything alone without a key', () => {
		const reply = { message: 'text' };
		expect(new SecretMask(undefined).value(reply)).toBe(reply);
		expect(new SecretMask('  ').text('  text')).toBe('  text');
	});
});
