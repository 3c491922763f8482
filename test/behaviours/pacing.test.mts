/**
 * Runs that pace themselves, in n8n's engine: contacts through Client → Create, no Batching, no
 * Retry On Fail, against a service that allows R requests per second (429 + Retry-After beyond
 * it, nothing done for a request turned away): the request limits a user sets, a Retry-After one
 * execution is given holding back another, and a one-contact execution taking its turn during a
 * bulk run. The runs of hundreds of contacts into a rate limit (every contact once, the limit
 * lowered mid-run, 100 executions at once and a second storm) are proven in real n8n 2.41.1 and
 * 1.123.81: test/e2e/pacing.e2e.mts, test/e2e/storm.e2e.mts. How long they take is measured by
 * `npm run bench:waits` and `npm run bench` (BENCHMARKS.md), not here.
 */
import { describe, expect, it, vi } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { contacts, CREATE_CLIENT, rateLimited } from '../scenarios/contacts.mts';
import type { StandIn } from '../service/stand-in.mts';

const service = useStandIn();

/** Clients per CRM id that were created more than once, and how many were created in all. */
function createdOnce(standIn: StandIn, count: number) {
	const perContact = new Map<string, number>();
	for (const client of standIn.clients()) {
		perContact.set(client.customKey!, (perContact.get(client.customKey!) ?? 0) + 1);
	}
	return {
		created: perContact.size,
		twice: [...perContact].filter(([, times]) => times > 1).length,
		missing: count - perContact.size,
	};
}

/** The share of the requests the service turned away as too many. */
function turnedAwayShare(): number {
	const { requests } = service();
	return requests.filter((request) => request.limited).length / requests.length;
}

describe('a service that limits its rate', () => {
	it('with Max Requests per Second set to the service’s limit, almost no reply is busy', async () => {
		service().settings.rateLimit = { perSecond: 40 };
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxPerSecond: 38 } },
			{ items: contacts(200) },
		);

		expect(run.error).toBeUndefined();
		expect(createdOnce(service(), 200)).toEqual({ created: 200, twice: 0, missing: 0 });
		expect(turnedAwayShare()).toBeLessThan(0.02);
	}, 60_000);
});

describe('Options → Max Requests at Once', () => {
	it('a run starts with that many at once to an account that has not said it is busy, not with 10', async () => {
		service().settings.latencyMs = 300;
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxAtOnce: 40 } },
			{ items: contacts(60) },
		);
		expect(run.error).toBeUndefined();
		const { requests } = service();
		const firstReply = Math.min(...requests.map((request) => request.repliedAt ?? Infinity));
		expect(requests.filter((request) => request.receivedAt < firstReply)).toHaveLength(40);
		expect(service().mostUnderWay()).toBe(40);
		expect(createdOnce(service(), 60)).toEqual({ created: 60, twice: 0, missing: 0 });
	});
});

/** The first request the service received for this contact. */
function otherRequestOf(contact: { crmId?: unknown }) {
	return service().requests.find((request) => request.rawBody.includes(String(contact.crmId)))!;
}

describe('the executions of one account share its pace', () => {
	it('a Retry-After that an item waits out holds back the account’s next request', async () => {
		// One at a time, so that the second contact is sent only once the first one's busy reply has
		// been read. 3 s: longer than the 2 s the account's pace keeps between requests after a busy
		// reply (its slowest rate, pace.ts), so only the hold keeps the second request back that long.
		service().injectFault(rateLimited(3), { times: 1 });
		const [first, second] = contacts(2);
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxAtOnce: 1 } },
			{ items: [first, second] },
		);

		expect(run.error).toBeUndefined();
		const heldFrom = otherRequestOf(first).repliedAt!;
		expect(otherRequestOf(second).receivedAt - heldFrom).toBeGreaterThanOrEqual(2950);
		expect(createdOnce(service(), 2)).toEqual({ created: 2, twice: 0, missing: 0 });
	});

	it('a Retry-After beyond the wait limits fails its item and holds back nothing: an hour would hold every execution', async () => {
		service().injectFault(rateLimited(3600), { times: 1 });
		const first = await runStep(service(), CREATE_CLIENT, {
			items: contacts(1),
			onError: 'continueRegularOutput',
		});
		expect(first.items).toEqual([{ error: expect.objectContaining({}) }]);
		const repliedAt = service().requests[0].repliedAt!;
		const [other] = contacts(2).slice(1);
		const second = await runStep(service(), CREATE_CLIENT, { items: [other] });

		expect(second.error).toBeUndefined();
		// At the pace's spacing after a busy reply, not an hour later.
		expect(otherRequestOf(other).receivedAt - repliedAt).toBeLessThan(2950);
		expect(createdOnce(service(), 2)).toEqual({ created: 1, twice: 0, missing: 1 });
	});

	it('a one-contact execution that arrives during a bulk run of 300 is served among the bulk run’s contacts, not after them', async () => {
		service().settings.rateLimit = { perSecond: 30 };
		let endBulk = () => {};
		const bulk = runStep(service(), CREATE_CLIENT, {
			items: contacts(300),
			cancelWhen: new Promise<void>((resolve) => (endBulk = resolve)),
		});
		await vi.waitFor(() => expect(service().counts().clients).toBeGreaterThanOrEqual(60), {
			timeout: 20_000,
		});
		const single = await runStep(service(), CREATE_CLIENT, {
			items: [{ name: 'Single', email: 'single@example.com', crmId: 'single' }],
		});
		const bulkLeft = 300 - (service().counts().clients - 1);
		// The bulk run has proven its point once the single contact is in: it is stopped there.
		endBulk();
		await bulk;

		expect(single.error).toBeUndefined();
		// More than 120 of the bulk run's contacts (4 s at 30/s) were still to send.
		expect(bulkLeft).toBeGreaterThan(120);
	}, 60_000);
});
