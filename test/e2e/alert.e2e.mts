/**
 * The alert a person gets (examples/alert-by-email.json), as the README sets it up: imported, its
 * SMTP credential made, and named as the Webhook deal example's Error Workflow. A failed run of the
 * published deal workflow reaches a mail server (a stand-in on 127.0.0.1) as an e-mail naming the
 * workflow, the step and n8n's message; Execute workflow on the alert workflow sends a test alert.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpStandIn, type SmtpStandIn } from '../service/smtp.mts';
import { CUSTOMERS_TABLE, WON_DEALS_TABLE } from '../../scripts/deal-examples.mts';
import { webhookBody } from './crm-deals.mts';
import { createDataTable, pickDataTables } from './data-tables.mts';
import {
	CRM_SECRET_HEADER,
	crmSecretCredential,
	importCredentials,
	importWorkflows,
	postToWebhook,
	publishInN8n,
	readExample,
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
const WEBHOOK = readExample('deal-won-webhook.json');
const WITHIN_MS = 60_000;

let smtp: SmtpStandIn;

beforeAll(async () => {
	smtp = await startSmtpStandIn();
});

afterAll(async () => {
	await smtp?.close();
});

const smtpCredential = () => {
	const { id, name } = ALERT.nodes.find((node) => node.name === 'Alert by Email')!.credentials!
		.smtp;
	// A mail server without TLS, as a local relay is; the README's user enters their provider's.
	return {
		id,
		name,
		type: 'smtp',
		data: { user: 'n8n', password: 'secret', host: smtp.host, port: smtp.port, secure: false },
	};
};

const suite = useN8n('alert', {
	recorder: true,
	start: true,
	prepare: async ({ home }) => {
		await importCredentials(home, [crmSecretCredential(), smtpCredential()]);
	},
	started: async ({ home, rest, recorder }) => {
		const onOneX = home.runtime.version.startsWith('1.');
		// n8n 1.x: the tables made by hand and picked in each step, as the README says.
		let deals = sendKeysTo(structuredClone(WEBHOOK), recorder.url);
		if (onOneX) {
			deals = pickDataTables(deals, {
				[WON_DEALS_TABLE.name]: await createDataTable(rest, WON_DEALS_TABLE),
				[CUSTOMERS_TABLE.name]: await createDataTable(rest, CUSTOMERS_TABLE),
			});
		}
		// … → Settings, Error Workflow: Alert by Email.
		deals.settings = { ...deals.settings, errorWorkflow: ALERT.id };
		await importWorkflows(home, [ALERT, deals]);
		await publishInN8n(rest, WEBHOOK.id);
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

it('a failed run of the deal workflow reaches the person as an e-mail naming the workflow, the step and the message', async () => {
	const noIds = webhookBody({
		dealId: '',
		name: 'A deal without ids',
		won: true,
		customerId: '',
		fullname: 'Ada Lovelace',
		email: 'ada@example.com',
		company: 'Analytical Engines Ltd',
	});

	await postToWebhook(`${suite.n8n.url}/webhook/${webhookPath(WEBHOOK)}`, noIds, {
		headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value },
	});

	const mail = await smtp.waitForMail((each) => each.subject.includes(WEBHOOK.name), WITHIN_MS);
	process.stdout.write(`alert: ${mail.subject}\n${mail.text}\n`);
	expect(mail.to).toEqual(['you@example.com']);
	expect(mail.subject).toBe(`n8n: ${WEBHOOK.name} needs you`);
	expect(mail.text).toContain(`${WEBHOOK.name} stopped at its step No Ids.`);
	expect(mail.text).toContain('The won deal has no deal id or no customer id');
	expect(mail.text).toMatch(/The run in n8n: http:\/\/\S+\/workflow\/\S+\/executions\/\d+/);
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
