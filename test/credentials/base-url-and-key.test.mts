import { describe, expect, it } from 'vitest';
import {
	elsewhere,
	serviceKey,
	serviceRoot,
} from '../../credentials/ContractSigningApi.credentials';

describe('serviceRoot', () => {
	it.each([
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['https://api.example.com/v1', 'https://api.example.com'],
		['https://api.example.com/v1/', 'https://api.example.com'],
		['https://api.example.com/v1/v1', 'https://api.example.com'],
		['https://api.example.com/V1//v1/', 'https://api.example.com'],
		[' https://api.example.com/signing/V1 ', 'https://api.example.com/signing'],
		['\u200bhttps://api.example.com\u0085', 'https://api.example.com'],
		['http://[::1]:8080/', 'http://[::1]:8080'],
	])('%j → %s', (input, root) => {
		expect(serviceRoot(input)).toBe(root);
	});

	it.each(['', 'api.example.com', 'ftp://api.example.com', 'https://', 'https://exa mple.com'])(
		'refuses "%s"',
		(input) => {
			expect(() => serviceRoot(input)).toThrow('is not a web address');
		},
	);

	it.each([
		['https://api.example.com/?tenant=7', 'has a query (?…)'],
		['https://api.example.com/v1#top', 'has a fragment (#…)'],
	])('refuses %s: it %s', (input, what) => {
		expect(() => serviceRoot(input)).toThrow(
			`'Base URL' ("${input}") ${what}: enter only the service’s address, such as https://api.example.com, in the Contract Signing credential.`,
		);
	});
});

describe('serviceKey', () => {
	it('is the key without the blanks a paste brings along', () => {
		expect(serviceKey('  sk_live_12345678\n')).toBe('sk_live_12345678');
		expect(serviceKey('\ufeffsk_live_12345678\u200b')).toBe('sk_live_12345678');
	});

	it.each([
		['', 'is empty'],
		[' \n\u200b ', 'is empty'],
		['abc', 'has only 3 characters: a service key has at least 8'],
		['k', 'has only 1 character: a service key has at least 8'],
		['sk_live\n_12345678', 'contains a line break'],
	])('refuses %j: it %s', (key, reason) => {
		expect(() => serviceKey(key)).toThrow(reason);
	});

	it('never repeats the key it refuses', () => {
		expect(() => serviceKey('short')).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining('short') }),
		);
	});
});

describe('elsewhere: where a request would take the key, if not to the Base URL', () => {
	const root = 'https://api.example.com/signing';

	it.each([
		['a path', { url: '/v1/client' }],
		['no address', {}],
		['an address under the Base URL', { url: 'https://api.example.com/v1/user' }],
		['a URL object under the Base URL', { url: new URL('https://api.example.com/x') }],
		['the legacy uri under the Base URL', { uri: 'https://api.example.com/v1/user' }],
	])('nowhere else for %s', (_what, options) => {
		expect(elsewhere(options, root)).toBeUndefined();
	});

	it.each([
		['another host', { url: 'https://other.example.com/v1/client' }, 'https://other.example.com'],
		['another port', { url: 'https://api.example.com:8443/' }, 'https://api.example.com:8443'],
		['plain http', { url: 'http://api.example.com/' }, 'http://api.example.com'],
		['a protocol-relative address', { url: '//other.example.com/x' }, 'https://other.example.com'],
		['a URL object', { url: new URL('http://other.example.com/') }, 'http://other.example.com'],
		[
			'a URL object as uri',
			{ uri: new URL('http://other.example.com/') },
			'http://other.example.com',
		],
		[
			'uri beside a good url',
			{ url: '/v1/client', uri: 'http://other.example.com/' },
			'http://other.example.com',
		],
		['a number', { url: 42 }, 'an address that cannot be read'],
		[
			'an object',
			{ url: { toString: () => 'http://other.example.com/' } },
			'an address that cannot be read',
		],
		['a list', { uri: ['http://other.example.com/'] }, 'an address that cannot be read'],
	])('to %s', (_what, options, target) => {
		expect(elsewhere(options, root)).toBe(target);
	});
});
