/**
 * Runs that pace themselves: hundreds of contacts through Client → Create, no Batching, no
 * Retry On Fail, against a service that allows R requests per second (429 + Retry-After beyond
 * it, nothing done for a refused request). Every contact is created exactly once, the run
 * succeeds within 1.5 × N / R, and the share of refused requests is printed. The same holds for
 * many one-contact executions at once, as a CRM's bulk change starts them: they share one pace.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from './helpers.mts';
import { CREATE_CLIENT, rateLimited } from './scenarios/contacts.mts';
import type { StandIn } from './service/stand-in.mts';

const service = useStandIn();

function contacts(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		name: `Contact ${index + 1}`,
		email: `contact${index + 1}@example.com`,
		crmId: `crm-${index + 1}`,
	}));
}

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

function report(name: string, count: number, perSecond: number, startedAt: number) {
	const seconds = (Date.now() - startedAt) / 1000;
	const { requests } = service();
	const refused = requests.filter((request) => request.limited).length;
	process.stdout.write(
		`pacing ${name}: ${count} contacts at ${perSecond}/s: ${seconds.toFixed(1)} s ` +
			`(limit ${((1.5 * count) / perSecond).toFixed(1)} s), ${requests.length} requests, ` +
			`${refused} refused (${((100 * refused) / requests.length).toFixed(1)} %)\n`,
	);
	return { seconds, refusedShare: refused / requests.length };
}

describe('a service that limits its rate', () => {
	it('400 contacts at 40 per second: each created once, within 1.5 × N / R', async () => {
		service().settings.rateLimit = { perSecond: 40 };
		const startedAt = Date.now();
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts(400) });
		const { seconds } = report('steady', 400, 40, startedAt);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(400);
		expect(createdOnce(service(), 400)).toEqual({ created: 400, twice: 0, missing: 0 });
		expect(seconds).toBeLessThan((1.5 * 400) / 40);
	}, 60_000);

	it('with Max Requests per Second set to the service’s limit, almost nothing is refused', async () => {
		service().settings.rateLimit = { perSecond: 40 };
		const startedAt = Date.now();
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxPerSecond: 38 } },
			{ items: contacts(400) },
		);
		const { seconds, refusedShare } = report('Max Requests per Second 38', 400, 40, startedAt);

		expect(run.error).toBeUndefined();
		expect(createdOnce(service(), 400)).toEqual({ created: 400, twice: 0, missing: 0 });
		expect(seconds).toBeLessThan((1.5 * 400) / 40);
		expect(refusedShare).toBeLessThan(0.02);
	}, 60_000);

	it('a limit halved mid-run: each contact still created once', async () => {
		service().settings.rateLimit = { perSecond: 40 };
		const halved = sleep(5000).then(() => {
			service().settings.rateLimit = { perSecond: 20 };
		});
		const startedAt = Date.now();
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts(400) });
		await halved;
		report('halved after 5 s', 400, 40, startedAt);

		expect(run.error).toBeUndefined();
		expect(createdOnce(service(), 400)).toEqual({ created: 400, twice: 0, missing: 0 });
	}, 60_000);
});

/** One execution per contact, all started at the same moment, as a CRM's webhooks start them. */
async function oneExecutionEach(items: IDataObject[], parameters: IDataObject = CREATE_CLIENT) {
	return await Promise.all(
		items.map(async (item) => await runStep(service(), parameters, { items: [item] })),
	);
}

/**
 * Starts an execution whose one request the service refuses with a `Retry-After` of `seconds`,
 * and waits until its node has read the refusal: from then on the account is held.
 */
async function firstRefusedFor(seconds: number) {
	service().injectFault(rateLimited(seconds), { times: 1 });
	const first = runStep(service(), CREATE_CLIENT, { items: contacts(1) });
	while (!service().requests[0]?.repliedAt) await sleep(5);
	// The node reads the refusal a moment after the service sent it.
	await sleep(200);
	return { first, heldFrom: service().requests[0].repliedAt! };
}

describe('many one-contact executions at once share one pace per account', () => {
	it('100 executions at once, 20 per second allowed: each contact once, none failed, then a second storm', async () => {
		service().settings.rateLimit = { perSecond: 20 };
		const startedAt = Date.now();
		const runs = await oneExecutionEach(contacts(100));
		const first = report('100 one-contact executions at once', 100, 20, startedAt);

		expect(runs.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
		expect(createdOnce(service(), 100)).toEqual({ created: 100, twice: 0, missing: 0 });
		expect(first.seconds).toBeLessThan((1.5 * 100) / 20);

		const secondFrom = service().requests.length;
		const again = await oneExecutionEach(contacts(200).slice(100));
		const refusedAgain = service()
			.requests.slice(secondFrom)
			.filter((request) => request.limited).length;
		process.stdout.write(
			`pacing second storm: ${refusedAgain} of ${service().requests.length - secondFrom} requests refused\n`,
		);
		expect(again.map((run) => run.error?.message).filter(Boolean)).toEqual([]);
		expect(createdOnce(service(), 200)).toEqual({ created: 200, twice: 0, missing: 0 });
		// The second storm starts at the pace the first one learned: its first burst is not refused.
		expect(refusedAgain).toBeLessThan(10);
	}, 60_000);

	it('a Retry-After that one execution is given holds back the requests of another', async () => {
		const { first, heldFrom } = await firstRefusedFor(1);
		const [other] = contacts(2).slice(1);
		const second = await runStep(service(), CREATE_CLIENT, { items: [other] });
		await first;

		expect(second.error).toBeUndefined();
		const otherRequest = service().requests.find((request) =>
			request.rawBody.includes(other.crmId as string),
		)!;
		expect(otherRequest.receivedAt - heldFrom).toBeGreaterThanOrEqual(950);
		expect(createdOnce(service(), 2)).toEqual({ created: 2, twice: 0, missing: 0 });
	});

	it('Settings → Request Options → Timeout, when set, ends an item’s wait for its turn: it fails then, and nothing is sent for it', async () => {
		const { first } = await firstRefusedFor(3);
		const [other] = contacts(2).slice(1);
		const startedAt = Date.now();
		const waiting = await runStep(
			service(),
			{ ...CREATE_CLIENT, requestOptions: { timeout: 500 } },
			{ items: [other] },
		);
		const endedAfterMs = Date.now() - startedAt;
		await first;

		// Past its Timeout the item's every turn would fail at once: no waits between them.
		expect(endedAfterMs).toBeLessThan(1500);

		expect(waiting.error?.message).toBe(
			'The item had no turn at the service within the node’s Timeout (0.5 s)',
		);
		expect(waiting.error?.description).toMatch(/Nothing was sent to the service/);
		expect(waiting.error?.description).toMatch(
			/enter more than 500, such as 1000 \(it counts milliseconds\)/,
		);
		expect(
			service().requests.some((request) => request.rawBody.includes(String(other.crmId))),
		).toBe(false);
	});

	it('a one-contact execution that arrives during a bulk run of 300 is served within seconds, not after it', async () => {
		service().settings.rateLimit = { perSecond: 30 };
		const bulk = runStep(service(), CREATE_CLIENT, { items: contacts(300) });
		await sleep(2000);
		const arrivedAt = Date.now();
		const single = await runStep(service(), CREATE_CLIENT, {
			items: [{ name: 'Single', email: 'single@example.com', crmId: 'single' }],
		});
		const servedAfter = (Date.now() - arrivedAt) / 1000;
		const bulkRun = await bulk;
		const bulkSeconds = (Date.now() - arrivedAt) / 1000;
		process.stdout.write(
			`pacing during a bulk run: the single contact took ${servedAfter.toFixed(1)} s, the bulk run ${bulkSeconds.toFixed(1)} s more\n`,
		);

		expect(single.error).toBeUndefined();
		expect(bulkRun.error).toBeUndefined();
		expect(servedAfter).toBeLessThan(2);
		expect(bulkSeconds).toBeGreaterThan(4);
	}, 60_000);
});
