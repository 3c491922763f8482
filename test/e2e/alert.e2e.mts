/**
 * The alert a person gets (examples/alert-by-email.json), as the README sets it up: imported, its
 * SMTP credential made, and named as the Error Workflow of the contract engine and of its Webhook
 * intake. A deal the engine cannot take from the intake fails a run of each, and each reaches a mail
 * server (a stand-in on 127.0.0.1) as an e-mail naming the workflow, the step and n8n's message;
 * Execute workflow on the alert workflow sends a test alert.
 * The engine's own e-mails, through the same credential: Tell a Person names a deal only a
 * person can finish, and the deal is marked told only once that e-mail went (the mail server
 * refusing it first); Daily Summary, from Every Day, with no deal left to do and with that deal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpStandIn, type SmtpStandIn } from '../service/smtp.mts';
import {
	CUSTOMERS_TABLE,
	ENGINE_TABLE,
	MAX_TRIES,
	SUMMARY_HOUR,
	TEMPLATE_KEY,
	WON_DEALS_TABLE,
} from '../../scripts/deal-examples.mts';
import { webhookBody } from './crm-deals.mts';
import { createDataTable, dataTableId, pickDataTables, tableRows } from './data-tables.mts';
import {
	CRM_SECRET_HEADER,
	crmSecretCredential,
	importCredentials,
	importWorkflows,
	postToWebhook,
	publishInN8n,
	onTheTestsClock,
	readExample,
	runError,
	runFromTrigger,
	smtpCredential,
	restJson,
	sendKeysTo,
	webhookPath,
	type RestSession,
} from './n8n-instance.mts';
import { useN8n } from './suite.mts';

/** n8n 2.41's publication of a workflow: the version its triggers and error runs use. */
const publicationOf = (rest: RestSession, id: string) =>
	restJson<{ liveVersionId?: string | null }>(rest, `/rest/workflows/${id}/publication-status`);

const ALERT = readExample('alert-by-email.json');
const ENGINE = readExample('contract-engine.json');
const INTAKE = readExample('intake-webhook.json');
const WITHIN_MS = 60_000;

let smtp: SmtpStandIn;

beforeAll(async () => {
	smtp = await startSmtpStandIn();
});

afterAll(async () => {
	await smtp?.close();
});

const suite = useN8n('alert', {
	recorder: true,
	start: true,
	prepare: async ({ home }) => {
		await importCredentials(home, [crmSecretCredential(), smtpCredential(smtp)]);
	},
	started: async ({ home, rest, recorder }) => {
		const onOneX = home.runtime.version.startsWith('1.');
		// n8n 1.x: the tables made by hand and picked in each step, as the README says.
		const tables = onOneX
			? {
					[WON_DEALS_TABLE.name]: await createDataTable(rest, ENGINE_TABLE),
					[CUSTOMERS_TABLE.name]: await createDataTable(rest, CUSTOMERS_TABLE),
				}
			: {};
		const [engine, intake] = [ENGINE, INTAKE].map((workflow) => {
			const ready = sendKeysTo(onTheTestsClock(structuredClone(workflow)), recorder.url);
			// … → Settings, Error Workflow: Alert by Email.
			ready.settings = { ...ready.settings, errorWorkflow: ALERT.id };
			return onOneX ? pickDataTables(ready, tables) : ready;
		});
		await importWorkflows(home, [ALERT, engine, intake]);
		for (const { id } of [ENGINE, INTAKE]) await publishInN8n(rest, id);
		// n8n 2.x runs an error workflow's published version only, once its publication is done; 1.x
		// takes it as saved.
		if (!onOneX) {
			await publishInN8n(rest, ALERT.id);
			const giveUpAt = Date.now() + WITHIN_MS;
			while (!(await publicationOf(rest, ALERT.id)).liveVersionId) {
				if (Date.now() > giveUpAt) throw new Error('Alert by Email was not published');
				await sleep(200);
			}
		}
	},
});

it("a deal the engine cannot take (no id): the CRM gets an error with the engine's message; the person an e-mail naming the engine, its step No Deal Id and the message, and one naming the intake and its step Engine Failed", async () => {
	const noId = webhookBody({
		dealId: '',
		name: 'A deal without an id, through the intake',
		won: true,
		customerId: 'C-1',
		fullname: 'Ada Lovelace',
		email: 'ada@example.com',
		company: 'Analytical Engines Ltd',
	});
	const answer = await postToWebhook(`${suite.n8n.url}/webhook/${webhookPath(INTAKE)}`, noId, {
		headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value },
	});
	expect(answer.status).toBe(500);
	expect(((await answer.json()) as { message?: string }).message).toContain(
		'The intake gave no dealId',
	);
	const engineMail = await smtp.waitForMail(
		(each) => each.subject.includes(ENGINE.name),
		WITHIN_MS,
	);
	process.stdout.write(`alert: ${engineMail.subject}\n${engineMail.text}\n`);
	expect(engineMail.to).toEqual(['you@example.com']);
	expect(engineMail.subject).toBe(`n8n: ${ENGINE.name} needs you`);
	expect(engineMail.text).toContain(`${ENGINE.name} stopped at its step No Deal Id.`);
	expect(engineMail.text).toContain('The intake gave no dealId');
	expect(engineMail.text).toMatch(/The run in n8n: http:\/\/\S+\/workflow\/\S+\/executions\/\d+/);
	const mail = await smtp.waitForMail((each) => each.subject.includes(INTAKE.name), WITHIN_MS);
	process.stdout.write(`alert: ${mail.subject}\n${mail.text}\n`);
	expect(mail.subject).toBe(`n8n: ${INTAKE.name} needs you`);
	expect(mail.text).toContain(`${INTAKE.name} stopped at its step Engine Failed.`);
	expect(mail.text).toContain('The intake gave no dealId');
});

it('Execute workflow on the alert workflow sends a test alert', async () => {
	const run = await suite.execute(ALERT.id);
	expect(run.status).toBe('success');
	const mail = await smtp.waitForMail(
		(each) => each.subject === 'n8n: Test alert needs you',
		WITHIN_MS,
	);
	expect(mail.text).toContain('This is a test of your alerts');
	expect(mail.text).toContain('Test alert stopped at its step Send a Test Alert.');
});

const sweep = async () =>
	await runFromTrigger(suite.rest, ENGINE.id, 'Every 10 Minutes', WITHIN_MS);

const mailsOf = (dealId: string) =>
	smtp.mails.filter((mail) => mail.text.includes(`Deal ${dealId}:`));

/** The deal's row, once its status is `status`. */
async function rowOnce(dealId: string, status: string) {
	const tableId = await dataTableId(suite.rest, WON_DEALS_TABLE.name);
	const giveUpAt = Date.now() + WITHIN_MS;
	for (;;) {
		const rows = await tableRows(suite.rest, tableId, { dealId });
		if (rows[0]?.status === status) return rows[0];
		if (Date.now() > giveUpAt) throw new Error(`${dealId}: ${JSON.stringify(rows)}`);
		await sleep(200);
	}
}

it('Every Day with no deal left to do: a summary that says so, and that it comes every day', async () => {
	const run = await runFromTrigger(suite.rest, ENGINE.id, 'Every Day', WITHIN_MS);
	expect(run.status, runError(run)).toBe('success');
	const mail = await smtp.waitForMail(
		(each) => each.subject.startsWith('n8n: won deals on'),
		WITHIN_MS,
	);
	expect(mail.to).toEqual(['you@example.com']);
	expect(mail.text).toContain(`Every won deal in the data table ${WON_DEALS_TABLE.name} is done.`);
	expect(mail.text).toContain(`This summary comes every day at ${SUMMARY_HOUR}`);
});

it(`a deal only a person can finish while the mail server refuses: not marked told; once mail goes, one e-mail names it and it is marked told; Every Day lists it`, async () => {
	const deal = {
		dealId: 'alert-1',
		name: 'Alert deal 1',
		won: true,
		customerId: 'alert-customer-1',
		fullname: 'Grace Hopper',
		email: 'grace@example.com',
		company: 'Compilers Inc',
	};
	let templateRefused = true;
	suite.service.injectFault(
		{
			kind: 'status',
			status: 404,
			body: { code: '404', message: `Template not found: ${TEMPLATE_KEY}` },
		},
		{
			times: Number.MAX_SAFE_INTEGER,
			when: (request) => templateRefused && request.path === '/v1/contract',
		},
	);
	try {
		await postToWebhook(`${suite.n8n.url}/webhook/${webhookPath(INTAKE)}`, webhookBody(deal), {
			headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value },
		});
		await rowOnce(deal.dealId, 'retry');
		for (let tried = 1; tried < MAX_TRIES - 1; tried++) {
			const run = await sweep();
			expect(run.status, runError(run)).toBe('success');
		}

		smtp.refusing = true;
		const refused = await sweep();
		smtp.refusing = false;
		expect(refused.status).toBe('error');
		expect(await rowOnce(deal.dealId, 'failed')).toMatchObject({ told: 'no' });
		expect(mailsOf(deal.dealId)).toEqual([]);

		const told = await sweep();
		expect(told.status, runError(told)).toBe('success');
		const mail = await smtp.waitForMail(
			(each) => each.text.includes(`Deal ${deal.dealId}:`),
			WITHIN_MS,
		);
		expect(mail.to).toEqual(['you@example.com']);
		expect(mail.subject).toBe('n8n: 1 won deal(s) need you');
		expect(mail.text).toContain(
			`Deal ${deal.dealId}: refused ${MAX_TRIES} times (Template not found: ${TEMPLATE_KEY}`,
		);
		expect(await rowOnce(deal.dealId, 'failed')).toMatchObject({ told: 'yes' });
		expect((await sweep()).status).toBe('success');
		expect(mailsOf(deal.dealId)).toHaveLength(1);

		const daily = await runFromTrigger(suite.rest, ENGINE.id, 'Every Day', WITHIN_MS);
		expect(daily.status, runError(daily)).toBe('success');
		const summary = await smtp.waitForMail(
			(each) => each.subject.startsWith('n8n: won deals on') && each.text.includes(deal.dealId),
			WITHIN_MS,
		);
		expect(summary.text).toContain(
			`1 won deal(s) in the data table ${WON_DEALS_TABLE.name} are not done: Deal ${deal.dealId}: failed (`,
		);
	} finally {
		templateRefused = false;
		smtp.refusing = false;
	}
});
