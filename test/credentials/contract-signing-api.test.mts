import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeType,
} from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, loadPackage, registerNodeType } from '../engine/n8n-engine.mts';
import { credentialsFor, runStep, useStandIn } from '../helpers.mts';
import { runWorkflow } from '../engine/n8n-engine.mts';
import { startRecorder, type Recorder } from '../service/recorder.mts';
import { CONTACTS, CREATE_CLIENT } from '../scenarios/contacts.mts';

const service = useStandIn();

/** A web server that is not the service: it answers every request with an HTML 404 page. */
let otherWebsite: Server;
let otherWebsiteUrl: string;
beforeAll(async () => {
	otherWebsite = createServer((_request, response) => {
		response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not found</html>');
	});
	await new Promise<void>((resolve) => otherWebsite.listen(0, '127.0.0.1', resolve));
	otherWebsiteUrl = `http://127.0.0.1:${(otherWebsite.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => otherWebsite.close(resolve));
});

const createClient = { resource: 'client', operation: 'create', fullname: 'Ada Lovelace' };

describe('Base URL', () => {
	it.each(['', '/', '/v1', '/v1/', '//'])(
		'reaches /v1/client with "%s" at the end',
		async (suffix) => {
			const { error } = await runStep(service(), createClient, {
				credentials: { baseUrl: `${service().url}${suffix}` },
			});

			expect(error).toBeUndefined();
			expect(service().requests.map((request) => request.path)).toEqual(['/v1/client']);
		},
	);

	it('reaches /v1/client when the Base URL ends in /v1/v1', async () => {
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: `${service().url}/v1/v1/` },
		});

		expect(error).toBeUndefined();
		expect(service().requests.map((request) => request.path)).toEqual(['/v1/client']);
	});

	it.each([
		['?tenant=7', 'has a query (?…)'],
		['/#section', 'has a fragment (#…)'],
	])('refuses a Base URL with %s, without a request', async (suffix, what) => {
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: `${service().url}${suffix}` },
		});

		expect(error?.message).toBe(
			`'Base URL' ("${service().url}${suffix}") ${what}: enter only the service’s address, such as ${service().url}, in the Contract Signing credential.`,
		);
		expect(error?.description).toBe(
			'Nothing was sent to the service: run the item again once this is corrected.',
		);
		expect(service().requests).toHaveLength(0);
	});

	it('refuses a Base URL that is not a web address, without a request', async () => {
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: `ftp://127.0.0.1:${service().port}` },
		});

		expect(error?.message).toBe(
			`'Base URL' ("ftp://127.0.0.1:${service().port}") is not a web address: it must start with https:// or http://. Correct it in the Contract Signing credential.`,
		);
		expect(service().requests).toHaveLength(0);
	});
});

describe('credential test', () => {
	/** The request of the credential's test, run by n8n's engine the way n8n's credential tester does. */
	async function testCredential(credentials: ICredentialDataDecryptedObject) {
		const { credentialTypes } = await loadPackage();
		const { request, rules } = credentialTypes[CREDENTIAL_TYPE].test!;
		const testNode: INodeType = {
			description: {
				displayName: 'Credential test',
				name: 'test.credentialTest',
				group: ['input'],
				version: 1,
				description: 'Sends the test request of the credential',
				defaults: { name: 'Credential test' },
				inputs: ['main'],
				outputs: ['main'],
				credentials: [{ name: CREDENTIAL_TYPE, required: true }],
				properties: [
					{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request } },
				],
			},
		};
		registerNodeType(testNode);
		const run = await runWorkflow([{ name: 'Test', type: 'test.credentialTest', parameters: {} }], {
			credentials,
		});
		if (run.error) return { error: run.error.message };
		const reply = run.outputs('Test')[0][0].json;
		const failed = (rules as IAuthenticateRuleResponseSuccessBody[]).find(
			(rule) =>
				rule.type === 'responseSuccessBody' && reply[rule.properties.key] === rule.properties.value,
		);
		return failed ? { error: failed.properties.message } : { ok: true };
	}

	it('passes with the right key', async () => {
		expect(await testCredential(credentialsFor(service()))).toEqual({ ok: true });
		expect(service().requests[0].path).toBe('/v1/user');
	});

	it('says the key is wrong, also when the service answers errors with HTTP 200', async () => {
		const wrongKey = credentialsFor(service(), { apiKey: 'wrong-service-key' });
		expect(await testCredential(wrongKey)).toEqual({
			error: "The service refused the API key. Check 'API Key'.",
		});
		service().settings.errorsAs = 'body';
		service().settings.numericCodes = true;
		expect(await testCredential(wrongKey)).toEqual({
			error: "The service refused the API key. Check 'API Key'.",
		});
	});

	it('says the Base URL is wrong when something else answers there', async () => {
		expect(await testCredential({ baseUrl: otherWebsiteUrl, apiKey: 'any-service-key' })).toEqual({
			error:
				"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.",
		});
	});

	it('says the Base URL cannot be reached when nothing answers there', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9',
			apiKey: 'any-service-key',
		});
		expect(result.error).toMatch(/ECONNREFUSED|refused/i);
	});
});

describe('the key goes to the Base URL’s origin only, for every node using the credential', () => {
	/** A node that sends one request with the credential, as the HTTP Request node does. */
	const anyRequestNode: INodeType = {
		description: {
			displayName: 'Any request',
			name: 'test.anyRequest',
			group: ['output'],
			version: 1,
			description: 'Sends one POST with the Contract Signing credential',
			defaults: { name: 'Any request' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'Legacy', name: 'legacy', type: 'boolean', default: false },
				{ displayName: 'As Object', name: 'asObject', type: 'boolean', default: false },
				{ displayName: 'In Url', name: 'inUrl', type: 'boolean', default: false },
			],
		},
		async execute(this: IExecuteFunctions) {
			const text = this.getNodeParameter('url', 0) as string;
			// A URL object, as code that builds addresses with `new URL(…)` passes them on.
			const url = (this.getNodeParameter('asObject', 0) ? new URL(text) : text) as string;
			const where = this.getNodeParameter('inUrl', 0) ? { url } : { uri: url };
			const body = { data: { action: 'create', client: { fullname: 'Ada' } } };
			const reply: unknown = this.getNodeParameter('legacy', 0)
				? await this.helpers.requestWithAuthentication.call(this, CREDENTIAL_TYPE, {
						method: 'POST',
						...where,
						body,
						json: true,
						followRedirect: true,
						followAllRedirects: true,
					})
				: await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
						method: 'POST',
						url,
						body,
						json: true,
					});
			return [[{ json: { reply: JSON.stringify(reply) } }]];
		},
	};

	let elsewhere: Recorder;
	beforeAll(async () => {
		registerNodeType(anyRequestNode);
		elsewhere = await startRecorder();
	});
	afterAll(async () => {
		await elsewhere.close();
	});

	const send = (url: string, legacy: boolean, form: { asObject?: boolean; inUrl?: boolean } = {}) =>
		runWorkflow(
			[{ name: 'Any request', type: 'test.anyRequest', parameters: { url, legacy, ...form } }],
			{ credentials: credentialsFor(service()) },
		);

	it.each([
		['a URL object as url', false, { asObject: true }],
		['a URL object as uri (legacy helper)', true, { asObject: true }],
		['a URL object as url (legacy helper)', true, { asObject: true, inUrl: true }],
		['text as url (legacy helper)', true, { inUrl: true }],
	])('refuses a request to another origin given as %s', async (_form, legacy, form) => {
		elsewhere.requests.length = 0;
		const run = await send(`${elsewhere.url}/v1/client`, legacy, form);

		expect(run.error?.message).toContain(
			`The Contract Signing API credential sends its key only to ${service().url}, its Base URL, but this request goes to ${elsewhere.url}.`,
		);
		expect(elsewhere.requests).toEqual([]);
	});

	it.each([false, true])(
		'refuses a request to another origin (legacy helper: %s)',
		async (legacy) => {
			const run = await send(`${elsewhere.url}/v1/client`, legacy);

			expect(run.error?.message).toContain(
				`The Contract Signing API credential sends its key only to ${service().url}, its Base URL, but this request goes to ${elsewhere.url}.`,
			);
			expect(elsewhere.requests).toEqual([]);
		},
	);

	it.each([false, true])(
		'does not follow a redirect to another origin (legacy helper: %s)',
		async (legacy) => {
			elsewhere.requests.length = 0;
			service().injectFault({ kind: 'redirect', location: `${elsewhere.url}/v1/client` });
			const run = await send(`${service().url}/v1/client`, legacy);

			expect(service().requests).toHaveLength(1);
			expect(elsewhere.requests).toEqual([]);
			expect(run.outputs('Any request')).toEqual([]);
		},
	);

	it('still sends to an address under the Base URL', async () => {
		const run = await send(`${service().url}/v1/client`, false);

		expect(run.error).toBeUndefined();
		expect(service().counts().clients).toBe(1);
	});
});

describe('the node follows no redirect', () => {
	it('a redirect is not followed: nothing reaches its target, and the error names it', async () => {
		const elsewhere = await startRecorder();
		try {
			service().injectFault({ kind: 'redirect', location: `${elsewhere.url}/v1/client` });
			const run = await runStep(service(), CREATE_CLIENT, {
				items: CONTACTS.slice(0, 1) as unknown as IDataObject[],
			});

			expect(elsewhere.requests).toEqual([]);
			expect(run.error?.message).toBe(
				`The service address redirects to ${elsewhere.url}/v1/client`,
			);
			expect(run.error?.description).toMatch(
				/^Nothing was sent there: the API key goes only to the Base URL/,
			);
		} finally {
			await elsewhere.close();
		}
	});
});
