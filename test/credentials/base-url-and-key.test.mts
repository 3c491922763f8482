/**
 * The Contract Signing API credential as the node uses it, through n8n's engine: the Base URL
 * reaches the service with a trailing / or /v1, and the key goes in the X-Service-Key header
 * without the blanks a paste brings along (the credential's `authenticate` trims it; n8n applies
 * it to each request).
 */
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';

const service = useStandIn();

const createClient = { resource: 'client', operation: 'create', fullname: 'Ada Lovelace' };

describe('Base URL', () => {
	it.each(['', '/', '//', '/v1', '/v1/', '/V1', '/v1//'])(
		'reaches /v1/client with "%s" at the end',
		async (suffix) => {
			const { error } = await runStep(service(), createClient, {
				credentials: { baseUrl: `${service().url}${suffix}` },
			});

			expect(error).toBeUndefined();
			expect(service().requests.map((request) => request.path)).toEqual(['/v1/client']);
		},
	);

	it('reaches /v1/client with blanks around it', async () => {
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: `  ${service().url}/v1 \n` },
		});

		expect(error).toBeUndefined();
		expect(service().requests.map((request) => request.path)).toEqual(['/v1/client']);
	});
});

describe('API Key', () => {
	it.each([
		['spaces', (key: string) => `  ${key}  `],
		['a line break, as a paste from a file brings', (key: string) => `${key}\n`],
		['tabs and a carriage return', (key: string) => `\t${key}\r\n`],
		['a byte order mark', (key: string) => `\ufeff${key}`],
	])('pasted with %s around it, is sent trimmed', async (_what, pasted) => {
		const { error, items } = await runStep(service(), createClient, {
			credentials: { apiKey: pasted(service().apiKey) },
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ fullname: 'Ada Lovelace' })]);
		expect(service().requests.map((request) => request.headers['x-service-key'])).toEqual([
			service().apiKey,
		]);
	});

	it('is sent as it is otherwise: another key is refused by the service', async () => {
		const { error } = await runStep(service(), createClient, {
			credentials: { apiKey: `${service().apiKey}x` },
		});

		expect(service().requests.map((request) => request.headers['x-service-key'])).toEqual([
			`${service().apiKey}x`,
		]);
		expect(error?.message).toBe('Invalid service key');
		expect(error?.description).toBe(
			"The service refused the API key. Check 'API Key' in the Contract Signing credential.",
		);
		expect(service().counts().clients).toBe(0);
	});
});
