import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seedClient } from '../service/seed-client.mts';
import {
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	filesContaining,
	importCredentials,
	importWorkflows,
	NODE_TYPE,
	nodeOutputs,
	postToWebhook,
	publishInN8n,
	readTestWorkflow,
} from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const WEBHOOK_EXAMPLE = readTestWorkflow('contact-answer.json');
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const README_CREDENTIAL_TEST_FAILS = README.slice(
	README.indexOf('- **The credential test fails.**'),
)
	.split('\n- ')[0]
	.replace(/\s+/g, ' ');
/** The n8n line under test: '' the pinned n8n, '1.x' the newest 1.x. */
const ON_1X = process.env.CONTRACT_SIGNING_N8N === '1.x';

interface NodeTypeListing {
	name: string;
	properties: Array<{
		name: string;
		default?: unknown;
		options?: Array<{ value?: unknown; action?: string; description?: string }>;
	}>;
}

/**
 * The option n8n adds to every Operation list of a node whose credential the HTTP Request node can
 * use: it hands the call over to the HTTP Request node, and is not one of this node's operations.
 */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** A Contract Signing credential whose Allowed HTTP Request Domains list names only another host. */
const RESTRICTED_CREDENTIAL_ID = 'csRestrictedCredential';

/**
 * Manual Trigger → the HTTP Request node reading a user with the Contract Signing credential, at
 * the service or at the given address, with the example's credential or the given one.
 */
function httpRequestWorkflow(
	clientKey: string,
	{ id = 'csHttpRequestCheck', url = suite.service.url, credentialId = EXAMPLE_CREDENTIAL_ID } = {},
) {
	return {
		id,
		name: `HTTP Request with the Contract Signing credential (${id})`,
		nodes: [
			{
				id: 'h0c1a1e0-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'h0c1a1e0-0000-4000-8000-000000000002',
				name: 'Read User',
				type: 'n8n-nodes-base.httpRequest',
				// The version each line adds today: 1.123.81 has none past 4.3.
				typeVersion: ON_1X ? 4.3 : 4.5,
				position: [200, 0],
				credentials: {
					[CREDENTIAL_TYPE]: { id: credentialId, name: 'Contract Signing account' },
				},
				parameters: {
					method: 'POST',
					url: `${url}/v1/user`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify({
						data: {
							action: 'read',
							clientKey,
							user: { email: 'ada@example.com' },
						},
					}),
					options: {},
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Read User', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

const runOutputs: string[] = [];

/** The recorder: another server, which nothing carrying the key may reach. */
const suite = useN8n('n8n', {
	recorder: true,
	start: true,
	prepare: async () => {
		seeded = await seedClient(suite.service);
		await importCredentials(suite.home, [
			{
				id: RESTRICTED_CREDENTIAL_ID,
				name: 'Contract Signing account, restricted',
				type: CREDENTIAL_TYPE,
				data: {
					baseUrl: suite.service.url,
					apiKey: suite.service.apiKey,
					allowedHttpRequestDomains: 'domains',
					allowedDomains: 'sign.example.com',
				},
			},
		]);
		await importWorkflows(suite.home, [
			WEBHOOK_EXAMPLE,
			httpRequestWorkflow(seeded.clientKey),
			httpRequestWorkflow(seeded.clientKey, {
				id: 'csHttpRequestElsewhere',
				url: suite.recorder.url,
			}),
			httpRequestWorkflow(seeded.clientKey, {
				id: 'csHttpRequestRestricted',
				url: suite.recorder.url,
				credentialId: RESTRICTED_CREDENTIAL_ID,
			}),
		]);
	},
	started: async () => await publishInN8n(suite.rest, WEBHOOK_EXAMPLE.id),
});
let seeded: Awaited<ReturnType<typeof seedClient>>;

describe('the HTTP Request node with this credential', () => {
	it('sends the key and reaches the service for calls the node does not cover', async () => {
		suite.service.requests.length = 0;

		const result = await suite.execute('csHttpRequestCheck');
		runOutputs.push(result.output);

		expect(result.status).toBe('success');
		expect(nodeOutputs(result, 'Read User')[0][0]).toMatchObject({
			code: '200',
			message: 'User found',
			user: { userKey: seeded.defaultUserKey, email: 'ada@example.com' },
		});
		expect(suite.service.requests).toHaveLength(1);
		expect(suite.service.requests[0].path).toBe('/v1/user');
		expect(suite.service.requests[0].headers['x-service-key']).toBe(suite.service.apiKey);
	});

	// docs/reference.md: such nodes send the key wherever they are pointed, as with any n8n
	// credential; the credential's Allowed HTTP Request Domains limits them on 2.41.1, not on 1.123.81.
	it('sends the key to any address it is given; the credential’s Allowed HTTP Request Domains stop it on 2.x', async () => {
		suite.recorder.requests.length = 0;

		const elsewhere = await suite.execute('csHttpRequestElsewhere');
		expect(elsewhere.status).toBe('success');
		expect(suite.recorder.requests.map((request) => request.serviceKey)).toEqual([
			suite.service.apiKey,
		]);

		const restricted = await suite.execute('csHttpRequestRestricted');
		if (ON_1X) {
			expect(restricted.status).toBe('success');
			expect(suite.recorder.requests).toHaveLength(2);
		} else {
			expect(restricted.status).toBe('error');
			expect(restricted.output).toContain('Domain not allowed');
			expect(suite.recorder.requests).toHaveLength(1);
		}
	});
});

describe('n8n start', () => {
	it('lists the node, its tool variant for AI agents, and the credential type', async () => {
		const nodeTypes = (await (await suite.rest('/types/nodes.json')).json()) as NodeTypeListing[];
		const names = nodeTypes.map((type) => type.name);
		expect(names).toContain(NODE_TYPE);
		expect(names).toContain(`${NODE_TYPE}Tool`);

		const credentialTypes = (await (await suite.rest('/types/credentials.json')).json()) as Array<{
			name: string;
		}>;
		expect(credentialTypes.map((type) => type.name)).toContain(CREDENTIAL_TYPE);
	});

	it('describes the tool variant so an agent knows what each operation needs and returns', async () => {
		const nodeTypes = (await (await suite.rest('/types/nodes.json')).json()) as NodeTypeListing[];
		const tool = nodeTypes.find((type) => type.name === `${NODE_TYPE}Tool`)!;
		const toolDescription = tool.properties.find((property) => property.name === 'toolDescription');
		expect(toolDescription?.default).toBe(
			'Create clients with their users, find users and create contracts from templates in the Contract Signing service',
		);
		const options = tool.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => property.options ?? []);
		const operations = options.filter((option) => option.value !== CUSTOM_API_CALL);
		expect(operations.map((operation) => operation.action)).toEqual([
			'Create a client',
			'Create a contract',
			'Get a user',
		]);
		for (const operation of operations) {
			expect(operation.description).toMatch(
				/\. Returns the (keys of the client|contract’s key|user)/,
			);
		}
	});

	it.each([
		[
			'a good key',
			() => ({ baseUrl: suite.service.url, apiKey: suite.service.apiKey }),
			'OK',
			'Connection successful!',
		],
		[
			'a wrong key',
			() => ({ baseUrl: `${suite.service.url}/v1/`, apiKey: 'wrong-key' }),
			'Error',
			"The service refused the API key. Check 'API Key'.",
		],
		[
			'an unreachable URL',
			() => ({ baseUrl: 'http://127.0.0.1:9', apiKey: 'any-service-key' }),
			'Error',
			// n8n's own words for a refused connection, which 1.x and 2.x word differently.
			ON_1X ? 'The service refused the connection - perhaps it is offline' : 'ECONNREFUSED',
		],
		[
			'a service that answers with an error',
			() => {
				suite.service.injectFault({
					kind: 'status',
					status: 503,
					body: { code: '503', message: 'Down for maintenance' },
				});
				return { baseUrl: suite.service.url, apiKey: suite.service.apiKey };
			},
			'Error',
			'The Contract Signing service is busy or unavailable, so the key could not be checked. Try again in a few minutes.',
		],
		[
			'a Base URL that redirects elsewhere',
			() => {
				suite.service.injectFault({ kind: 'redirect', location: `${suite.recorder.url}/v1/user` });
				return { baseUrl: suite.service.url, apiKey: suite.service.apiKey };
			},
			'Error',
			"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.",
		],
		[
			'a Base URL where another server answers',
			() => ({ baseUrl: suite.recorder.url, apiKey: suite.service.apiKey }),
			'Error',
			"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.",
		],
	])('tests the credential with %s', async (_case, data, status, message) => {
		suite.service.reset();
		suite.recorder.requests.length = 0;
		const response = await suite.rest('/rest/credentials/test', {
			method: 'POST',
			body: JSON.stringify({
				credentials: {
					id: EXAMPLE_CREDENTIAL_ID,
					name: 'Contract Signing account',
					type: CREDENTIAL_TYPE,
					data: data(),
				},
			}),
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { data: unknown }).data).toEqual({ status, message });
		if (_case === 'a Base URL that redirects elsewhere')
			expect(suite.recorder.requests).toEqual([]);
		// The README's "The credential test fails" names what n8n shows, up to its first stop.
		if (status === 'Error') {
			const shown = message.split(/ - |[.,(]/)[0].trim();
			expect(README_CREDENTIAL_TEST_FAILS).toContain(`_${shown}_`);
		}
	});

	it('answers the published webhook with fresh keys for each contact', async () => {
		suite.service.reset();
		const contacts = [
			{
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				company: 'Analytical Engines Ltd',
				crmId: 1,
			},
			{
				name: 'Grace Hopper',
				email: 'grace@example.com',
				company: 'Compilers Inc',
				crmId: 2,
				contacts: [
					{ name: 'Grace Hopper', email: 'grace@example.com', id: 21 },
					{ name: 'Howard Aiken', email: 'howard@example.com', id: 22 },
				],
			},
			{ name: 'Alan Turing', email: 'alan@example.com', company: 'Bletchley Park', crmId: 3 },
		];
		const answers: Array<Record<string, string>> = [];
		for (const contact of contacts) {
			const response = await postToWebhook(`${suite.n8n.url}/webhook/crm-contact`, contact);
			expect(response.status).toBe(200);
			answers.push((await response.json()) as Record<string, string>);
		}

		const clients = suite.service.clients();
		const contracts = suite.service.contracts();
		expect(answers).toEqual(
			clients.map((client, index) => ({
				clientKey: client.clientKey,
				userKey: client.users[0].userKey,
				contractKey: contracts[index].contractKey,
			})),
		);
		expect(new Set(answers.map((answer) => answer.contractKey)).size).toBe(3);
		expect(clients[1].users.map((user) => user.email)).toEqual([
			'grace@example.com',
			'howard@example.com',
		]);
		expect(contracts.map((contract) => contract.name)).toEqual([
			'Service agreement – Analytical Engines Ltd',
			'Service agreement – Compilers Inc',
			'Service agreement – Bletchley Park',
		]);
	});
});

describe('secrets', () => {
	it('leaves the API key nowhere in what n8n printed or stored, after the runs above', () => {
		expect(runOutputs).toHaveLength(1);
		for (const output of runOutputs) expect(output).not.toContain(suite.service.apiKey);
		expect(filesContaining(suite.home, suite.service.apiKey)).toEqual([]);
		// The search finds what n8n did store: the contacts of the webhook runs.
		expect(filesContaining(suite.home, 'grace@example.com').length).toBeGreaterThan(0);
	});
});
