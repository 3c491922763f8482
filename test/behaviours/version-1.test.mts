/**
 * A workflow saved with version 1 of the node keeps its limits: version 1 has them in Retry When
 * Busy and Request Rate, later versions in Options, and each version reads its own.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { CONTACTS, CREATE_CLIENT, rateLimited } from '../scenarios/contacts.mts';

const service = useStandIn();

const contacts = CONTACTS as unknown as IDataObject[];

const VERSIONS = [
	{
		panel: 'version 1, with Retry When Busy and Request Rate',
		typeVersion: 1,
		noWaiting: { retryWhenBusy: { maxRetries: 0 } },
		fivePerSecond: { requestRate: { maxPerSecond: 5 } },
		stillBusy: [
			'The node did not wait, as far as Retry When Busy allows.',
			'If you know the service’s limit, set Request Rate → Max Requests per Second to it;',
		],
	},
	{
		panel: 'version 1.1, with Options',
		typeVersion: 1.1,
		noWaiting: { options: { maxRetries: 0 } },
		fivePerSecond: { options: { maxPerSecond: 5 } },
		stillBusy: [
			'The node did not wait, as far as Max Retries When Busy and Max Wait When Busy (Seconds) in Options allow.',
			'If you know the service’s limit, set Options → Max Requests per Second to it;',
		],
	},
];

describe.each(VERSIONS)('$panel', ({ typeVersion, noWaiting, fivePerSecond, stillBusy }) => {
	it('Max Retries 0: a refused item is sent once, not waited for, and the error names where the limits are', async () => {
		service().injectFault(rateLimited(), { times: 10 });
		const started = Date.now();
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, ...noWaiting },
			{ items: contacts.slice(0, 1), settings: { typeVersion } },
		);

		expect(Date.now() - started).toBeLessThan(1000);
		expect(service().requests).toHaveLength(1);
		for (const words of stillBusy) expect(run.error?.description).toContain(words);
	});

	it('Max Requests per Second 5: six contacts are spread over a second', async () => {
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, ...fivePerSecond },
			{ items: contacts.slice(0, 6), settings: { typeVersion } },
		);

		expect(run.error).toBeUndefined();
		const times = service().requests.map((request) => request.receivedAt);
		expect(times).toHaveLength(6);
		expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(900);
	});
});
