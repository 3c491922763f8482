/**
 * The API key never shows up in what the node produces when the service does not send it back:
 * output items, errors (message, description, request details) and the run data n8n keeps. (A
 * reply that repeats the key is kept as the service sent it: the node does not mask it.)
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../service/stand-in.mts';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

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
	{ kind: 'redirect', location: 'https://elsewhere.example/v1/contract' },
	{ kind: 'missingResource' },
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

	it('in errors to a key pasted with blanks around it', async () => {
		for (const { produced } of await runInEveryErrorMode(
			{ kind: 'status', status: 401, body: { code: '401', message: 'Invalid service key' } },
			{ apiKey: `  ${API_KEY}\n` },
		)) {
			expect(produced).toContain('Invalid service key');
			expect(produced).not.toContain(API_KEY);
		}
		expect(service().requests.map((request) => request.headers['x-service-key'])).toEqual(
			Array(3).fill(API_KEY),
		);
	});
});
