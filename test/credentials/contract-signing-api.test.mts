/**
 * The credential's test, as n8n's credential tester runs it: its request through n8n's engine,
 * then its rules over the reply, first failing rule first. Four answers: the key works, the key is
 * refused, the service is busy (so the key could not be checked), and something that is not the
 * service answers at the Base URL. And the node follows no redirect: the key goes only to the Base
 * URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeType,
} from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	CREDENTIAL_TYPE,
	loadPackage,
	registerNodeType,
	runWorkflow,
} from '../engine/n8n-engine.mts';
import { credentialsFor, runStep, useStandIn } from '../helpers.mts';
import { startRecorder } from '../service/recorder.mts';
import { CONTACTS, CREATE_CLIENT } from '../scenarios/contacts.mts';

const service = useStandIn();

const REFUSED_KEY = "The service refused the API key. Check 'API Key'.";
const SERVICE_BUSY =
	'The Contract Signing service is busy or unavailable, so the key could not be checked. Try again in a few minutes.';
const NOT_THE_SERVICE =
	"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.";

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

describe('credential test', () => {
	it('passes with the right key, sent trimmed, at a Base URL with /v1/ at its end', async () => {
		expect(await testCredential(credentialsFor(service()))).toEqual({ ok: true });
		expect(
			await testCredential(
				credentialsFor(service(), {
					baseUrl: ` ${service().url}/v1/ `,
					apiKey: ` ${service().apiKey}\n`,
				}),
			),
		).toEqual({ ok: true });
		expect(service().requests.map(({ path, headers }) => [path, headers['x-service-key']])).toEqual(
			[
				['/v1/user', service().apiKey],
				['/v1/user', service().apiKey],
			],
		);
	});

	it('says the key is refused, also when the service answers errors with HTTP 200', async () => {
		const wrongKey = credentialsFor(service(), { apiKey: 'wrong-service-key' });
		expect(await testCredential(wrongKey)).toEqual({ error: REFUSED_KEY });
		service().settings.errorsAs = 'body';
		service().settings.numericCodes = true;
		expect(await testCredential(wrongKey)).toEqual({ error: REFUSED_KEY });
		expect(service().requests).toHaveLength(2);
	});

	it.each([
		['429', { kind: 'status', status: 429, body: { code: '429', message: 'Too many requests' } }],
		[
			'503',
			{ kind: 'status', status: 503, body: { code: '503', message: 'Down for maintenance' } },
		],
		['429 in a reply of HTTP 200', { kind: 'bodyCode', code: 429, message: 'Too many requests' }],
		[
			'502 from a gateway that answers in JSON',
			{ kind: 'status', status: 502, body: { code: 502, message: 'Bad gateway' } },
		],
		['500', { kind: 'status', status: 500, body: { code: '500', message: 'Internal error' } }],
		[
			'504 from a gateway that answers in JSON',
			{ kind: 'status', status: 504, body: { code: 504, message: 'Gateway timeout' } },
		],
	] as const)('says the service is busy when it answers %s', async (_what, fault) => {
		service().injectFault(fault, { path: '/v1/user' });
		expect(await testCredential(credentialsFor(service()))).toEqual({ error: SERVICE_BUSY });
		expect(service().requests).toHaveLength(1);
	});

	it('says the Base URL is wrong when something else answers there', async () => {
		expect(await testCredential({ baseUrl: otherWebsiteUrl, apiKey: 'any-service-key' })).toEqual({
			error: NOT_THE_SERVICE,
		});
		service().injectFault({ kind: 'html', status: 200 }, { path: '/v1/user' });
		expect(await testCredential(credentialsFor(service()))).toEqual({ error: NOT_THE_SERVICE });
	});

	it('gives n8n’s own message when nothing answers at the Base URL', async () => {
		const result = await testCredential({
			baseUrl: 'http://127.0.0.1:9',
			apiKey: 'any-service-key',
		});
		expect(result.error).toMatch(/ECONNREFUSED|refused/i);
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

			expect(service().requests).toHaveLength(1);
			expect(elsewhere.requests).toEqual([]);
			expect(run.error?.message).toBe(
				`The service address redirects to ${elsewhere.url}/v1/client (HTTP 307)`,
			);
			expect(run.error?.description).toBe(
				"Nothing was sent there: the node does not follow redirects. If the service has moved, enter its new address as 'Base URL' in the Contract Signing credential.",
			);
		} finally {
			await elsewhere.close();
		}
	});
});
