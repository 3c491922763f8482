/**
 * A Stop that stops, and a timeout that counts all the time a reply takes: a reply that never
 * ends (headers, then a byte now and then) neither keeps the execution running after Stop nor
 * runs past the Timeout of Settings → Request Options.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { RETRY_ON_FAIL } from '../scenarios/contacts.mts';

const service = useStandIn();

/** When the service saw the request's connection close, waiting up to a second for it. */
async function closedAt(index = 0): Promise<number | undefined> {
	for (let waited = 0; waited < 1000; waited += 50) {
		const closed = service().requests[index]?.closedAt;
		if (closed !== undefined) return closed;
		await sleep(50);
	}
	return undefined;
}

const NEVER_ENDING = { kind: 'trickle', everyMs: 200 } as const;
const createClient = { resource: 'client', operation: 'create', customKey: 'crm-1042' };

describe('a reply that never ends', () => {
	it.each([
		['with a Timeout of 60 s', { timeout: 60_000 }],
		['with no Timeout set', {}],
	])(
		'ends when the execution is stopped, and the run is canceled (%s)',
		async (_, requestOptions) => {
			service().injectFault(NEVER_ENDING);
			const started = Date.now();
			const { run } = await runStep(
				service(),
				{ ...createClient, requestOptions },
				{ cancelWhen: sleep(1000) },
			);
			const ended = Date.now() - started;

			expect(run.status).toBe('canceled');
			expect(ended).toBeLessThan(3000);
			expect((await closedAt())! - started).toBeLessThan(3000);
		},
	);

	it('ends after Settings → Request Options → Timeout in all, with the "may exist" hint for a create', async () => {
		service().injectFault(NEVER_ENDING);
		const started = Date.now();
		const { error } = await runStep(service(), {
			...createClient,
			requestOptions: { timeout: 1500 },
		});
		const ended = Date.now() - started;

		expect(ended).toBeGreaterThanOrEqual(1500);
		expect(ended).toBeLessThan(3500);
		expect(error?.message).toBe('The service did not answer in time (timeout of 1500ms exceeded)');
		expect(error?.description).toBe(
			'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with Custom Key "crm-1042" before you run this item again.',
		);
		expect((await closedAt())! - started).toBeLessThan(3500);
	});

	it('a read that ran out of time says so, and is sent again under Retry On Fail', async () => {
		service().injectFault(NEVER_ENDING, { times: 1 });
		service().injectFault(NEVER_ENDING, { times: 1 });
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
