/**
 * The example workflows in a real n8n, run headless with `n8n execute`: every operation with the
 * exact requests the service receives, one contact refused by the service reaching the error
 * output, and the API key nowhere in what n8n printed or stored. Part of the n8n version matrix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, filesContaining, importWorkflow, nodeOutputs } from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const MANUAL_EXAMPLE = join(EXAMPLES_DIR, 'client-contract-and-user.json');
const ERROR_OUTPUT_WORKFLOW = new URL('./workflows/error-output.json', import.meta.url).pathname;

const workflowId = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id;

const cliOutputs: string[] = [];

const suite = useN8n('workflows', {
	prepare: async () => {
		for (const file of [MANUAL_EXAMPLE, ERROR_OUTPUT_WORKFLOW])
			await importWorkflow(suite.home, file);
	},
});

describe('n8n execute (headless)', () => {
	it('runs the manual example: client, contract, and the default user read back', async () => {
		suite.service.reset();
		const result = await suite.execute(workflowId(MANUAL_EXAMPLE));
		cliOutputs.push(result.output);

		expect(result.exitCode).toBe(0);
		expect(result.status).toBe('success');
		const [client] = suite.service.clients();
		const [contract] = suite.service.contracts();
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

		expect(suite.service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'POST /v1/client',
			'POST /v1/contract',
			'POST /v1/user',
		]);
		for (const request of suite.service.requests) {
			expect(request.headers['content-type']).toBe('application/json');
			expect(request.headers['x-service-key']).toBe(suite.service.apiKey);
		}
		expect(suite.service.requests.map((request) => request.body)).toEqual([
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

	it('with one contact failing at the service (500), the others succeed and it reaches the error output', async () => {
		suite.service.reset();
		suite.service.injectFault(
			{
				kind: 'status',
				status: 500,
				body: { code: '500', message: 'Signature backend unavailable' },
			},
			{ when: (request) => JSON.stringify(request.body).includes('Grace Hopper') },
		);
		const result = await suite.execute(workflowId(ERROR_OUTPUT_WORKFLOW));
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
		expect(suite.service.counts().clients).toBe(2);
	});
});

describe('secrets', () => {
	it('leaves the API key nowhere in what n8n printed or stored, after runs that succeeded and failed', () => {
		expect(cliOutputs).toHaveLength(2);
		for (const output of cliOutputs) expect(output).not.toContain(suite.service.apiKey);
		expect(filesContaining(suite.home, suite.service.apiKey)).toEqual([]);
		expect(filesContaining(suite.home, 'Signature backend unavailable').length).toBeGreaterThan(0);
	});
});
