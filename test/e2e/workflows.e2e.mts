/**
 * The example workflows in a real n8n, run headless with `n8n execute`: every operation with the
 * exact requests the service receives, one contact refused by the service reaching the error
 * output, and the API key nowhere in what n8n printed or stored. Part of the n8n version matrix.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	EXAMPLES_DIR,
	executeWorkflow,
	filesContaining,
	importWorkflow,
	n8nHomeFor,
	nodeOutputs,
	removeN8nHome,
	type N8nHome,
} from './n8n-instance.mts';

const MANUAL_EXAMPLE = join(EXAMPLES_DIR, 'client-contract-and-user.json');
const ERROR_OUTPUT_WORKFLOW = new URL('./workflows/error-output.json', import.meta.url).pathname;

const workflowId = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id;

/** Distinctive, so that finding it anywhere n8n writes is a real finding. */
const API_KEY = `sk_e2e_${randomBytes(12).toString('hex')}`;
const cliOutputs: string[] = [];

let service: StandIn;
let home: N8nHome | undefined;

beforeAll(async () => {
	service = await startStandIn({ apiKey: API_KEY });
	home = await n8nHomeFor(service);
	process.stdout.write(`workflows on n8n ${home.runtime.version}\n`);
	for (const file of [MANUAL_EXAMPLE, ERROR_OUTPUT_WORKFLOW]) await importWorkflow(home, file);
});

afterAll(async () => {
	await service?.close();
	removeN8nHome(home);
});

describe('n8n execute (headless)', () => {
	it('runs the manual example: client, contract, and the default user read back', async () => {
		service.reset();
		const result = await executeWorkflow(home!, workflowId(MANUAL_EXAMPLE));
		cliOutputs.push(result.output);

		expect(result.exitCode).toBe(0);
		expect(result.status).toBe('success');
		const [client] = service.clients();
		const [contract] = service.contracts();
		const defaultUser = client.users[0];
		expect(nodeOutputs(result, 'Create Client')[0][0]).toMatchObject({
			clientKey: client.clientKey,
			defaultUserKey: defaultUser.userKey,
		});
		expect(nodeOutputs(result, 'Create Contract')[0][0]).toMatchObject({
			contractKey: contract.contractKey,
			clientKey: client.clientKey,
		});
		expect(nodeOutputs(result, 'Get User')[0][0]).toMatchObject({
			userKey: defaultUser.userKey,
			email: 'ada@example.com',
		});

		expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'POST /v1/client',
			'POST /v1/contract',
			'POST /v1/user',
		]);
		for (const request of service.requests) {
			expect(request.headers['content-type']).toBe('application/json');
			expect(request.headers['x-service-key']).toBe(service.apiKey);
		}
		expect(service.requests.map((request) => request.body)).toEqual([
			{
				data: {
					action: 'create',
					client: {
						fullname: 'Ada Lovelace',
						email: 'ada@example.com',
						organization: 'Analytical Engines Ltd',
						customKey: '1042',
						users: [{ fullname: 'Ada Lovelace', email: 'ada@example.com', customKey: '1042' }],
					},
				},
			},
			{
				data: {
					action: 'create',
					clientKey: client.clientKey,
					contract: {
						name: 'Service agreement – Analytical Engines Ltd',
						templateKey: 'tpl_service_agreement',
					},
				},
			},
			{ data: { action: 'read', clientKey: client.clientKey, user: { email: 'ada@example.com' } } },
		]);
	});

	it('with one contact refused by the service, the others succeed and it reaches the error output', async () => {
		service.reset();
		service.injectFault(
			{
				kind: 'status',
				status: 500,
				body: { code: '500', message: 'Signature backend unavailable' },
			},
			{ when: (request) => JSON.stringify(request.body).includes('Grace Hopper') },
		);
		const result = await executeWorkflow(home!, workflowId(ERROR_OUTPUT_WORKFLOW));
		cliOutputs.push(result.output);

		expect(result.status).toBe('success');
		const [created, failed] = nodeOutputs(result, 'Create Client');
		expect(created.map((item) => item.fullname)).toEqual(['Ada Lovelace', 'Alan Turing']);
		expect(failed).toEqual([
			{
				name: 'Grace Hopper',
				email: 'grace@example.com',
				crmId: 2,
				error: {
					message: 'Signature backend unavailable',
					code: '500',
					description:
						'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with \'Custom Key\' "2" before you run this item again.',
				},
			},
		]);
		expect(nodeOutputs(result, 'Failed')[0]).toHaveLength(1);
		expect(nodeOutputs(result, 'Created')[0]).toHaveLength(2);
		expect(service.counts().clients).toBe(2);
	});
});

describe('secrets', () => {
	it('leaves the API key nowhere in what n8n printed or stored, after runs that succeeded and failed', () => {
		expect(cliOutputs).toHaveLength(2);
		for (const output of cliOutputs) expect(output).not.toContain(API_KEY);
		expect(filesContaining(home!, API_KEY)).toEqual([]);
		expect(filesContaining(home!, 'Signature backend unavailable').length).toBeGreaterThan(0);
	});
});
