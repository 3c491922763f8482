/**
 * The contract engine with its Webhook intake (examples/contract-engine.json,
 * examples/intake-webhook.json) when n8n itself stops: n8n killed while the engine's run that
 * finishes a deal has a create under way at the service, then started again, as after a crash or
 * a redeploy. The
 * deal's row still says what was about to be made. Once it has stayed so for longer than the sweep
 * waits (30 minutes, aged here in n8n's database while n8n is down), Every 10 Minutes marks it
 * `check` and e-mails a person (Tell a Person, to a stand-in mail server) naming the deal and what
 * to do; the person's fix, as the README tells it (the record's key in the row, status `retry`),
 * then finishes the deal without making anything twice. n8n's Retry of the killed run, clicked
 * after that, makes and sends nothing more and leaves the deal's row done.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpStandIn, type SmtpStandIn } from '../service/smtp.mts';
import { ENGINE_TABLE, STOPPED_AFTER_MINUTES } from '../../scripts/deal-examples.mts';
import { webhookBody, type DealEvent } from './crm-deals.mts';
import {
	addColumn,
	ageDealRow,
	dropColumn,
	importWonDealExample,
	renameColumn,
	tableRows,
	updateTableRows,
} from './data-tables.mts';
import {
	CRM_SECRET_HEADER,
	crmSecretCredential,
	importCredentials,
	importWorkflows,
	onTheTestsClock,
	sendKeysTo,
	smtpCredential,
	ownerSession,
	postToWebhook,
	publishInN8n,
	readExample,
	restJson,
	runError,
	runHasEnded,
	unflatten,
	runFromTrigger,
	startN8n,
	webhookPath,
	type Execution,
	type ExecutionSummary,
	type RestSession,
	type RunningN8n,
} from './n8n-instance.mts';
import { N8N_LINE_UNDER_TEST } from './n8n-runtime.mts';
import { useN8n } from './suite.mts';

const GIVE_UP_MS = 60_000;
const ENGINE = readExample('contract-engine.json');
const INTAKE = readExample('intake-webhook.json');

/** The mail server the sweep tells a person through (Tell a Person). */
let smtp: SmtpStandIn;
beforeAll(async () => {
	smtp = await startSmtpStandIn();
});
afterAll(async () => {
	await smtp?.close();
});

const suite = useN8n('deal stops', {
	recorder: true,
	start: true,
	prepare: async ({ home }) =>
		await importCredentials(home, [crmSecretCredential(), smtpCredential(smtp)]),
	started,
});
let tableId = '';
/** n8n as it runs now: the suite's, until a case kills it and starts it again. */
let n8n: RunningN8n;
let rest: RestSession;

async function started() {
	n8n = suite.n8n;
	rest = suite.rest;
	({ tableId } = await importWonDealExample(suite, ENGINE, ENGINE_TABLE));
	await importWorkflows(suite.home, [
		sendKeysTo(onTheTestsClock(structuredClone(INTAKE)), suite.recorder.url),
	]);
	await publishInN8n(suite.rest, ENGINE.id);
	await publishInN8n(suite.rest, INTAKE.id);
}

afterAll(async () => {
	if (n8n !== suite.n8n) await n8n.stop();
});

const event = (deal: number, customer: number): DealEvent => ({
	dealId: `stop-deal-${deal}`,
	name: `Deal ${deal} of customer ${customer}`,
	won: true,
	customerId: `stop-customer-${customer}`,
	fullname: `Person ${customer}`,
	email: `person-${customer}@example.com`,
	company: `Company ${customer}`,
});

const rowOf = async (deal: DealEvent) => await tableRows(rest, tableId, { dealId: deal.dealId });

const clientsOf = (deal: DealEvent) =>
	suite.service.clients().filter((client) => client.customKey === deal.customerId);

const contractsOf = (deal: DealEvent) =>
	suite.service.contracts().filter((contract) => contract.name === deal.name);

const keysSent = (deal: DealEvent) =>
	suite.recorder.requests.filter(
		(call) => (call.body as { dealId?: string } | undefined)?.dealId === deal.dealId,
	).length;

async function until(what: string, holds: () => boolean) {
	const giveUpAt = Date.now() + GIVE_UP_MS;
	while (!holds()) {
		if (Date.now() > giveUpAt) throw new Error(`gave up waiting until ${what}`);
		await sleep(50);
	}
}

/** Delivers the deal, its request of `path` held at the service for `ms`; resolves once it arrived. */
async function deliverHeldAt(deal: DealEvent, path: string, ms: number) {
	suite.service.injectFault({ kind: 'delay', ms }, { path });
	const arrived = suite.service.requests.length;
	const answer = await postToWebhook(
		`${n8n.url}/webhook/${webhookPath(INTAKE)}`,
		webhookBody(deal),
		{ headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value } },
	);
	expect(answer.status).toBe(200);
	await until(`the service received ${path}`, () =>
		suite.service.requests.slice(arrived).some((request) => request.path === path),
	);
}

/**
 * Delivers the deal, and kills n8n once the service has the request of `path` and has acted on
 * it, the reply still held back; then moves the deal's row back in time by more than the sweep
 * waits, and starts n8n again.
 */
async function killedDuring(deal: DealEvent, path: string, acted: () => boolean) {
	await deliverHeldAt(deal, path, 4000);
	process.kill(n8n.pid, 'SIGKILL');
	await until('n8n is gone', () => {
		try {
			process.kill(n8n.pid, 0);
			return false;
		} catch {
			return true;
		}
	});
	await until(`the service acted on ${path}`, acted);
	ageDealRow(suite.home, { id: tableId, dealId: deal.dealId }, STOPPED_AFTER_MINUTES + 1);
	n8n = await startN8n(suite.home);
	rest = await ownerSession(n8n.url);
}

async function sweep() {
	return await runFromTrigger(rest, ENGINE.id, 'Every 10 Minutes', GIVE_UP_MS);
}

/** The sweep that finds the stopped run, then the e-mail Tell a Person sent of the deal. */
async function told(deal: DealEvent): Promise<string> {
	const run = await sweep();
	expect(run.status, runError(run)).toBe('success');
	const mail = await smtp.waitForMail(
		(each) => each.text.includes(`Deal ${deal.dealId}:`),
		GIVE_UP_MS,
	);
	return mail.text;
}

/**
 * The person's fix as the README gives it (the record's key in the row, status retry), then the
 * next sweep: the deal done, with one client, one contract and its keys sent once.
 */
async function fixedBy(deal: DealEvent, key: Record<string, string>, message: string) {
	await updateTableRows(rest, tableId, { dealId: deal.dealId }, { ...key, status: 'retry' });
	expect((await sweep()).status).toBe('success');
	const left = [clientsOf(deal).length, contractsOf(deal).length, keysSent(deal)];
	expect(left).toEqual([1, 1, 1]);
	expect(await rowOf(deal)).toMatchObject([
		{ status: 'done', contractKey: contractsOf(deal)[0].contractKey },
	]);
	suite.figures.push(
		`  ${deal.dealId}: told "${message}"; after the fix: clients, contracts, keys sent ${left.join(', ')}`,
	);
}

const listedRuns = async () => {
	// The engine's: the run of the intake has ended once the deal is recorded.
	const filter = encodeURIComponent(JSON.stringify({ workflowId: ENGINE.id }));
	return (
		await restJson<{ results: Array<ExecutionSummary & { retryOf?: string | null }> }>(
			rest,
			`/rest/executions?filter=${filter}&limit=100`,
		)
	).results;
};

/** The newest run of the workflow that ended with this status. */
const newestRun = async (status: string) =>
	(await listedRuns())
		.filter((run) => run.status === status)
		.sort((a, b) => Number(b.id) - Number(a.id))[0];

/**
 * n8n's Retry, as the Executions list offers it ("with original workflow"), of a run that crashed
 * or failed: the retry's status and the steps of its run data (the earlier run's, and its own).
 */
async function retryRun(status: 'crashed' | 'error'): Promise<{ status: string; steps: string[] }> {
	const listed = listedRuns;
	const killed = await newestRun(status);
	expect(killed, `the run that ended ${status}`).toBeDefined();
	await restJson(rest, `/rest/executions/${killed.id}/retry`, {
		method: 'POST',
		body: JSON.stringify({ loadWorkflow: false }),
	});
	const giveUpAt = Date.now() + GIVE_UP_MS;
	for (;;) {
		const retry = (await listed()).find((run) => String(run.retryOf) === String(killed.id));
		if (retry && runHasEnded(retry.status)) {
			const execution = await restJson<Execution>(rest, `/rest/executions/${retry.id}`);
			const run = unflatten(execution.data!) as {
				resultData: { runData: Record<string, unknown> };
			};
			return { status: execution.status, steps: Object.keys(run.resultData.runData) };
		}
		if (Date.now() > giveUpAt) throw new Error(`no retry of run ${killed.id} ended`);
		await sleep(200);
	}
}

/**
 * n8n's Retry clicked on the killed or failed run once the sweep has finished the deal: nothing
 * more made or sent.
 */
async function retriedAfterTheFix(deal: DealEvent, runStatus: 'crashed' | 'error' = 'crashed') {
	const { status, steps } = await retryRun(runStatus);
	const left = [clientsOf(deal).length, contractsOf(deal).length, keysSent(deal)];
	const rows = await rowOf(deal);
	suite.figures.push(
		`  ${deal.dealId}: n8n's Retry of the ${runStatus === 'crashed' ? 'killed' : 'failed'} run, after the fix: ${status}, its run data's steps ${steps.join(' → ')}; clients, contracts, keys sent ${left.join(', ')}; rows ${JSON.stringify(rows.map((row) => [row.id, row.status]))}`,
	);
	expect(left).toEqual([1, 1, 1]);
	expect(rows).toMatchObject([{ status: 'done' }]);
}

it('n8n killed while Create Client is under way: the sweep marks the deal check and tells; the client put in the row, the retry makes only the contract', async () => {
	const deal = event(1, 1);
	await killedDuring(deal, '/v1/client', () => clientsOf(deal).length === 1);
	expect(await rowOf(deal)).toMatchObject([{ status: 'making client' }]);

	const message = await told(deal);
	expect(message).toContain(
		`Deal ${deal.dealId}: the service may have made its client (Custom Key ${deal.customerId})`,
	);
	expect(await rowOf(deal)).toMatchObject([{ status: 'check', told: 'yes' }]);
	expect((await sweep()).status).toBe('success');
	expect(contractsOf(deal)).toHaveLength(0);
	// The client is there, so its key goes in clientKey.
	await fixedBy(deal, { clientKey: clientsOf(deal)[0].clientKey }, message);
	expect(contractsOf(deal)[0].clientKey).toBe(clientsOf(deal)[0].clientKey);
	await retriedAfterTheFix(deal);
});

it('n8n killed while Create Contract is under way: check and told; the contract put in the row, the retry sends only the keys', async () => {
	const deal = event(2, 2);
	await killedDuring(deal, '/v1/contract', () => contractsOf(deal).length === 1);
	expect(await rowOf(deal)).toMatchObject([{ status: 'making contract' }]);

	const message = await told(deal);
	expect(message).toContain(
		`Deal ${deal.dealId}: the service may have made its contract “${deal.name}” for the client ${clientsOf(deal)[0].clientKey}`,
	);
	expect(keysSent(deal)).toBe(0);
	// The contract is there, so its key goes in contractKey: only the keys are sent.
	await fixedBy(deal, { contractKey: contractsOf(deal)[0].contractKey }, message);
	await retriedAfterTheFix(deal);
});

/**
 * Delivers the deal and, while the create of `path` is under way at the service, takes the
 * table's column `column` away (renamed; on n8n 1.x, which cannot rename, deleted), so that the
 * step after the create cannot write the key, as when n8n can no longer write its table; once the
 * run has failed there, the column is back (on 1.x empty: the earlier deals' keys in it are gone,
 * which no later case reads).
 */
async function saveFailsAfter(deal: DealEvent, path: string, column: string) {
	const failedBefore = (await newestRun('error'))?.id;
	await deliverHeldAt(deal, path, 3000);
	if (N8N_LINE_UNDER_TEST === undefined) await renameColumn(rest, tableId, column, `${column}Gone`);
	else await dropColumn(rest, tableId, column);
	try {
		const giveUpAt = Date.now() + GIVE_UP_MS;
		while ((await newestRun('error'))?.id === failedBefore) {
			if (Date.now() > giveUpAt) throw new Error('the run did not fail');
			await sleep(200);
		}
	} finally {
		if (N8N_LINE_UNDER_TEST === undefined) {
			await renameColumn(rest, tableId, `${column}Gone`, column);
		} else await addColumn(rest, tableId, column);
	}
}

it("Save Client failing after the client was made, and n8n's Retry of that run clicked once the sweep and the person's fix finished the deal: nothing made or sent twice", async () => {
	const deal = event(3, 3);
	await saveFailsAfter(deal, '/v1/client', 'clientKey');
	expect(await rowOf(deal)).toMatchObject([{ status: 'making client' }]);
	expect([clientsOf(deal).length, contractsOf(deal).length]).toEqual([1, 0]);
	ageDealRow(suite.home, { id: tableId, dealId: deal.dealId }, STOPPED_AFTER_MINUTES + 1);
	const message = await told(deal);
	expect(await rowOf(deal)).toMatchObject([{ status: 'check' }]);
	await fixedBy(deal, { clientKey: clientsOf(deal)[0].clientKey }, message);
	await retriedAfterTheFix(deal, 'error');
});

it("Save Contract failing after the contract was made, and n8n's Retry of that run clicked once the deal was finished: the keys not sent again", async () => {
	const deal = event(4, 4);
	await saveFailsAfter(deal, '/v1/contract', 'contractKey');
	expect(await rowOf(deal)).toMatchObject([{ status: 'making contract' }]);
	ageDealRow(suite.home, { id: tableId, dealId: deal.dealId }, STOPPED_AFTER_MINUTES + 1);
	const message = await told(deal);
	await fixedBy(deal, { contractKey: contractsOf(deal)[0].contractKey }, message);
	await retriedAfterTheFix(deal, 'error');
});

it("Save Contract failing after the contract was made, and n8n's Retry of that run clicked at once: the retry finishes the deal, once", async () => {
	const deal = event(5, 5);
	await saveFailsAfter(deal, '/v1/contract', 'contractKey');
	expect(await rowOf(deal)).toMatchObject([{ status: 'making contract' }]);
	const { status, steps } = await retryRun('error');
	expect(status).toBe('success');
	expect(steps).toContain('Done');
	const left = [clientsOf(deal).length, contractsOf(deal).length, keysSent(deal)];
	expect(left).toEqual([1, 1, 1]);
	expect(await rowOf(deal)).toMatchObject([
		{ status: 'done', contractKey: contractsOf(deal)[0].contractKey },
	]);
	suite.figures.push(
		`  ${deal.dealId}: n8n's Retry of the failed run at once: ${status}; clients, contracts, keys sent ${left.join(', ')}`,
	);
});
