/**
 * The same CRM contact delivered twice, in a real n8n (`n8n start`, both of the tests' webhook
 * workflows published, a stand-in CRM receiving the keys written back):
 *
 * - the answer workflow (workflows/contact-answer.json) answers the CRM with the keys after both
 *   creates; its protection against a repeated create holds within one run only, so a second
 *   delivery makes a second client and contract: why no example users import works this way.
 * - the once workflow (workflows/contact-once.json) answers at once, records each delivery in an
 *   n8n data table and goes on only when no earlier delivery of the CRM id is recorded, then writes
 *   the keys back to the CRM: one client and one contract whether the second delivery comes after
 *   the first run or during it, also when many contacts arrive at once. A first run that failed is
 *   finished with n8n's own Retry of that execution, which starts at the failed node and so is not
 *   skipped as a repeat.
 *
 * Prints one line of counts per case. Part of the n8n version matrix.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
	endedRuns,
	importWorkflows,
	postToWebhook,
	publishInN8n,
	readTestWorkflow,
	restJson,
	webhookPath,
	type ExampleWorkflow,
} from './n8n-instance.mts';
import {
	crmContact,
	keysWrittenBack,
	leftAtService,
	createDeliveriesTable,
	onceExampleFor,
	readOnceWorkflow,
} from './once-example.mts';
import { useN8n } from './suite.mts';

const GIVE_UP_MS = 30_000;
/** How long the service holds the first Create Client in the "during the first run" cases. */
const SLOW_CREATE_MS = 2000;
/** Different contacts posted at the same moment, so that their runs overlap. */
const OVERLAPPING = 12;

const ANSWER_AFTER = readTestWorkflow('contact-answer.json');
const ONCE = readOnceWorkflow();

let deliveriesTableId: string;

/** The recorder is the CRM's side: it records each write-back of the keys. */
const suite = useN8n('the same CRM contact twice', {
	recorder: true,
	start: true,
	started: async () => {
		deliveriesTableId = await createDeliveriesTable(suite.rest);
		await importWorkflows(suite.home, [
			ANSWER_AFTER,
			onceExampleFor(suite.recorder.url, deliveriesTableId),
		]);
		for (const { id } of [ANSWER_AFTER, ONCE]) await publishInN8n(suite.rest, id);
	},
});
const { figures } = suite;

/** Waits until the workflow has `count` runs in all and none is still going; returns them. */
const runsEnded = async (workflowId: string, count: number) =>
	await endedRuns(suite.rest, workflowId, count, GIVE_UP_MS);

/**
 * The Executions list's Retry ("with original workflow"): n8n resumes the failed run at the node
 * that failed, with the data the earlier nodes gave; answers once the retry has ended.
 */
async function retryAsTheEditorDoes(executionId: string): Promise<void> {
	await restJson(suite.rest, `/rest/executions/${executionId}/retry`, {
		method: 'POST',
		body: JSON.stringify({ loadWorkflow: false }),
	});
}

/** Resolves once the service has received a Create Client for this contact. */
async function createClientArrived(crmId: string): Promise<void> {
	const giveUpAt = Date.now() + GIVE_UP_MS;
	while (!suite.service.requests.some((request) => isCreateClientFor(request.body, crmId))) {
		if (Date.now() > giveUpAt) throw new Error(`no Create Client for ${crmId} reached the service`);
		await sleep(20);
	}
}

function isCreateClientFor(body: unknown, crmId: string): boolean {
	const data = (body as { data?: { action?: string; client?: { customKey?: unknown } } })?.data;
	return data?.action === 'create' && String(data.client?.customKey) === crmId;
}

/** What one contact left at the service and the CRM. */
function countsFor(crmId: string) {
	const { clients, contracts } = leftAtService(suite.service, crmId);
	const clientKeys = new Set(clients.map((client) => client.clientKey));
	const requests = suite.service.requests.filter((request) => {
		const data = (request.body as { data?: { clientKey?: string } })?.data;
		return isCreateClientFor(request.body, crmId) || clientKeys.has(data?.clientKey ?? '');
	}).length;
	return { requests, clients, contracts, writeBacks: keysWrittenBack(suite.recorder, crmId) };
}

function report(setup: string, crmId: string) {
	const { requests, clients, contracts, writeBacks } = countsFor(crmId);
	figures.push(
		`  ${setup}: requests ${requests} · clients ${clients.length} · contracts ${contracts.length} · keys written back ${writeBacks.length}`,
	);
}

const post = async (example: ExampleWorkflow, contact: unknown) =>
	await postToWebhook(`${suite.n8n.url}/webhook/${webhookPath(example)}`, contact);

describe('the workflow that answers with the keys (contact-answer)', () => {
	it('creates a second client and contract when the contact comes again after the first answer', async () => {
		const crmId = 'after-1';
		for (let delivery = 0; delivery < 2; delivery++) {
			const response = await post(ANSWER_AFTER, crmContact(crmId));
			expect(response.status).toBe(200);
		}
		report('answers with the keys, one after the other', crmId);
		const { clients, contracts } = countsFor(crmId);
		expect([clients.length, contracts.length]).toEqual([2, 2]);
	});

	it('creates a second client and contract when the contact comes again during the first run', async () => {
		const crmId = 'after-2';
		suite.service.injectFault({ kind: 'delay', ms: SLOW_CREATE_MS }, { path: '/v1/client' });
		const first = post(ANSWER_AFTER, crmContact(crmId));
		await createClientArrived(crmId);
		const second = await post(ANSWER_AFTER, crmContact(crmId));
		expect([(await first).status, second.status]).toEqual([200, 200]);
		report('answers with the keys, during the first run', crmId);
		const { clients, contracts } = countsFor(crmId);
		expect([clients.length, contracts.length]).toEqual([2, 2]);
	});
});

describe('the workflow that creates once per contact (contact-once)', () => {
	let runsSoFar = 0;
	const runsAfter = async (more: number) => {
		runsSoFar += more;
		return await runsEnded(ONCE.id, runsSoFar);
	};

	function expectOnce(crmId: string) {
		const { clients, contracts, writeBacks } = countsFor(crmId);
		expect([clients.length, contracts.length]).toEqual([1, 1]);
		expect(writeBacks.map((call) => call.body)).toEqual([
			{
				crmId,
				clientKey: clients[0].clientKey,
				userKey: clients[0].users[0].userKey,
				contractKey: contracts[0].contractKey,
			},
		]);
		expect(writeBacks[0].path).toBe(`/api/contacts/${crmId}/contract-signing`);
	}

	it('answers the CRM at once, before the service has answered', async () => {
		const crmId = 'once-0';
		suite.service.injectFault({ kind: 'delay', ms: SLOW_CREATE_MS }, { path: '/v1/client' });
		const response = await post(ONCE, crmContact(crmId));
		const createAnswered = suite.service.requests.some(
			(request) => isCreateClientFor(request.body, crmId) && request.repliedAt !== undefined,
		);
		expect(response.status).toBe(200);
		expect(
			createAnswered,
			'the service had answered Create Client before n8n answered the CRM',
		).toBe(false);
		await runsAfter(1);
		expectOnce(crmId);
	});

	it('creates one client and contract when the contact comes again after the first run', async () => {
		const crmId = 'once-1';
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await runsAfter(1);
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		const runs = await runsAfter(1);
		expect(runs.every((run) => run.status === 'success')).toBe(true);
		report('once per contact, one after the other', crmId);
		expectOnce(crmId);
	});

	it('creates one client and contract when the contact comes again during the first run', async () => {
		const crmId = 'once-2';
		suite.service.injectFault({ kind: 'delay', ms: SLOW_CREATE_MS }, { path: '/v1/client' });
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await createClientArrived(crmId);
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await runsAfter(2);
		report('once per contact, during the first run', crmId);
		expectOnce(crmId);
	});

	it('finishes a failed first run with n8n\u2019s Retry, the repeated delivery skipped meanwhile', async () => {
		const crmId = 'once-3';
		suite.service.injectFault(
			{
				kind: 'status',
				status: 500,
				body: { code: '500', message: 'Signature backend unavailable' },
			},
			{ path: '/v1/client' },
		);
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		const [failed] = await runsAfter(1);
		expect(failed.status).toBe('error');
		expect(countsFor(crmId).clients).toHaveLength(0);

		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		const [skipped] = await runsAfter(1);
		expect(skipped.status).toBe('success');
		expect(countsFor(crmId).requests).toBe(1);

		await retryAsTheEditorDoes(failed.id);
		await runsAfter(1);
		report('once per contact, first run failed, then Retry', crmId);
		expectOnce(crmId);
	});

	it('a failed write-back is retried alone: no second client or contract', async () => {
		const crmId = 'once-4';
		suite.recorder.failing = 3;
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		const [failed] = await runsAfter(1);
		expect(failed.status).toBe('error');
		expect(countsFor(crmId).writeBacks).toHaveLength(0);

		await retryAsTheEditorDoes(failed.id);
		await runsAfter(1);
		report('once per contact, write-back failed, then Retry', crmId);
		expectOnce(crmId);
	});

	it('counts a test run from the editor as seen: the contact is skipped at the production URL', async () => {
		const crmId = 'once-test-run';
		// The editor's Execute workflow: n8n listens for one call on the webhook's test URL. The
		// editor sends the workflow along (n8n 1.x requires it; 2.x reads it from its database).
		const workflowData = await restJson<Record<string, unknown>>(
			suite.rest,
			`/rest/workflows/${ONCE.id}`,
		);
		await restJson(suite.rest, `/rest/workflows/${ONCE.id}/run`, {
			method: 'POST',
			body: JSON.stringify({
				workflowData,
				startNodes: [],
				triggerToStartFrom: { name: 'CRM Contact' },
			}),
		});
		const testCall = await postToWebhook(
			`${suite.n8n.url}/webhook-test/${webhookPath(ONCE)}`,
			crmContact(crmId),
		);
		expect(testCall.status).toBe(200);
		await runsAfter(1);
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await runsAfter(1);
		report('once per contact, a test run, then the production URL', crmId);
		expectOnce(crmId);
	});

	it('lets a contact through again once its rows are deleted from the data table', async () => {
		const crmId = 'once-again';
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await runsAfter(1);
		const project = await restJson<{ id: string }>(suite.rest, '/rest/projects/personal');
		const filter = JSON.stringify({
			type: 'and',
			filters: [{ columnName: 'crmId', condition: 'eq', value: crmId }],
		});
		await restJson(
			suite.rest,
			`/rest/projects/${project.id}/data-tables/${deliveriesTableId}/rows?filter=${encodeURIComponent(filter)}`,
			{ method: 'DELETE' },
		);
		expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
		await runsAfter(1);
		report('once per contact, its rows deleted, then again', crmId);
		const { clients, contracts } = countsFor(crmId);
		expect([clients.length, contracts.length]).toEqual([2, 2]);
	});

	describe('contacts that arrive together', () => {
		it(`keeps each contact's record when ${OVERLAPPING} contacts arrive at once`, async () => {
			const crmIds = Array.from({ length: OVERLAPPING }, (_, index) => `once-overlap-${index + 1}`);
			const first = await Promise.all(
				crmIds.map(async (crmId) => await post(ONCE, crmContact(crmId))),
			);
			expect(first.map((answer) => answer.status)).toEqual(Array(OVERLAPPING).fill(200));
			await runsAfter(OVERLAPPING);
			for (const crmId of crmIds) expect((await post(ONCE, crmContact(crmId))).status).toBe(200);
			await runsAfter(OVERLAPPING);
			const clientsPerContact = crmIds.map((crmId) => countsFor(crmId).clients.length);
			figures.push(
				`  once per contact, ${OVERLAPPING} contacts at once, each again after its run: clients per contact ${clientsPerContact.join(', ')}`,
			);
			expect(clientsPerContact).toEqual(Array(OVERLAPPING).fill(1));
		});

		it.each([
			[2, 5],
			[10, 3],
		])(
			'%i deliveries of one contact at the same instant, %i times: one client each time',
			async (deliveries, rounds) => {
				const clientsPerRound: number[] = [];
				for (let round = 1; round <= rounds; round++) {
					const crmId = `once-at-once-${deliveries}-${round}`;
					const answers = await Promise.all(
						Array.from({ length: deliveries }, async () => await post(ONCE, crmContact(crmId))),
					);
					expect(answers.map((answer) => answer.status)).toEqual(Array(deliveries).fill(200));
					const runs = await runsAfter(deliveries);
					expect(runs.slice(0, deliveries).map((run) => run.status)).toEqual(
						Array(deliveries).fill('success'),
					);
					const { clients, contracts } = countsFor(crmId);
					clientsPerRound.push(clients.length);
					expect(contracts.length).toBe(clients.length);
				}
				figures.push(
					`  once per contact, ${deliveries} at the same instant, ${rounds} times: clients per contact ${clientsPerRound.join(', ')}`,
				);
				// n8n's SQLite database writes one row at a time, so the row numbers follow the order the
				// deliveries were recorded in, and exactly one finds no earlier row.
				expect(clientsPerRound).toEqual(Array(rounds).fill(1));
			},
		);
	});
});
