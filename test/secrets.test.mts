/**
 * The API key never shows up in what the node produces: output items, errors (message,
 * description, request details) and the run data n8n keeps.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Fault } from './service/stand-in.mts';
import { runStep, seedClient, useStandIn } from './helpers.mts';

const API_KEY = 'sk_live_7QmZ9xV2-distinctive-key';
const service = useStandIn({ apiKey: API_KEY });

/** Every string reachable from a value, own non-enumerable properties (stack, cause) included. */
function allText(value: unknown, seen = new Set<unknown>()): string {
	if (typeof value === 'string') return value;
	if (typeof value !== 'object' || value === null || seen.has(value)) return '';
	seen.add(value);
	return Object.getOwnPropertyNames(value)
		.map((name) => allText((value as Record<string, unknown>)[name], seen))
		.join('\n');
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
			{ resource: 'client', operation: 'create', fullname: 'Ada', simplify: false },
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
			for (const onError of [
				'stopWorkflow',
				'continueRegularOutput',
				'continueErrorOutput',
			] as const) {
				service().injectFault(fault);
				const run = await runStep(
					service(),
					{ resource: 'contract', operation: 'create', clientKey: 'cli_1', name: 'NDA' },
					{ onError },
				);
				const produced = allText(run.run) + allText(run.error);
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
				parameters: { resource: 'client', operation: 'create', fullname: 'Ada' },
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
