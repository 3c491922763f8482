/**
 * The once workflow (test/e2e/workflows/contact-once.json) in queue mode: main takes each contact twice while two workers
 * run the executions. The example records each delivery in a data table in n8n's database, which
 * main and the workers share, so a second delivery is skipped whichever worker runs it.
 *
 * Half the contacts come again once the first run has written the keys back, half as soon as
 * the webhook has answered the first delivery (the first run still going). Then some contacts are
 * each posted several times at the same instant, a measurement: on PostgreSQL a row's number is
 * handed out before the row is saved, so two rows written together might both find no earlier one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
	endedRuns,
	postToWebhook,
	webhookPath,
	type ExampleWorkflow,
	type RestSession,
} from '../e2e/n8n-instance.mts';
import { crmContact, keysWrittenBack, leftAtService } from '../e2e/once-example.mts';
import type { Recorder } from '../service/recorder.mts';
import type { StandIn } from '../service/stand-in.mts';
import { executionDetail, workerExecutions, type RunningWorker } from './n8n-queue.mts';

const GIVE_UP_MS = 120_000;
const SAME_INSTANT = { contacts: 5, deliveries: 10 };

export interface OnceContact {
	crmId: string;
	/** When the second delivery was posted. */
	again: 'after the first run' | 'during the first run';
	clients: number;
	contracts: number;
	writeBacks: number;
	/** The workers that ran its two executions, in n8n's execution order. */
	workers: string[];
}

export interface OnceOutcome {
	contacts: OnceContact[];
	/** Clients per contact, for contacts posted `deliveries` times at the same instant. */
	sameInstant: { deliveries: number; clientsPerContact: number[] };
	/** Executions of the once example, and how they ended. */
	statuses: Record<string, number>;
}

async function untilTrue(what: string, condition: () => boolean) {
	const giveUpAt = Date.now() + GIVE_UP_MS;
	while (!condition()) {
		if (Date.now() > giveUpAt) throw new Error(`gave up waiting: ${what}`);
		await sleep(100);
	}
}

async function deliverTwice(
	url: string,
	crm: Recorder,
	crmId: string,
	again: OnceContact['again'],
): Promise<void> {
	for (let delivery = 1; delivery <= 2; delivery++) {
		const response = await postToWebhook(url, crmContact(crmId));
		if (response.status !== 200) {
			throw new Error(`delivery ${delivery} of ${crmId}: HTTP ${response.status}`);
		}
		if (delivery === 1 && again === 'after the first run') {
			await untilTrue(
				`the keys of ${crmId} written back`,
				() => keysWrittenBack(crm, crmId).length > 0,
			);
		}
	}
}

/**
 * Posts `count` contacts twice each, all contacts at once, and in the first round some contacts
 * at the same instant; answers once every run of the round has ended. A later round posts
 * contacts of its own, its runs counted after the `runsBefore` of the earlier rounds.
 */
export async function deliverEachTwice(
	setting: {
		mainUrl: string;
		rest: RestSession;
		service: StandIn;
		crm: Recorder;
		example: ExampleWorkflow;
		workers: RunningWorker[];
	},
	count: number,
	round = 1,
	runsBefore = 0,
): Promise<OnceOutcome> {
	const { mainUrl, rest, service, crm, example, workers } = setting;
	const url = `${mainUrl}/webhook/${webhookPath(example)}`;
	const planned = Array.from({ length: count }, (_, index) => ({
		crmId: `once-${round > 1 ? `r${round}-` : ''}${String(index + 1).padStart(2, '0')}`,
		again: index % 2 === 0 ? ('after the first run' as const) : ('during the first run' as const),
	}));
	await Promise.all(planned.map(({ crmId, again }) => deliverTwice(url, crm, crmId, again)));
	const sameInstantIds = Array.from(
		{ length: round === 1 ? SAME_INSTANT.contacts : 0 },
		(_, index) => `once-at-once-${index + 1}`,
	);
	for (const crmId of sameInstantIds) {
		const answers = await Promise.all(
			Array.from({ length: SAME_INSTANT.deliveries }, () => postToWebhook(url, crmContact(crmId))),
		);
		const refused = answers.filter((answer) => answer.status !== 200).length;
		if (refused) throw new Error(`${refused} deliveries of ${crmId} not answered with HTTP 200`);
	}
	const expectedRuns = runsBefore + 2 * count + sameInstantIds.length * SAME_INSTANT.deliveries;

	const runs = await endedRuns(rest, example.id, expectedRuns, GIVE_UP_MS);

	const ranBy = workers.map((worker) => ({
		name: worker.name,
		started: workerExecutions(worker.entries).started,
	}));
	const details = await Promise.all(runs.map((run) => executionDetail(rest, run.id)));
	details.sort((a, b) => Number(a.id) - Number(b.id));
	const statuses: Record<string, number> = {};
	for (const detail of details) statuses[detail.status] = (statuses[detail.status] ?? 0) + 1;

	const contacts = planned.map(({ crmId, again }) => {
		const { clients, contracts } = leftAtService(service, crmId);
		return {
			crmId,
			again,
			clients: clients.length,
			contracts: contracts.length,
			writeBacks: keysWrittenBack(crm, crmId).length,
			workers: details
				.filter((detail) => detail.crmId === crmId)
				.map((detail) => ranBy.find((worker) => worker.started.has(detail.id))?.name ?? '?'),
		};
	});
	const sameInstant = {
		deliveries: SAME_INSTANT.deliveries,
		clientsPerContact: sameInstantIds.map((crmId) => leftAtService(service, crmId).clients.length),
	};
	return { contacts, statuses, sameInstant };
}
