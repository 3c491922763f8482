/**
 * "May have been created" only when it may have: a failure before the request could reach the
 * service (an untrusted certificate, an unknown host, a Base URL or key the credential refuses, a
 * credential n8n cannot read) says nothing was sent, and Retry On Fail may send the item again.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { RETRY_ON_FAIL } from '../scenarios/contacts.mts';

const service = useStandIn();

const NOTHING_SENT = 'Nothing was sent to the service: run the item again once this is corrected.';
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

		expect(error?.message).toMatch(/^The service’s secure connection could not be trusted \(.+\)$/);
		expect(error?.description).toBe(
			"Nothing was sent. Check 'Base URL' in the Contract Signing credential. If the service uses a certificate of your own organisation, turn on Ignore SSL Issues (Insecure) under the node’s Settings → Request Options.",
		);
		// The server hears of the client's refusal a moment after the client gave up.
		await vi.waitFor(() => expect(refusedHandshakes).toBe(2));
		expect(requestsReceived).toBe(0);
	});

	it('an unknown host: says so, and Retry On Fail tries again', async () => {
		const { error } = await runStep(service(), createClient, {
			credentials: { baseUrl: 'http://does-not-exist.invalid' },
			settings: TWO_TRIES,
		});

		expect(error?.message).toBe('The Base URL’s host name is unknown');
		expect(error?.description).toBe(
			"Nothing was sent. Check 'Base URL' in the Contract Signing credential.",
		);
	});

	it.each([
		['a Base URL it refuses', { baseUrl: 'http://127.0.0.1:9/?tenant=7' }],
		['an API key it refuses', { apiKey: 'short' }],
	])('%s: says nothing was sent, before any request', async (_what, credentials) => {
		const { error } = await runStep(service(), createClient, { credentials, settings: TWO_TRIES });

		expect(error?.description).toBe(NOTHING_SENT);
		expect(service().requests).toHaveLength(0);
	});

	it.each(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const)(
		'%s: a credential that cannot be read when the node sends says so, within On Error',
		async (onError) => {
			// n8n's engine reads the credential first (and stops the node itself if it cannot);
			// the node's own read comes next.
			let reads = 0;
			const credentials = () => {
				reads += 1;
				if (reads > 1) throw new Error('Credentials could not be decrypted');
				return { baseUrl: service().url, apiKey: service().apiKey };
			};
			const run = await runStep(service(), createClient, { credentials, onError, items: [{}, {}] });

			const message =
				'The Contract Signing credential could not be read: Credentials could not be decrypted';
			const description = `${NOTHING_SENT} Select the credential again in the node, or create it anew.`;
			expect(service().requests).toHaveLength(0);
			if (onError === 'stopWorkflow') {
				expect(run.error).toMatchObject({ message, description });
				return;
			}
			expect(run.error).toBeUndefined();
			const [success = [], failure = []] = run.outputs('Contract Signing');
			const items = onError === 'continueErrorOutput' ? failure : success;
			expect(items.map((item) => item.json.error)).toEqual([
				{ message, description },
				{ message, description },
			]);
		},
	);
});
