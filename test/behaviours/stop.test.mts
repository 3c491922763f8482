/**
 * Stop and Timeout, as n8n's own nodes have them: Stop ends the node's waits, so nothing more is
 * sent and n8n marks the run as stopped; a request without any reply ends at the Timeout of
 * Settings → Request Options. In `n8n start`, Stop also ends a request under way, through the
 * cancel signal n8n hands it (test/e2e/stop.e2e.mts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { CONTACTS, CREATE_CLIENT, rateLimited, RETRY_ON_FAIL } from '../scenarios/contacts.mts';

const service = useStandIn();

const createClient = { resource: 'client', operation: 'create', customKey: 'crm-1042' };

/** Resolves once the service has answered its first request. */
async function firstReplied(): Promise<void> {
	while (service().requests[0]?.repliedAt === undefined) await sleep(5);
}

describe('Stop', () => {
	it('ends an item’s wait for a busy service: it is not sent again, and the run is canceled', async () => {
		// Turned away for 1 s: without the Stop, the item would be sent again 1 s after the reply.
		service().injectFault(rateLimited(1), { times: 1 });
		const { run, items } = await runStep(service(), CREATE_CLIENT, {
			items: CONTACTS.slice(0, 1) as unknown as IDataObject[],
			cancelWhen: firstReplied(),
		});

		expect(run.status).toBe('canceled');
		expect(items).toEqual([]);
		expect(service().requests).toHaveLength(1);
		// Past the Retry-After, and past the slowest pace after a busy reply (2 s): nothing more came.
		await sleep(2500);
		expect(service().requests).toHaveLength(1);
		expect(service().counts().clients).toBe(0);
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
		expect(error?.message).toBe('The service did not answer in time (timeout of 1500ms exceeded)');
		expect(error?.description).toBe(
			'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with \'Custom Key\' "crm-1042" before you run this item again.',
		);
	});

	it('a read that ran out of time says so, and is sent again under Retry On Fail', async () => {
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
		expect(error?.message).toBe('The service did not answer in time (timeout of 300ms exceeded)');
		expect(error?.description).toMatch(
			/^To give the service more time, .* more than 300, such as 600 /,
		);
	});
});
