/**
 * Bulk runs that pace themselves: hundreds of contacts through Client → Create, no Batching, no
 * Retry On Fail, against a service that allows R requests per second (429 + Retry-After beyond
 * it, nothing done for a refused request). Every contact is created exactly once, the run
 * succeeds within 1.5 × N / R, and the share of refused requests is printed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from './helpers.mts';
import { CREATE_CLIENT } from './scenarios/contacts.mts';
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

	it('with Request Rate set to the service’s limit, almost nothing is refused', async () => {
		service().settings.rateLimit = { perSecond: 40 };
		const startedAt = Date.now();
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, requestRate: { maxPerSecond: 38 } },
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
