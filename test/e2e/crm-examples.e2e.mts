/**
 * The three examples that start from a CRM's own trigger (examples/pipedrive-person-once.json,
 * hubspot-contact-once.json, salesforce-lead-once.json) in a real n8n, set up as a user sets them
 * up: the package installed from its tarball, a credential for each node that names one, the data
 * table "CRM deliveries" made and picked, and each workflow saved as the editor saves an imported
 * file. The CRM nodes cannot reach a CRM here, so the trigger and the CRM's Get hold pinned data
 * (test/e2e/workflows/crm-samples/, shaped as those n8n nodes output) and the workflow is run as the
 * editor runs a workflow whose trigger is pinned: POST /rest/workflows/:id/run with
 * `triggerToStartFrom`. Every other node runs, against the stand-in service.
 *
 * Each event gives the right client, users and contract; the same event a second time creates
 * nothing more, and a contact delivered again beside a new one gets nothing more either (the cases
 * share the one deliveries table, and run in order). On the pinned n8n only (the run endpoint's
 * body is 2.41.1's).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	createN8nHome,
	importCredentials,
	ownerSession,
	packPackage,
	readExample,
	removeN8nHome,
	restJson,
	runHasEnded,
	startN8n,
	unflatten,
	type N8nHome,
	type RestSession,
	type RunningN8n,
} from './n8n-instance.mts';
import { ensureN8n } from './n8n-runtime.mts';
import { createDeliveriesTable, leftAtService, pickDeliveriesTable } from './once-example.mts';

const API_KEY = `sk_e2e_${randomBytes(12).toString('hex')}`;
const GIVE_UP_MS = 30_000;
const TEMPLATE_KEY = 'tpl_service_agreement';

type PinData = Record<string, Array<{ json: Record<string, unknown> }>>;

const sample = (crm: string) =>
	JSON.parse(
		readFileSync(new URL(`./workflows/crm-samples/${crm}.json`, import.meta.url), 'utf8'),
	) as Record<string, PinData>;

const PIPEDRIVE = sample('pipedrive');
const HUBSPOT = sample('hubspot');
const SALESFORCE = sample('salesforce');

/** A client the event must give: its fields, with the contact itself as its one user. */
interface ExpectedClient {
	crmId: string;
	fullname: string;
	email: string;
	/** Undefined: the client is created without an organization. */
	organization?: string;
}

interface Case {
	title: string;
	example: string;
	trigger: string;
	pinData: PinData;
	/** The clients the event must create. */
	clients: ExpectedClient[];
	/** CRM ids in the event that an earlier case delivered already: they must get nothing more. */
	seenBefore?: string[];
}

const CASES: Case[] = [
	{
		title: 'Pipedrive: a person of an organization',
		example: 'pipedrive-person-once.json',
		trigger: 'Pipedrive Trigger',
		pinData: PIPEDRIVE.personOfAnOrganization,
		clients: [
			{ crmId: '10', fullname: 'John Test', email: 'john@test.com', organization: 'Test Org LLC' },
		],
	},
	{
		title: 'Pipedrive: a person without organization',
		example: 'pipedrive-person-once.json',
		trigger: 'Pipedrive Trigger',
		pinData: PIPEDRIVE.personWithoutOrganization,
		clients: [
			{ crmId: '2', fullname: '[Sample] Kanushi Barnes', email: 'kanushi.barnes@gmial.com' },
		],
	},
	{
		title: 'HubSpot: two contacts created together, one without company',
		example: 'hubspot-contact-once.json',
		trigger: 'HubSpot Trigger',
		pinData: HUBSPOT.pinData,
		clients: [
			{
				crmId: '204727',
				fullname: 'Bob Record',
				email: 'mgnew-email@hubspot.com',
				organization: 'HubSpot Test Portal',
			},
			{
				crmId: '207303',
				fullname: 'Ff_FirstName_0 Ff_LastName_0',
				email: 'email_0be34aebe5@abctest.com',
			},
		],
	},
	{
		title: 'HubSpot: a later batch, the second contact again beside a new one',
		example: 'hubspot-contact-once.json',
		trigger: 'HubSpot Trigger',
		pinData: HUBSPOT.laterBatch,
		clients: [
			{
				crmId: '208331',
				fullname: 'Grace Hopper',
				email: 'grace.hopper@hubspot.com',
				organization: 'HubSpot Test Portal',
			},
		],
		seenBefore: ['207303'],
	},
	{
		title: 'Salesforce: two leads in one poll, one without first name',
		example: 'salesforce-lead-once.json',
		trigger: 'Salesforce Trigger',
		pinData: SALESFORCE.pinData,
		clients: [
			{
				crmId: '00Q5g00000Ab1CdEAF',
				fullname: 'Ada Lovelace',
				email: 'ada@example.com',
				organization: 'Analytical Engines Ltd',
			},
			{
				crmId: '00Q5g00000Ab1CeEAF',
				fullname: 'Hopper',
				email: 'grace@example.com',
				organization: 'Harvard Computation Lab',
			},
		],
	},
];

interface ExampleNode {
	credentials?: Record<string, { id: string; name: string }>;
}

/** The user's own credential for each CRM credential an example names, as the user would pick it. */
function crmCredentials(examples: string[]) {
	const found = new Map<string, { id: string; name: string; type: string }>();
	for (const file of examples) {
		for (const node of readExample(file).nodes as ExampleNode[]) {
			for (const [type, { id, name }] of Object.entries(node.credentials ?? {})) {
				if (type !== CREDENTIAL_TYPE) found.set(id, { id, name, type });
			}
		}
	}
	return [...found.values()].map((credential) => ({ ...credential, data: {} }));
}

let service: StandIn;
let home: N8nHome | undefined;
let n8n: RunningN8n | undefined;
let rest: RestSession;
let deliveriesTableId: string;
const figures: string[] = [];

beforeAll(async () => {
	const startedAt = Date.now();
	service = await startStandIn({ apiKey: API_KEY });
	const runtime = await ensureN8n({ log: (line) => process.stdout.write(`${line}\n`) });
	home = await createN8nHome(runtime, await packPackage());
	await importCredentials(home, [
		{
			id: EXAMPLE_CREDENTIAL_ID,
			name: 'Contract Signing account',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: service.url, apiKey: API_KEY },
		},
		...crmCredentials([...new Set(CASES.map((example) => example.example))]),
	]);
	n8n = await startN8n(home);
	rest = await ownerSession(n8n.url);
	deliveriesTableId = await createDeliveriesTable(rest);
	figures.push(`set up in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
	process.stdout.write(`CRM examples on n8n ${runtime.version}\n`);
});

afterAll(async () => {
	await n8n?.stop();
	await service?.close();
	removeN8nHome(home);
	if (figures.length) process.stdout.write(`CRM examples:\n  ${figures.join('\n  ')}\n`);
});

/**
 * The example as the editor saves it once imported and set up: the deliveries table picked and
 * the CRM nodes' output pinned; nothing else changed. Returns the saved workflow's id.
 */
async function saveWithPins(example: Case, copy: number): Promise<string> {
	const workflow = pickDeliveriesTable(readExample(example.example), deliveriesTableId);
	const saved = await restJson<{ id: string }>(rest, '/rest/workflows', {
		method: 'POST',
		body: JSON.stringify({
			...workflow,
			id: `${workflow.id}${copy}`,
			name: `${workflow.name} (${example.title})`,
			pinData: example.pinData,
		}),
	});
	return saved.id;
}

interface Execution {
	status: string;
	data?: string;
}

/** The editor's Execute workflow from the pinned trigger; the run, once it has ended. */
async function runFromPinnedTrigger(workflowId: string, trigger: string): Promise<Execution> {
	const started = await restJson<{ executionId?: string }>(
		rest,
		`/rest/workflows/${workflowId}/run`,
		{ method: 'POST', body: JSON.stringify({ triggerToStartFrom: { name: trigger } }) },
	);
	if (!started.executionId) throw new Error(`no run started: ${JSON.stringify(started)}`);
	const giveUpAt = Date.now() + GIVE_UP_MS;
	for (;;) {
		const execution = await restJson<Execution>(rest, `/rest/executions/${started.executionId}`);
		if (runHasEnded(execution.status)) return execution;
		if (Date.now() > giveUpAt) throw new Error(`run ${started.executionId} did not end`);
		await sleep(100);
	}
}

/** The run's error, if n8n recorded one, for the failure message. */
function runError(execution: Execution): string | undefined {
	if (!execution.data) return undefined;
	const run = unflatten(execution.data) as {
		resultData?: { error?: { message?: string; node?: { name?: string } } };
	};
	const error = run.resultData?.error;
	return error ? `${error.node?.name ?? 'workflow'}: ${error.message}` : undefined;
}

function expectClientAndContract(expected: ExpectedClient) {
	const { clients, contracts } = leftAtService(service, expected.crmId);
	expect(clients).toHaveLength(1);
	const [client] = clients;
	expect({
		fullname: client.fullname,
		email: client.email,
		organization: client.organization,
		customKey: client.customKey,
	}).toEqual({
		fullname: expected.fullname,
		email: expected.email,
		organization: expected.organization,
		customKey: expected.crmId,
	});
	expect(
		client.users.map(({ fullname, email, customKey }) => ({ fullname, email, customKey })),
	).toEqual([{ fullname: expected.fullname, email: expected.email, customKey: expected.crmId }]);
	expect(contracts).toHaveLength(1);
	expect(contracts[0]).toMatchObject({
		clientKey: client.clientKey,
		userKey: client.users[0].userKey,
		name: `Service agreement – ${expected.organization ?? expected.fullname}`,
		templateKey: TEMPLATE_KEY,
	});
}

/** A contact an earlier run created: still one client and one contract. */
function expectStillOnce(crmId: string) {
	const { clients, contracts } = leftAtService(service, crmId);
	expect([clients.length, contracts.length]).toEqual([1, 1]);
}

describe('the CRM examples, from their pinned triggers', () => {
	CASES.forEach((example, index) => {
		it(`${example.title}: one client with its user and one contract each, nothing more the second time`, async () => {
			const workflowId = await saveWithPins(example, index);
			const counts = () => [service.clients().length, service.contracts().length];
			const before = counts();

			const first = await runFromPinnedTrigger(workflowId, example.trigger);
			expect(first.status, runError(first)).toBe('success');
			for (const expected of example.clients) expectClientAndContract(expected);
			for (const crmId of example.seenBefore ?? []) expectStillOnce(crmId);
			const afterFirst = counts();
			expect(afterFirst).toEqual([
				before[0] + example.clients.length,
				before[1] + example.clients.length,
			]);

			const second = await runFromPinnedTrigger(workflowId, example.trigger);
			expect(second.status, runError(second)).toBe('success');
			expect(counts()).toEqual(afterFirst);
			for (const expected of example.clients) expectClientAndContract(expected);
			figures.push(
				`${example.title}: clients ${afterFirst[0] - before[0]}, contracts ${afterFirst[1] - before[1]}; the second run created ${counts()[0] - afterFirst[0]}`,
			);
		});
	});
});
