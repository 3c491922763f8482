/**
 * The contract engine with its Webhook intake (examples/contract-engine.json,
 * examples/intake-webhook.json) in queue mode: main takes the CRM's posts, two workers run them
 * (the engine's runs in the worker of the intake run that called it), the table Won deals lives in
 * n8n's database, which they share. Three cases:
 *
 * - each deal posted several times at the same instant: one client, one contract, one row and
 *   the keys sent once per deal, whichever worker ran which delivery;
 * - the won deals of several customers, three each, all posted at the same instant: one client per
 *   customer, one contract per deal, once the sweeps finished the deals that waited for the client;
 * - the worker that runs a deal killed (SIGKILL) while its Create Client is under way at the
 *   service: the row stays `making client`; once it has stayed so longer than the sweep waits
 *   (aged here in the database), Every 10 Minutes marks it `check` and its run fails naming the
 *   deal; the person's fix as the README gives it finishes the deal with one client and one
 *   contract.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ENGINE_TABLE, STOPPED_AFTER_MINUTES } from '../../scripts/deal-examples.mts';
import { webhookBody, type DealEvent } from '../e2e/crm-deals.mts';
import {
	ageDealRow,
	importWonDealExample,
	tableRows,
	updateTableRows,
} from '../e2e/data-tables.mts';
import {
	CRM_SECRET_HEADER,
	endedRuns,
	importWorkflows,
	postToWebhook,
	publishInN8n,
	onTheTestsClock,
	readExample,
	restJson,
	runError,
	runFromTrigger,
	sendKeysTo,
	webhookPath,
	type ExecutionSummary,
	type N8nHome,
	type RestSession,
} from '../e2e/n8n-instance.mts';
import type { Recorder } from '../service/recorder.mts';
import type { SmtpStandIn } from '../service/smtp.mts';
import type { StandIn } from '../service/stand-in.mts';
import { workerExecutions, type Database, type RunningWorker } from './n8n-queue.mts';
import { POSTGRES_DATABASE, POSTGRES_USER } from './services.mts';

const GIVE_UP_MS = 120_000;
const SAME_INSTANT = { deals: 4, deliveries: 5 };
/** Customers whose won deals all come at the same instant, and the deals of each. */
const CUSTOMERS_AT_ONCE = { customers: 20, deals: 3 };
const MAX_SWEEPS = 5;
const ENGINE = readExample('contract-engine.json');
const INTAKE = readExample('intake-webhook.json');

export interface DealAtService {
	dealId: string;
	clients: number;
	contracts: number;
	rows: number;
	status: string;
	keysSent: number;
	/** The workers that ran its deliveries. */
	workers: string[];
}

export interface DealsOutcome {
	sameInstant: DealAtService[];
	/** The deals of CUSTOMERS_AT_ONCE, once the sweeps after them left none open. */
	customersAtOnce: { deals: DealAtService[]; failedRuns: number; sweeps: number };
	killed: {
		worker: string;
		/** The row's status after the kill, then after the sweep. */
		statuses: [string, string];
		/** The e-mail Tell a Person sent of it. */
		told: string;
		after: DealAtService;
	};
}

const event = (deal: string, customer: string): DealEvent => ({
	dealId: `queue-${deal}`,
	name: `Queue deal ${deal}`,
	won: true,
	customerId: `queue-customer-${customer}`,
	fullname: `Person ${customer}`,
	email: `person-${customer}@example.com`,
	company: `Company ${customer}`,
});

async function until(what: string, holds: () => boolean | Promise<boolean>) {
	const giveUpAt = Date.now() + GIVE_UP_MS;
	while (!(await holds())) {
		if (Date.now() > giveUpAt) throw new Error(`gave up waiting until ${what}`);
		await sleep(100);
	}
}

/** Runs of either workflow that did not succeed since `since`, once no run of n8n is going. */
async function failedRunsOnceQuiet(rest: RestSession, since: Date): Promise<ExecutionSummary[]> {
	const runs = async (filter: object) =>
		(
			await restJson<{ results: ExecutionSummary[] }>(
				rest,
				`/rest/executions?limit=100&filter=${encodeURIComponent(JSON.stringify(filter))}`,
			)
		).results;
	// The intake's run ends before the engine's run it started (Finish Later): quiet twice in a row.
	const giveUpAt = Date.now() + GIVE_UP_MS;
	for (let quiet = 0; quiet < 2; ) {
		const going = await runs({ status: ['new', 'running', 'waiting'] });
		if (Date.now() > giveUpAt) throw new Error(`runs still going: ${JSON.stringify(going)}`);
		quiet = going.length === 0 ? quiet + 1 : 0;
		await sleep(250);
	}
	return await runs({
		status: ['error', 'crashed', 'canceled'],
		startedAfter: since.toISOString(),
	});
}

/** Runs both cases; the killed worker is one of `workers`, whichever runs the deal. */
export async function dealsInQueueMode(setting: {
	mainUrl: string;
	mainHome: N8nHome;
	rest: RestSession;
	database: Database;
	service: StandIn;
	crm: Recorder;
	smtp: SmtpStandIn;
	workers: RunningWorker[];
}): Promise<DealsOutcome> {
	const { mainUrl, mainHome, rest, database, service, crm, smtp, workers } = setting;
	// The engine with its tables as a user gets them: made by its first run on n8n 2.x, made first
	// and picked on 1.x.
	const setUp = { home: mainHome, rest, recorder: crm };
	const { tableId } = await importWonDealExample(setUp, ENGINE, ENGINE_TABLE);
	await importWorkflows(mainHome, [sendKeysTo(onTheTestsClock(structuredClone(INTAKE)), crm.url)]);
	const sweep = async () => await runFromTrigger(rest, ENGINE.id, 'Every 10 Minutes', GIVE_UP_MS);
	await publishInN8n(rest, ENGINE.id);
	await publishInN8n(rest, INTAKE.id);
	const url = `${mainUrl}/webhook/${webhookPath(INTAKE)}`;
	const post = async (deal: DealEvent) => {
		const answer = await postToWebhook(url, webhookBody(deal), {
			headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value },
		});
		if (answer.status !== 200) throw new Error(`${deal.dealId}: HTTP ${answer.status}`);
	};
	const atService = async (deal: DealEvent, runIds: string[] = []): Promise<DealAtService> => {
		const clients = service.clients().filter((client) => client.customKey === deal.customerId);
		const rows = await tableRows(rest, tableId, { dealId: deal.dealId });
		return {
			dealId: deal.dealId,
			clients: clients.length,
			contracts: service.contracts().filter((contract) => contract.name === deal.name).length,
			rows: rows.length,
			status: String(rows[0]?.status ?? ''),
			keysSent: crm.requests.filter(
				(call) =>
					call.status === 200 &&
					(call.body as { dealId?: string } | undefined)?.dealId === deal.dealId,
			).length,
			workers: [
				...new Set(
					runIds.map(
						(id) =>
							workers.find((worker) => workerExecutions(worker.entries).started.has(id))?.name ??
							'?',
					),
				),
			],
		};
	};

	const deals = Array.from({ length: SAME_INSTANT.deals }, (_, index) =>
		event(`at-once-${index + 1}`, `at-once-${index + 1}`),
	);
	const sameInstant: DealAtService[] = [];
	for (const deal of deals) {
		const since = new Date();
		await Promise.all(Array.from({ length: SAME_INSTANT.deliveries }, () => post(deal)));
		const failed = await failedRunsOnceQuiet(rest, since);
		if (failed.length) throw new Error(`${deal.dealId}: ${failed.length} runs did not succeed`);
		const posted = (await endedRuns(rest, INTAKE.id, 0, GIVE_UP_MS))
			.filter((run) => run.mode === 'webhook')
			.slice(0, SAME_INSTANT.deliveries);
		sameInstant.push(
			await atService(
				deal,
				posted.map((run) => run.id),
			),
		);
	}

	const customersDeals = Array.from({ length: CUSTOMERS_AT_ONCE.customers }, (_, customer) =>
		Array.from({ length: CUSTOMERS_AT_ONCE.deals }, (_, index) =>
			event(`customer-${customer + 1}-deal-${index + 1}`, `of-many-${customer + 1}`),
		),
	).flat();
	const since = new Date();
	await Promise.all(customersDeals.map(post));
	const failedRuns = (await failedRunsOnceQuiet(rest, since)).length;
	const open = async () =>
		(await tableRows(rest, tableId)).filter(
			(row) => row.status !== 'done' && customersDeals.some((deal) => deal.dealId === row.dealId),
		).length;
	let sweeps = 0;
	for (; sweeps < MAX_SWEEPS && (await open()) > 0; sweeps++) {
		const swept = await sweep();
		if (swept.status !== 'success') throw new Error(`a sweep after the deals: ${runError(swept)}`);
	}
	const customersAtOnce = {
		deals: await Promise.all(customersDeals.map((deal) => atService(deal))),
		failedRuns,
		sweeps,
	};

	// Create Client held at the service long enough to kill the worker that sent it.
	const deal = event('killed', 'killed');
	service.injectFault({ kind: 'delay', ms: 5000 }, { path: '/v1/client' });
	const arrived = service.requests.length;
	const started = new Map(
		workers.map((worker) => [worker, workerExecutions(worker.entries).started.size]),
	);
	await post(deal);
	await until('the service received Create Client', () =>
		service.requests.slice(arrived).some((request) => request.path === '/v1/client'),
	);
	const victim = workers.find(
		(worker) => workerExecutions(worker.entries).started.size > (started.get(worker) ?? 0),
	);
	if (!victim) throw new Error('no worker started the deal');
	process.kill(victim.pid, 'SIGKILL');
	await victim.exited;
	await until('the service made the client', () =>
		service.clients().some((client) => client.customKey === deal.customerId),
	);
	const rowStatus = async () =>
		String((await tableRows(rest, tableId, { dealId: deal.dealId }))[0]?.status ?? '');
	const afterKill = await rowStatus();
	ageDealRow(
		mainHome,
		{ id: tableId, dealId: deal.dealId },
		STOPPED_AFTER_MINUTES + 1,
		database.kind === 'postgres'
			? { port: database.port, user: POSTGRES_USER, database: POSTGRES_DATABASE }
			: undefined,
	);
	const toldRun = await sweep();
	if (toldRun.status !== 'success') throw new Error(`the sweep that tells: ${runError(toldRun)}`);
	const told = await smtp.waitForMail(
		(mail) => mail.text.includes(`Deal ${deal.dealId}:`),
		GIVE_UP_MS,
	);
	const afterSweep = await rowStatus();
	const client = service.clients().find((record) => record.customKey === deal.customerId)!;
	await updateTableRows(
		rest,
		tableId,
		{ dealId: deal.dealId },
		{ clientKey: client.clientKey, status: 'retry' },
	);
	const fixed = await sweep();
	if (fixed.status !== 'success') throw new Error(`the sweep after the fix: ${runError(fixed)}`);
	return {
		sameInstant,
		customersAtOnce,
		killed: {
			worker: victim.name,
			statuses: [afterKill, afterSweep],
			told: told.text,
			after: await atService(deal),
		},
	};
}
