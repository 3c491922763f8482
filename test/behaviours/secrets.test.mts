/**
 * The API key never shows up in what the node produces: output items, errors (message,
 * description, request details) and the run data n8n keeps.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../service/stand-in.mts';
import { runStep, seedClient, useStandIn } from '../helpers.mts';
import { startStandIn } from '../service/stand-in.mts';

const API_KEY = 'sk_live_7QmZ9xV2-distinctive-key';
const service = useStandIn({ apiKey: API_KEY });

/** Every string reachable from a value, property names and own non-enumerable properties (stack, cause) included. */
function allText(value: unknown, seen = new Set<unknown>()): string {
	if (typeof value === 'string') return value;
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	return Object.getOwnPropertyNames(value)
		.map((name) => `${name}\n${allText((value as Record<string, unknown>)[name], seen)}`)
		.join('\n');
}

/** A contract create answered by the fault, once in each On Error mode: all the text n8n kept. */
async function runInEveryErrorMode(fault: Fault, credentials?: IDataObject) {
	const runs = [];
	for (const onError of ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const) {
		service().injectFault(fault);
		const run = await runStep(
			service(),
			{ resource: 'contract', operation: 'create', clientKey: 'cli_1', name: 'NDA' },
			{ onError, credentials },
		);
		runs.push({ onError, produced: allText(run.run) + allText(run.error) });
	}
	return runs;
}

const faults: Fault[] = [
	{ kind: 'status', status: 401 },
	{ kind: 'status', status: 500, body: { code: '500', message: 'Internal error' } },
	{ kind: 'bodyCode', code: '403', message: 'Forbidden' },
	{ kind: 'html', status: 502 },
	{ kind: 'truncated' },
	{ kind: 'close' },
	{ kind: 'status', status: 401, body: { code: '401', message: `Invalid service key ${API_KEY}` } },
	{ kind: 'bodyCode', code: '403', message: `Key ${API_KEY} may not do this` },
];

describe('the API key stays secret', () => {
	it('in successful runs of every operation', async () => {
		const { clientKey } = await seedClient(service());
		for (const parameters of [
			{ resource: 'client', operation: 'create', fullname: 'Ada', simple: false },
			{ resource: 'user', operation: 'get', clientKey, email: 'ada@example.com' },
			{ resource: 'contract', operation: 'create', clientKey, name: 'NDA' },
		]) {
			const run = await runStep(service(), parameters);
			expect(run.error).toBeUndefined();
			expect(allText(run.run)).not.toContain(API_KEY);
		}
		expect(
			service().requests.every((request) => request.headers['x-service-key'] === API_KEY),
		).toBe(true);
	});

	it.each(faults.map((fault, index) => [`${index + 1} (${fault.kind})`, fault] as const))(
		'in errors from fault %s, stopped or continued',
		async (_kind, fault) => {
			for (const { produced } of await runInEveryErrorMode(fault)) {
				expect(produced.length).toBeGreaterThan(0);
				expect(produced).not.toContain(API_KEY);
			}
		},
	);

	it('masks the key where the service echoes it, keeping the rest of its message', async () => {
		service().injectFault({
			kind: 'status',
			status: 401,
			body: { code: '401', message: `Invalid service key ${API_KEY}` },
		});
		const { error } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
		});

		expect(error?.message).toBe('Invalid service key ***');
	});

	it('in errors before any request and when nothing answers', async () => {
		const cases: Array<{ parameters: IDataObject; credentials?: IDataObject }> = [
			{
				parameters: {
					resource: 'user',
					operation: 'get',
					clientKey: 'cli_1',
					email: 'not-an-address',
				},
			},
			{
				// Nothing answers: without waiting for it to come up, the error is the same.
				parameters: {
					resource: 'client',
					operation: 'create',
					fullname: 'Ada',
					options: { maxRetries: 0 },
				},
				credentials: { baseUrl: 'http://127.0.0.1:9' },
			},
			{
				parameters: { resource: 'client', operation: 'create', fullname: 'Ada' },
				credentials: { baseUrl: 'ftp://127.0.0.1' },
			},
		];
		for (const { parameters, credentials } of cases) {
			const run = await runStep(service(), parameters, { credentials });
			expect(run.error).toBeDefined();
			expect(allText(run.run) + allText(run.error)).not.toContain(API_KEY);
		}
	});
});

describe('the key stays secret wherever the service sends it back', () => {
	/** How a key may come back: as it is, in another case, URL-encoded. */
	const spellings = [API_KEY, API_KEY.toUpperCase(), encodeURIComponent(`${API_KEY}/`)];
	const pasted = { apiKey: `  ${API_KEY}\n` };
	const echoes: Array<[string, Fault]> = [
		[
			'in its message, to a key pasted with blanks around it',
			{
				kind: 'status',
				status: 401,
				body: { code: '401', message: `Invalid service key ${API_KEY}` },
			},
		],
		[
			'as an object key of its error body, nested',
			{
				kind: 'status',
				status: 400,
				body: { code: '400', message: 'Bad request', details: { [API_KEY]: ['unknown key'] } },
			},
		],
		[
			'in another letter case',
			{ kind: 'bodyCode', code: '403', message: `KEY ${API_KEY.toUpperCase()} MAY NOT DO THIS` },
		],
		[
			'URL-encoded and glued to other text',
			{
				kind: 'status',
				status: 404,
				body: {
					code: '404',
					message: `No route /v1/client?k=key_${encodeURIComponent(`${API_KEY}/`)}`,
				},
			},
		],
		[
			'in a Location header',
			{ kind: 'redirect', location: `https://elsewhere.example/?key=${API_KEY}` },
		],
		[
			'in a reply that is too long to keep whole',
			{
				kind: 'status',
				status: 500,
				body: {
					code: '500',
					message: `${API_KEY} ${'x'.repeat(30_000)}`,
					trace: `${'y'.repeat(30_000)}${API_KEY}`,
				},
			},
		],
	];

	it.each(echoes)('%s: masked in the error, stopped or continued', async (_where, fault) => {
		for (const { onError, produced } of await runInEveryErrorMode(fault, pasted)) {
			// Stopped, n8n keeps the whole (masked) reply with the error.
			if (onError === 'stopWorkflow') expect(produced).toContain('***');
			for (const spelling of spellings) expect(produced).not.toContain(spelling);
		}
		expect(service().requests.map((request) => request.headers['x-service-key'])).toEqual(
			Array(3).fill(API_KEY),
		);
	});

	it('keeps the rest of the service’s message as it was', async () => {
		service().injectFault({
			kind: 'status',
			status: 401,
			body: { code: '401', message: `Invalid service key ${API_KEY}: check the key` },
		});
		const { error } = await runStep(
			service(),
			{ resource: 'client', operation: 'create', fullname: 'Ada' },
			{ credentials: pasted },
		);

		expect(error?.message).toBe('Invalid service key ***: check the key');
		expect(error?.description).toBe(
			"The service refused the API key. Check 'API Key' in the Contract Signing credential.",
		);
	});

	it('masked in a success reply with Simplify off', async () => {
		service().injectFault({
			kind: 'status',
			status: 201,
			body: {
				code: '201',
				message: `Client created for ${API_KEY}`,
				client: { clientKey: 'cli_1', createTime: 't', users: [], [`key_${API_KEY}`]: API_KEY },
			},
		});
		const run = await runStep(
			service(),
			{ resource: 'client', operation: 'create', fullname: 'Ada', simple: false },
			{ credentials: pasted },
		);

		expect(run.items).toEqual([
			{
				code: '201',
				message: 'Client created for ***',
				client: { clientKey: 'cli_1', createTime: 't', users: [], 'key_***': '***' },
			},
		]);
		expect(allText(run.run)).not.toContain(API_KEY);
	});

	it('a very long key is masked too', async () => {
		const longKey = `sk_${'7QmZ'.repeat(2500)}`;
		const own = await startStandIn({ apiKey: longKey });
		try {
			own.injectFault({
				kind: 'status',
				status: 401,
				body: { code: '401', message: `Invalid key ${longKey} (${longKey.toLowerCase()})` },
			});
			const { error, run } = await runStep(own, {
				resource: 'client',
				operation: 'create',
				fullname: 'Ada',
			});

			expect(error?.message).toBe('Invalid key *** (***)');
			expect(allText(run) + allText(error)).not.toContain(longKey.slice(0, 100));
		} finally {
			await own.close();
		}
	});

	it('a key too short to be real is not sent, and garbles nothing', async () => {
		const { error } = await runStep(
			service(),
			{ resource: 'client', operation: 'create', fullname: 'Ada' },
			{ credentials: { apiKey: 'k' } },
		);

		expect(service().requests).toHaveLength(0);
		expect(error?.message).toBe(
			"'API Key' in the Contract Signing credential has only 1 character: a service key has at least 8. Paste the whole key.",
		);
		expect(error?.description).toBe(
			'Nothing was sent to the service: run the item again once this is corrected.',
		);
	});
});
