/** The limits in Options act as their labels say, and a message that sends the user there names them. */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { CONTACTS, CREATE_CLIENT, rateLimited } from '../scenarios/contacts.mts';

const service = useStandIn();

const contacts = CONTACTS as unknown as IDataObject[];

describe('Options', () => {
	it('Max Retries When Busy 0: an item given a busy reply is sent once, not waited for, and the error names where the limits are', async () => {
		service().injectFault(rateLimited(), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxRetries: 0 } },
			{ items: contacts.slice(0, 1) },
		);

		expect(service().requests).toHaveLength(1);
		expect(run.error?.description).toContain(
			'The node did not wait, as far as Max Retries When Busy and Max Wait When Busy (Seconds) in Options allow.',
		);
		expect(run.error?.description).toContain(
			'If you know the service’s limit, set Options → Max Requests per Second to it;',
		);
	});

	it('Max Requests per Second 5: six contacts are spread over a second', async () => {
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxPerSecond: 5 } },
			{ items: contacts.slice(0, 6) },
		);

		expect(run.error).toBeUndefined();
		const times = service().requests.map((request) => request.receivedAt);
		expect(times).toHaveLength(6);
		expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(900);
	});
});
