/**
 * "May have been created" only when it may have: a failure before the request could reach the
 * service (an untrusted certificate, an unknown host, a Base URL that is no web address, a
 * credential n8n cannot read) keeps n8n's own message, says nothing was sent, and Retry On Fail
 * may send the item again.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { RETRY_ON_FAIL } from '../scenarios/contacts.mts';

const service = useStandIn();

const createClient = { resource: 'client', operation: 'create', customKey: 'crm-1042' };
const TWO_TRIES = { ...RETRY_ON_FAIL, maxTries: 2 };

/** An HTTPS server whose certificate no one trusts; it counts the handshakes clients give up. */
let untrusted: Server;
let untrustedUrl: string;
let refusedHandshakes = 0;
let requestsReceived = 0;
beforeAll(async () => {
	const fixture = (name: string) => readFileSync(new URL(`../service/${name}`, import.meta.url));
	untrusted = createServer(
		{ key: fixture('self-signed.key.pem'), cert: fixture('self-signed.cert.pem') },
		(_request, response) => {
			requestsReceived += 1;
			response.writeHead(500).end();
		},
	);
	untrusted.on('tlsClientError', () => (refusedHandshakes += 1));
	await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
	untrustedUrl = `https://127.0.0.1:${(untrusted.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => untrusted.close(resolve));
});

describe('nothing was sent', () => {
	it('an untrusted certificate: says so, and Retry On Fail tries again', async () => {
		refusedHandshakes = 0;
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: untrustedUrl },
			settings: TWO_TRIES,
		});

		expect(error?.description).toBe(
			"Nothing was sent: the service’s secure connection could not be trusted. Check 'Base URL' in the Contract Signing credential; for a certificate of your own organisation, turn on Ignore SSL Issues under the node’s Settings → Request Options.",
		);
		// The server hears of the client's refusal a moment after the client gave up.
		await vi.waitFor(() => expect(refusedHandshakes).toBe(2));
		expect(requestsReceived).toBe(0);
	});

	it.each([
		['an unknown host', 'http://does-not-exist.invalid', 'the Base URL’s host name is unknown'],
		['a Base URL that is no web address', 'not a url', 'the Base URL is not a web address'],
	])('%s: says nothing was sent, and Retry On Fail tries again', async (_what, baseUrl, why) => {
		// n8n reads the credential once for the node and once for each request it makes.
		const readsOf = async (settings: IDataObject) => {
			let reads = 0;
			const credentials = () => {
				reads += 1;
				return { baseUrl, apiKey: service().apiKey };
			};
			const { error } = await runStep(service(), createClient, { credentials, settings });
			return { reads, description: error?.description };
		};
		const once = await readsOf({});
		const twice = await readsOf(TWO_TRIES);

		expect(once.description).toBe(
			`Nothing was sent: ${why}. Check 'Base URL' in the Contract Signing credential.`,
		);
		expect(twice).toEqual({ reads: 2 * once.reads, description: once.description });
	});

	it.each(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: a credential that cannot be read when the node sends says so, within On Error',
		async (onError) => {
			// n8n's engine reads the credential first (and stops the node itself if it cannot);
			// the read for each request comes next.
			let reads = 0;
			const credentials = () => {
				reads += 1;
				if (reads > 1) throw new Error('Credentials could not be decrypted');
				return { baseUrl: service().url, apiKey: service().apiKey };
			};
			const items = [{ crmId: 'crm-1' }, { crmId: 'crm-2' }];
			const run = await runStep(service(), createClient, { credentials, onError, items });

			const message = 'Credentials could not be decrypted';
			const description = 'Nothing was sent. Check the Contract Signing credential.';
			expect(service().requests).toHaveLength(0);
			if (onError === 'stopWorkflow') {
				expect(run.error).toMatchObject({ message, description });
				return;
			}
			expect(run.error).toBeUndefined();
			const [success = [], failure = []] = run.outputs('Contract Signing');
			const failed = onError === 'continueErrorOutput' ? failure : success;
			expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(failed.map((item) => item.json.error)).toEqual([
				{ message, description },
				{ message, description },
			]);
			if (onError === 'continueErrorOutput') {
				expect(failed.map((item) => item.json.crmId)).toEqual(['crm-1', 'crm-2']);
			}
		},
	);
});
