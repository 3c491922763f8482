/**
 * A CRM's bulk change, in a real n8n (`n8n start`, the packed package, the tests' webhook workflows
 * contact-answer and contact-once published): N contacts POSTed at the same moment, one execution
 * each, all running at once, into a service that allows R requests per second (429 + Retry-After
 * beyond it, nothing done for a refused request). Each execution's item that the service refuses
 * waits out the Retry-After itself, a random while longer so that the refused ones do not come back
 * together, and is sent again: every contact gets exactly one client and one contract, and every
 * execution succeeds. The requests, the refused share and the time are printed. How long a storm
 * takes, and how fast n8n drives requests without a limit, are rows of `npm run bench`
 * (BENCHMARKS.md, "Many executions at once"), not bounds here.
 *
 * First, the same storm against a service without a limit. Each limited storm has an account (a
 * stand-in on its own port, with its own credential). Part of the n8n version matrix; the storm
 * during a bulk run runs on n8n 2 only, since the waiting it proves is the node's own, the same on
 * every n8n line, and so does the once example's storm: on n8n 1.x its data table under
 * overlapping runs is repeated-delivery.e2e.mts's "contacts that arrive together".
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	contractSigningCredential,
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	endedRuns,
	importCredentials,
	importWorkflows,
	NODE_TYPE,
	postToWebhook,
	publishInN8n,
	readTestWorkflow,
	webhookPath,
	type ExampleWorkflow,
} from './n8n-instance.mts';
import {
	createDeliveriesTable,
	crmContact,
	leftAtService,
	onceExampleFor,
} from './once-example.mts';
import { CREATE_CLIENT } from '../scenarios/contacts.mts';
import { useN8n } from './suite.mts';

/** Contacts posted at once: 50 in `npm test`; BENCHMARKS.md measures with STORM_CONTACTS=100. */
const N = Number(process.env.STORM_CONTACTS ?? 50);
const R = Number(process.env.STORM_LIMIT ?? 4);
const BULK_ITEMS = 100;
const N8N_2 = process.env.CONTRACT_SIGNING_N8N !== '1.x';

type Example = 'answer' | 'once';

interface Account {
	service: StandIn;
	credentialId: string;
}

interface Storm {
	id: string;
	example: Example;
	retryOnFail: boolean;
	account: Account;
	workflow: ExampleWorkflow;
}

/** The suite's service is the first account; the recorder is the CRM's side. */
const suite = useN8n('storms', { recorder: true, start: true, prepare, started });
const { figures } = suite;
const accounts: Account[] = [];
const storms = new Map<string, Storm>();

/**
 * A stand-in of its own, with a credential for it (imported by `prepare`): an account n8n has not
 * talked to.
 */
async function newAccount(): Promise<Account> {
	const account = {
		service: await startStandIn({ apiKey: suite.service.apiKey }),
		credentialId: `csStorm${accounts.length + 1}`,
	};
	accounts.push(account);
	return account;
}

/** A copy of an example on its own webhook path and account, Retry On Fail as shipped or off. */
function stormWorkflow(
	id: string,
	example: Example,
	account: Account,
	retryOnFail: boolean,
	deliveriesTableId: string,
): ExampleWorkflow {
	const copy =
		example === 'once'
			? onceExampleFor(suite.recorder.url, deliveriesTableId)
			: readTestWorkflow('contact-answer.json');
	copy.id = id;
	copy.name = `Storm ${id}`;
	for (const node of copy.nodes as Array<
		ExampleWorkflow['nodes'][number] & Record<string, unknown>
	>) {
		if (node.name === 'CRM Contact') {
			node.parameters.path = `storm-${id}`;
			node.webhookId = randomUUID();
		}
		if (node.type === NODE_TYPE) {
			node.credentials = {
				[CREDENTIAL_TYPE]: { id: account.credentialId, name: 'Contract Signing account' },
			};
			if (!retryOnFail) {
				delete node.retryOnFail;
				delete node.maxTries;
				delete node.waitBetweenTries;
			}
		}
	}
	return copy;
}

/** BULK_ITEMS contacts in one execution: a webhook that answers at once, a Code node, Create Client. */
function bulkWorkflow(account: Account): ExampleWorkflow {
	const webhookId = randomUUID();
	return {
		id: 'csStormBulk',
		name: 'Storm bulk run',
		nodes: [
			{
				id: randomUUID(),
				name: 'CRM Contact',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId,
				parameters: {
					httpMethod: 'POST',
					path: 'storm-bulk',
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'Contacts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${BULK_ITEMS} }, (_, i) => ({ json: { name: 'Bulk ' + i, email: 'bulk' + i + '@example.com', crmId: 'bulk-' + i } }));`,
				},
			},
			{
				id: randomUUID(),
				name: 'Create Client',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [400, 0],
				credentials: {
					[CREDENTIAL_TYPE]: { id: account.credentialId, name: 'Contract Signing account' },
				},
				parameters: CREATE_CLIENT,
			},
		],
		connections: {
			'CRM Contact': { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: 'Create Client', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	} as unknown as ExampleWorkflow;
}

/** The storms of this file, each with its account; their workflows come once n8n runs. */
let plan: Array<Omit<Storm, 'workflow'>> = [];

async function prepare() {
	const unlimited: Account = { service: suite.service, credentialId: EXAMPLE_CREDENTIAL_ID };
	const first = await newAccount();
	plan = [
		{ id: 'unlimited', example: 'answer', retryOnFail: true, account: unlimited },
		{ id: 'answer', example: 'answer', retryOnFail: false, account: first },
	];
	if (N8N_2) {
		plan.push(
			{ id: 'once', example: 'once', retryOnFail: true, account: await newAccount() },
			{ id: 'withBulk', example: 'answer', retryOnFail: true, account: await newAccount() },
		);
	}
	await importCredentials(
		suite.home,
		accounts.map(({ service, credentialId }) =>
			contractSigningCredential({ baseUrl: service.url, apiKey: service.apiKey }, credentialId),
		),
	);
}

async function started() {
	const tableId = plan.some((storm) => storm.example === 'once')
		? await createDeliveriesTable(suite.rest)
		: '';
	for (const storm of plan) {
		const { id, example, account, retryOnFail } = storm;
		storms.set(id, {
			...storm,
			workflow: stormWorkflow(id, example, account, retryOnFail, tableId),
		});
	}
	const bulkAccount = storms.get('withBulk')?.account;
	const workflows = [...storms.values()].map((storm) => storm.workflow);
	if (bulkAccount) workflows.push(bulkWorkflow(bulkAccount));
	await importWorkflows(suite.home, workflows as Array<ExampleWorkflow & { versionId?: string }>);
	for (const { id } of workflows) await publishInN8n(suite.rest, id);
	process.stdout.write(`storms: ${N} contacts, limit ${R}/s\n`);
}

afterAll(async () => {
	for (const { service } of accounts) await service.close();
});

const contactsOf = (storm: Storm) =>
	Array.from({ length: N }, (_, index) => crmContact(`${storm.id}-${index + 1}`));

interface StormFigures {
	requests: number;
	refused: number;
	seconds: number;
	/** Per contact: [clients, contracts]. */
	perContact: Array<[number, number]>;
	statuses: Record<string, number>;
	/** Accepted requests per second over the storm, at the service. */
	acceptedPerSecond: number;
}

/** POSTs every contact at the same moment and waits until every execution has ended. */
async function blow(storm: Storm): Promise<StormFigures> {
	const { service } = storm.account;
	const before = service.requests.length;
	const startedAt = Date.now();
	const url = `${suite.n8n.url}/webhook/${webhookPath(storm.workflow)}`;
	const contacts = contactsOf(storm);
	await Promise.all(
		contacts.map(async (contact) => {
			const response = await postToWebhook(url, contact, { withinMs: 600_000 });
			await response.text();
		}),
	);
	const runs = await endedRuns(suite.rest, storm.id, N, 600_000);
	const seconds = (Date.now() - startedAt) / 1000;
	const requests = service.requests.slice(before);
	const accepted = requests.filter((request) => !request.limited);
	const span = accepted.length
		? (accepted[accepted.length - 1].receivedAt - accepted[0].receivedAt) / 1000
		: 0;
	const statuses: Record<string, number> = {};
	for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1;
	return {
		requests: requests.length,
		refused: requests.length - accepted.length,
		seconds,
		perContact: contacts.map(({ crmId }) => {
			const { clients, contracts } = leftAtService(service, crmId);
			return [clients.length, contracts.length];
		}),
		statuses,
		acceptedPerSecond: span > 0 ? accepted.length / span : 0,
	};
}

function report(name: string, figuresOf: StormFigures, extra = '') {
	const { requests, refused, seconds, perContact, statuses } = figuresOf;
	const clients = perContact.reduce((sum, [count]) => sum + count, 0);
	const contracts = perContact.reduce((sum, [, count]) => sum + count, 0);
	const failed = Object.entries(statuses)
		.filter(([status]) => status !== 'success')
		.reduce((sum, [, count]) => sum + count, 0);
	figures.push(
		`  ${name}: requests ${requests} · refused ${refused} (${((100 * refused) / Math.max(1, requests)).toFixed(1)} %, ` +
			`${((100 * refused) / (2 * N)).toFixed(1)} % of the ${2 * N} needed) · clients ${clients} · contracts ${contracts} · ` +
			`failed executions ${failed} · ${seconds.toFixed(1)} s${extra}`,
	);
}

function expectEveryContactOnce(result: StormFigures) {
	expect(result.statuses).toEqual({ success: N });
	const wrong = result.perContact.filter(
		([clients, contracts]) => clients !== 1 || contracts !== 1,
	);
	expect(wrong).toEqual([]);
}

async function limitedStorm(id: string, name: string) {
	const storm = storms.get(id)!;
	storm.account.service.settings.rateLimit = { perSecond: R };
	const result = await blow(storm);
	report(name, result);
	expectEveryContactOnce(result);
	return result;
}

describe(
	`a CRM's bulk change: ${N} contacts at once, a service allowing ${R} requests per second`,
	{ timeout: 600_000 },
	() => {
		it('with no limit at the service, every contact once', async () => {
			const result = await blow(storms.get('unlimited')!);
			report(
				'no limit at the service',
				result,
				` · n8n drove ${result.acceptedPerSecond.toFixed(1)} requests/s`,
			);
			expectEveryContactOnce(result);
		});

		// Retry On Fail off: no retry of n8n's helps; each item's own waiting carries the storm alone.
		it('contact-answer with Retry On Fail off: every contact once, no execution failed', async () => {
			await limitedStorm('answer', 'contact-answer, Retry On Fail off, cold');
		});

		if (!N8N_2) {
			figures.push(
				'  contact-once and the storm during a bulk run: n8n 2 only (see the top of this file)',
			);
			return;
		}

		it('the once workflow (contact-once), Retry On Fail on: every contact once, no execution failed', async () => {
			await limitedStorm('once', 'contact-once, Retry On Fail on, cold');
		});

		it(`the storm while a ${BULK_ITEMS}-item bulk run goes: every contact and every bulk item once`, async () => {
			const storm = storms.get('withBulk')!;
			const { service } = storm.account;
			service.settings.rateLimit = { perSecond: R };
			const bulkStartedAt = Date.now();
			const bulk = await postToWebhook(`${suite.n8n.url}/webhook/storm-bulk`, {});
			expect(bulk.status).toBe(200);
			while (service.requests.length < 20) await sleep(50);
			const result = await blow(storm);
			const bulkRuns = await endedRuns(suite.rest, 'csStormBulk', 1, 600_000);
			const bulkSeconds = (Date.now() - bulkStartedAt) / 1000;
			const bulkClients = service
				.clients()
				.filter((client) => client.customKey?.startsWith('bulk-'));
			report(
				`contact-answer during a ${BULK_ITEMS}-item bulk run (requests and refused: every request to the account meanwhile, the bulk run's too)`,
				result,
				` · bulk run ${bulkSeconds.toFixed(1)} s, ${bulkClients.length} clients`,
			);
			expectEveryContactOnce(result);
			expect(bulkRuns.map((run) => run.status)).toEqual(['success']);
			expect(new Set(bulkClients.map((client) => client.customKey)).size).toBe(BULK_ITEMS);
			expect(bulkClients).toHaveLength(BULK_ITEMS);
		});
	},
);
