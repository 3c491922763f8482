/**
 * Stop and Timeout, as n8n's own nodes have them: Stop ends the node's waits and the batches
 * Batching holds back, so nothing more is sent and n8n marks the run as stopped; a request
 * without any reply ends at the Timeout of Settings → Request Options. test/e2e/stop.e2e.mts does
 * the same in a real n8n.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { credentialsFor, runStep, useStandIn } from '../helpers.mts';
import {
	batching,
	CONTACTS,
	CREATE_CLIENT,
	rateLimited,
	RETRY_ON_FAIL,
} from '../scenarios/contacts.mts';

const service = useStandIn();

const createClient = { resource: 'client', operation: 'create', customKey: 'crm-1042' };
const TRY_LATER =
	'This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.';

/** Resolves once the service has answered its first request. */
async function firstReplied(): Promise<void> {
	while (service().requests[0]?.repliedAt === undefined) await sleep(5);
}

describe('Stop', () => {
	it('ends an item’s wait for a busy service: it is not sent again, and the run is canceled', async () => {
		// Turned away for 1 s: without the Stop, the item would be sent again 1 s after the reply.
		service().injectFault(rateLimited(1), { times: 1 });
		// n8n reads the credential for each request it makes for the node, sent or not.
		let credentialReads = 0;
		let readsAtStop = 0;
		const { run, items } = await runStep(service(), CREATE_CLIENT, {
			items: CONTACTS.slice(0, 1) as unknown as IDataObject[],
			credentials: () => (credentialReads++, credentialsFor(service())),
			cancelWhen: firstReplied().then(() => (readsAtStop = credentialReads)),
		});

		expect(run.status).toBe('canceled');
		expect(items).toEqual([]);
		expect(service().requests).toHaveLength(1);
		// Past the Retry-After, and past the slowest pause after a busy reply (2 s): nothing more came.
		await sleep(2500);
		expect(service().requests).toHaveLength(1);
		expect(service().counts().clients).toBe(0);
		// The wait ended with the Stop: the node asked n8n for no other request (which n8n, given the
		// stopped execution's cancel signal, would not have sent either).
		expect(credentialReads).toBe(readsAtStop);
	});

	it('with Batching, nothing of the batches after the Stop reaches the service', async () => {
		// Two contacts at a time, 2 s apart: the Stop comes while n8n holds back the second batch.
		let credentialReads = 0;
		let readsAtStop = 0;
		const { run } = await runStep(
			service(),
			{ ...CREATE_CLIENT, ...batching(2, 2000) },
			{
				items: CONTACTS.slice(0, 4) as unknown as IDataObject[],
				credentials: () => (credentialReads++, credentialsFor(service())),
				cancelWhen: firstReplied().then(() => (readsAtStop = credentialReads)),
			},
		);

		expect(run.status).toBe('canceled');
		// Past the time the second batch was due: none of it came.
		await sleep(2500);
		const sent = service().requests.map((request) => (request.body as IDataObject).data);
		expect(sent).toEqual([
			expect.objectContaining({ client: expect.objectContaining({ customKey: 'crm-1' }) }),
			expect.objectContaining({ client: expect.objectContaining({ customKey: 'crm-2' }) }),
		]);
		// The node asked n8n for none of the later batch's requests.
		expect(credentialReads).toBe(readsAtStop);
	});
});

describe('Timeout', () => {
	it('ends a request without a reply, with the "may exist" hint for a create', async () => {
		service().injectFault({ kind: 'silent' });
		const { error } = await runStep(service(), {
			...createClient,
			requestOptions: { timeout: 1500 },
		});

		expect(service().requests).toHaveLength(1);
		// n8n's own message for the timeout, as docs/reference.md quotes it; the code says what happened.
		expect(error?.message).toMatch(/^The connection was aborted/);
		expect((error as { httpCode?: string } | undefined)?.httpCode).toBe('ECONNABORTED');
		expect(error?.description).toBe(
			'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with \'Custom Key\' "crm-1042" before you run this item again.',
		);
	});

	it('a read that ran out of time is sent again under Retry On Fail', async () => {
		service().injectFault({ kind: 'silent' }, { times: 2 });
		const { error } = await runStep(
			service(),
			{
				resource: 'user',
				operation: 'get',
				clientKey: 'cli_1',
				email: 'ada@example.com',
				requestOptions: { timeout: 300 },
			},
			{ settings: { ...RETRY_ON_FAIL, maxTries: 2 } },
		);

		expect(service().requests).toHaveLength(2);
		expect((error as { httpCode?: string } | undefined)?.httpCode).toBe('ECONNABORTED');
		expect(error?.description).toContain(TRY_LATER);
		expect(error?.description).toContain('add Timeout under the node’s Settings → Request Options');
	});
});
