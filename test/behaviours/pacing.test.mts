/**
 * The node keeps no pace of its own: to space its requests out, for a service that limits its
 * rate, n8n's Settings → Request Options → Batching sends a batch of items, then waits before the
 * next. The node's send takes each item as n8n's routing hands it over, so the batches reach the
 * service as n8n makes them: asserted by the order in which the service received the requests and
 * sent its replies.
 */
import { expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { batching, contacts, CREATE_CLIENT } from '../scenarios/contacts.mts';

const service = useStandIn();

it('with Batching, each batch reaches the service only after the one before was answered, every contact once', async () => {
	// Replies that take a sixth of the pause between batches: a batch is answered before the next.
	service().settings.latencyMs = 100;
	const run = await runStep(
		service(),
		{ ...CREATE_CLIENT, ...batching(2, 600) },
		{ items: contacts(6) },
	);

	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.customKey)).toEqual([
		'crm-1',
		'crm-2',
		'crm-3',
		'crm-4',
		'crm-5',
		'crm-6',
	]);
	const requestOf = (crmId: string) =>
		service().requests.find((request) => request.rawBody.includes(`"customKey":"${crmId}"`))!;
	const batches = [
		['crm-1', 'crm-2'],
		['crm-3', 'crm-4'],
		['crm-5', 'crm-6'],
	].map((batch) => batch.map(requestOf));
	for (let index = 1; index < batches.length; index++) {
		const answered = Math.max(...batches[index - 1].map((request) => request.repliedAt!));
		const next = Math.min(...batches[index].map((request) => request.receivedAt));
		expect(next, `batch ${index + 1}`).toBeGreaterThanOrEqual(answered);
	}
	expect(service().requests).toHaveLength(6);
	expect(service().clients()).toHaveLength(6);
});
