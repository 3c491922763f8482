/**
 * n8n applies the credential to every request the node sends: its `authenticate` adds the key, as
 * for any node that sends with `httpRequestWithAuthentication`, and n8n reads (decrypts) the
 * credential for each request. The node reads it itself once per try of a run, for its first
 * item (with Batching, again for a batch that begins once the last has ended), to check it before
 * anything is sent and to mask the key in what comes back; never across
 * executions, never in the output. n8n's checks that depend on the credential (its allowed
 * domains) apply to every request.
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

/** n8n's routing engine reads the credential once itself, for `$credentials`, before any item. */
const ENGINE_READS_PER_TRY = 1;
/** The node's own read, for its first item: the check and the mask. */
const NODE_READS_PER_TRY = 1;

afterEach(() => {
	vi.restoreAllMocks();
});

it('n8n applies the credential to every request; the node reads it once per try besides', async () => {
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
	expect(decrypt).toHaveBeenCalledTimes(ENGINE_READS_PER_TRY + NODE_READS_PER_TRY + sent);

	// A new execution reads it again: nothing is kept from one execution to the next.
	const second = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 3) });
	expect(second.error).toBeUndefined();
	expect(decrypt).toHaveBeenCalledTimes(2 * (ENGINE_READS_PER_TRY + NODE_READS_PER_TRY) + sent + 3);

	const output = JSON.stringify(second.items);
	expect(output).not.toContain(service().apiKey);
});

it('the node reads it again for each try of Retry On Fail', async () => {
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
	expect(decrypt).toHaveBeenCalledTimes(2 * (ENGINE_READS_PER_TRY + NODE_READS_PER_TRY) + 5);
});

it('with Batching, the node reads it again for a batch that starts once the last has ended', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	const items = contacts.slice(0, 4);

	const run = await runStep(service(), { ...CREATE_CLIENT, ...batching(2, 1000) }, { items });

	expect(run.error).toBeUndefined();
	// The first batch had its replies before the second began: no item of the try was under way.
	const [first, second, third] = service().requests;
	expect(Math.max(first.repliedAt!, second.repliedAt!)).toBeLessThanOrEqual(third.receivedAt);
	expect(decrypt).toHaveBeenCalledTimes(ENGINE_READS_PER_TRY + 2 * NODE_READS_PER_TRY + 4);
});

it('keeps n8n’s allowed-domain restriction of the credential, and says nothing was sent', async () => {
	const refused = await runStep(service(), CREATE_CLIENT, {
		items: contacts.slice(0, 2),
		credentials: { allowedHttpRequestDomains: 'domains', allowedDomains: 'sign.example.com' },
		onError: 'continueRegularOutput',
	});
	expect(service().requests).toHaveLength(0);
	expect(refused.items).toHaveLength(2);
	expect(refused.items[0]).toEqual({
		error: {
			message: expect.stringMatching(/^Domain not allowed: .*sign\.example\.com/),
			description: expect.stringMatching(/^Nothing was sent\. .*Allowed HTTP Request Domains/),
		},
	});

	const allowed = await runStep(service(), CREATE_CLIENT, {
		items: contacts.slice(0, 2),
		credentials: { allowedHttpRequestDomains: 'domains', allowedDomains: '127.0.0.1' },
	});
	expect(allowed.error).toBeUndefined();
	expect(service().clients()).toHaveLength(2);
});
