/**
 * n8n applies the credential to every request the node sends: its generic `authenticate` sets
 * the key's header, and n8n reads (decrypts) the credential for each request, besides once per
 * run of the node, for the `$credentials` of the Base URL. The node never reads the credential
 * itself. Nothing of it is kept from one execution to the next, nor put in the output.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterEach, expect, it, vi } from 'vitest';
import { TestCredentialsHelper } from '../engine/n8n-engine.mts';
import { runStep, useStandIn } from '../helpers.mts';
import {
	batching,
	busyWithoutActing,
	CONTACTS,
	CREATE_CLIENT,
	failFirstRequestOf,
	NO_WAITING,
	RETRY_ON_FAIL,
} from '../scenarios/contacts.mts';

const service = useStandIn();
const contacts = CONTACTS as unknown as IDataObject[];

/** n8n's routing reads the credential once itself, for `$credentials`, before any item of a run. */
const ENGINE_READS_PER_RUN = 1;

afterEach(() => {
	vi.restoreAllMocks();
});

it('n8n applies the credential to every request, and reads it for each besides once per run', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	const authenticate = vi.spyOn(TestCredentialsHelper.prototype, 'authenticate');

	const first = await runStep(service(), CREATE_CLIENT, { items: contacts });
	expect(first.error).toBeUndefined();
	expect(service().clients()).toHaveLength(contacts.length);
	const sent = service().requests.length;
	expect(sent).toBe(contacts.length);
	expect(authenticate).toHaveBeenCalledTimes(sent);
	expect(
		service().requests.every((request) => request.headers['x-service-key'] === service().apiKey),
	).toBe(true);
	expect(decrypt).toHaveBeenCalledTimes(ENGINE_READS_PER_RUN + sent);

	// A new execution reads it again: nothing is kept from one execution to the next.
	const second = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 3) });
	expect(second.error).toBeUndefined();
	expect(decrypt).toHaveBeenCalledTimes(2 * ENGINE_READS_PER_RUN + sent + 3);
	expect(JSON.stringify(second.items)).not.toContain(service().apiKey);
});

it('each try of Retry On Fail is a run of its own: n8n reads it once more for it', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	failFirstRequestOf(service(), ['crm-2'], busyWithoutActing);

	const run = await runStep(
		service(),
		{ ...CREATE_CLIENT, ...NO_WAITING },
		{ items: contacts.slice(0, 4), settings: RETRY_ON_FAIL },
	);

	expect(run.error).toBeUndefined();
	expect(service().clients()).toHaveLength(4);
	// Two tries: the first sends 4 and ends with crm-2 refused as busy, the second sends crm-2 only.
	expect(service().requests).toHaveLength(5);
	expect(decrypt).toHaveBeenCalledTimes(2 * ENGINE_READS_PER_RUN + 5);
});

it('with Batching, n8n reads it for each request and once per run, however many batches', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');

	const run = await runStep(
		service(),
		{ ...CREATE_CLIENT, ...batching(2, 200) },
		{ items: contacts.slice(0, 6) },
	);

	expect(run.error).toBeUndefined();
	expect(service().requests).toHaveLength(6);
	expect(decrypt).toHaveBeenCalledTimes(ENGINE_READS_PER_RUN + 6);
});

// n8n 2.41.1 counts a declarative node's own Base URL (from requestDefaults) as allowed by the
// credential's Allowed HTTP Request Domains: the list restricts what the HTTP Request node may
// do with the credential, not the node it belongs to.
it('n8n lets the node send to its Base URL whatever the credential’s Allowed HTTP Request Domains list', async () => {
	const run = await runStep(service(), CREATE_CLIENT, {
		items: contacts.slice(0, 2),
		credentials: { allowedHttpRequestDomains: 'domains', allowedDomains: 'sign.example.com' },
	});

	expect(run.error).toBeUndefined();
	expect(service().clients()).toHaveLength(2);
});

it('without Settings → Request Options → Timeout, n8n gives each request 300,000 ms, as docs/reference.md says', async () => {
	const authenticate = vi.spyOn(TestCredentialsHelper.prototype, 'authenticate');
	await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 1) });
	await runStep(
		service(),
		{ ...CREATE_CLIENT, requestOptions: { timeout: 2000 } },
		{
			items: contacts.slice(0, 1),
		},
	);
	expect(authenticate.mock.calls.map(([, , options]) => options.timeout)).toEqual([300_000, 2000]);
});
