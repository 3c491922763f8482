/**
 * The two limits in Options act as their labels say: how many times an item is sent again to a
 * busy service, and how long it may wait for it in all. The error of an item that reaches them
 * names them. Counted at the service: requests received, clients created.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import {
	CONTACTS,
	CREATE_CLIENT,
	failFirstRequestOf,
	rateLimited,
} from '../scenarios/contacts.mts';

const service = useStandIn();

const contacts = CONTACTS as unknown as IDataObject[];

const GAVE_UP = (tries: string) =>
	`The node tried ${tries}, the most that Options → Max Retries When Busy allows.`;

describe('Options', () => {
	it('Max Retries When Busy 0: an item given a busy reply is sent once, not waited for, and the error names where the limits are', async () => {
		service().injectFault(rateLimited(), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxRetries: 0 } },
			{ items: contacts.slice(0, 1) },
		);

		expect(service().requests).toHaveLength(1);
		expect(service().clients()).toHaveLength(0);
		expect(run.error?.message).toBe('Too many requests');
		expect(run.error?.description).toContain(GAVE_UP('0 more times'));
	});

	it('Max Retries When Busy 1: an item the service stays busy for is sent twice, then fails', async () => {
		service().injectFault(rateLimited(), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxRetries: 1 } },
			{ items: contacts.slice(0, 1) },
		);

		expect(service().requests).toHaveLength(2);
		expect(service().clients()).toHaveLength(0);
		expect(run.error?.description).toContain(GAVE_UP('1 more time'));
	});

	it('Max Wait When Busy (Seconds): a Retry-After beyond it fails the item at once, sent once', async () => {
		service().injectFault(rateLimited(5), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxWaitSeconds: 4 } },
			{ items: contacts.slice(0, 1) },
		);

		expect(service().requests).toHaveLength(1);
		expect(run.error?.description).toContain(
			'The node stopped waiting: Options → Max Wait When Busy (Seconds) does not allow a longer wait; the service asked to wait 5 s more.',
		);
	});

	it('Max Wait When Busy (Seconds) counts every wait of the item: pauses each within it add up to it', async () => {
		// Each pause is 2 to 3 s, under the 5 s allowed; the second or third would pass 5 s in all.
		// Were each pause held to the limit alone, the item would be sent 21 times (Max Retries 20).
		service().injectFault(rateLimited(2), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxWaitSeconds: 5 } },
			{ items: contacts.slice(0, 1) },
		);

		const { requests } = service();
		expect(requests.length).toBeGreaterThanOrEqual(2);
		expect(requests.length).toBeLessThanOrEqual(3);
		expect(run.error?.description).toContain(
			'The node stopped waiting: Options → Max Wait When Busy (Seconds) does not allow a longer wait; the service asked to wait 2 s more.',
		);
	});

	it('without Options: a Retry-After of an hour, beyond the 300 s an item may wait, fails the item at once', async () => {
		failFirstRequestOf(service(), ['crm-1'], rateLimited(3600));
		const run = await runStep(service(), CREATE_CLIENT, {
			items: contacts.slice(0, 2),
			onError: 'continueRegularOutput',
		});

		// The other contact is created: only the item given the hour fails.
		expect(service().requests).toHaveLength(2);
		expect(
			service()
				.clients()
				.map((client) => client.customKey),
		).toEqual(['crm-2']);
		expect(run.items).toEqual([
			{
				error: expect.objectContaining({
					message: 'Too many requests',
					description: expect.stringContaining('the service asked to wait 3600 s more.'),
				}),
			},
			expect.objectContaining({ customKey: 'crm-2' }),
		]);
	});
});
