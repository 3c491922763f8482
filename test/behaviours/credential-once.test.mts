/**
 * The credential is read, and so decrypted, once per run of the node, not once per item as n8n's
 * own send reads it, and never handed back to n8n to send with. Never across executions,
 * never across tries of Retry On Fail, never in the output; and n8n's checks that depend on the
 * credential (its allowed domains) still apply to every request.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterEach, expect, it, vi } from 'vitest';
import { TestCredentialsHelper } from '../engine/n8n-engine.mts';
import { runStep, useStandIn } from '../helpers.mts';
import {
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
const ENGINE_READS_PER_RUN = 1;

afterEach(() => {
	vi.restoreAllMocks();
});

it('reads the credential once per run of the node, whatever the number of items', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	// n8n applies a credential's authenticate when a node hands it the credential to send with.
	const handedToN8n = vi.spyOn(TestCredentialsHelper.prototype, 'authenticate');

	const first = await runStep(service(), CREATE_CLIENT, { items: contacts });
	expect(first.error).toBeUndefined();
	expect(service().clients()).toHaveLength(contacts.length);
	expect(decrypt).toHaveBeenCalledTimes(ENGINE_READS_PER_RUN + 1);
	expect(handedToN8n).not.toHaveBeenCalled();

	// A new execution reads it again: nothing is kept from one execution to the next.
	const second = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 3) });
	expect(second.error).toBeUndefined();
	expect(decrypt).toHaveBeenCalledTimes(2 * (ENGINE_READS_PER_RUN + 1));

	const output = JSON.stringify(second.items);
	expect(output).not.toContain(service().apiKey);
});

it('reads it again for each try of Retry On Fail', async () => {
	const decrypt = vi.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	failFirstRequestOf(service(), ['crm-2'], busyWithoutActing);

	const run = await runStep(
		service(),
		{ ...CREATE_CLIENT, ...NO_WAITING },
		{ items: contacts.slice(0, 4), settings: RETRY_ON_FAIL },
	);

	expect(run.error).toBeUndefined();
	expect(service().clients()).toHaveLength(4);
	// Two tries: the first ends with crm-2 refused as busy, the second sends crm-2 only.
	expect(decrypt).toHaveBeenCalledTimes(2 * (ENGINE_READS_PER_RUN + 1));
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
