/**
 * The README's step 4 for a CRM whose event uses other field names: only the values of the
 * recommended example's Contact Fields node change, and the workflow creates the right client,
 * users and contract and writes the keys back, in a real n8n (`n8n start`, the example published).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder, type Recorder } from '../service/recorder.mts';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	endedRuns,
	importWorkflows,
	n8nHomeFor,
	ownerSession,
	postToWebhook,
	publishWorkflow,
	removeN8nHome,
	startN8n,
	webhookPath,
	type ExampleWorkflow,
	type N8nHome,
	type RestSession,
	type RunningN8n,
} from './n8n-instance.mts';
import {
	keysWrittenBack,
	leftAtService,
	makeDeliveriesTable,
	onceExampleFor,
} from './once-example.mts';

const API_KEY = `sk_e2e_${randomBytes(12).toString('hex')}`;

/** An event as another CRM sends it: the contact nested, other names, its people under `participants`. */
const OTHER_CRM_EVENT = {
	event: 'contact.created',
	contact: {
		uid: 'K-7731',
		full_name: 'Katherine Johnson',
		mail: 'katherine@example.com',
		account: 'Langley Research',
	},
	participants: [
		{ display_name: 'Katherine Johnson', mail: 'katherine@example.com', uid: 'K-7731' },
		{ display_name: 'Dorothy Vaughan', mail: 'dorothy@example.com', uid: 'K-7732' },
	],
};

/** Contact Fields as the README's step 4 has the user set it for that event: each value, nothing else. */
const VALUES_FOR_OTHER_CRM: Record<string, string> = {
	crmId: '={{ $json.body.contact.uid }}',
	name: '={{ $json.body.contact.full_name }}',
	email: '={{ $json.body.contact.mail }}',
	company: '={{ $json.body.contact.account }}',
	people:
		'={{ $json.body.participants ? $json.body.participants.map(person => ({ name: person.display_name, email: person.mail, id: person.uid })) : [{ name: $json.body.contact.full_name, email: $json.body.contact.mail, id: $json.body.contact.uid }] }}',
};

interface Assignment {
	name: string;
	value: string;
}

const assignmentsOf = (workflow: ExampleWorkflow) =>
	(
		workflow.nodes.find((node) => node.name === 'Contact Fields')!.parameters.assignments as {
			assignments: Assignment[];
		}
	).assignments;

/** The once example set up as the test suite sets it up, then its Contact Fields adapted. */
function adaptedExample(crmUrl: string, tableId: string): ExampleWorkflow {
	const workflow = onceExampleFor(crmUrl, tableId);
	for (const assignment of assignmentsOf(workflow)) {
		assignment.value = VALUES_FOR_OTHER_CRM[assignment.name];
	}
	return workflow;
}

let service: StandIn;
let crm: Recorder;
let home: N8nHome | undefined;
let n8n: RunningN8n | undefined;
let rest: RestSession;
let shipped: ExampleWorkflow;
let adapted: ExampleWorkflow;

beforeAll(async () => {
	service = await startStandIn({ apiKey: API_KEY });
	crm = await startRecorder();
	home = await n8nHomeFor(service);
	const tableId = await makeDeliveriesTable(home);
	shipped = onceExampleFor(crm.url, tableId);
	adapted = adaptedExample(crm.url, tableId);
	await importWorkflows(home, [adapted]);
	await publishWorkflow(home, adapted.id);
	n8n = await startN8n(home);
	rest = await ownerSession(n8n.url);
});

afterAll(async () => {
	await n8n?.stop();
	await service?.close();
	await crm?.close();
	removeN8nHome(home);
});

describe('your own CRM’s fields (README, step 4)', () => {
	it('Contact Fields names exactly the fields the adapted values set, and no other node changed', () => {
		expect(
			assignmentsOf(shipped)
				.map((assignment) => assignment.name)
				.sort(),
		).toEqual(Object.keys(VALUES_FOR_OTHER_CRM).sort());
		const others = (workflow: ExampleWorkflow) =>
			workflow.nodes.filter((node) => node.name !== 'Contact Fields');
		expect(others(adapted)).toEqual(others(shipped));
	});

	it('creates the client with its people, the contract, and writes the keys back', async () => {
		const response = await postToWebhook(
			`${n8n!.url}/webhook/${webhookPath(adapted)}`,
			OTHER_CRM_EVENT,
		);
		expect(response.status).toBe(200);
		const [run] = await endedRuns(rest, adapted.id, 1, 30_000);
		expect(run.status).toBe('success');

		const { clients, contracts } = leftAtService(service, 'K-7731');
		expect(clients).toHaveLength(1);
		expect(clients[0]).toMatchObject({
			fullname: 'Katherine Johnson',
			email: 'katherine@example.com',
			organization: 'Langley Research',
			customKey: 'K-7731',
		});
		expect(
			clients[0].users.map(({ fullname, email, customKey }) => ({ fullname, email, customKey })),
		).toEqual([
			{ fullname: 'Katherine Johnson', email: 'katherine@example.com', customKey: 'K-7731' },
			{ fullname: 'Dorothy Vaughan', email: 'dorothy@example.com', customKey: 'K-7732' },
		]);
		expect(contracts).toHaveLength(1);
		expect(contracts[0]).toMatchObject({
			clientKey: clients[0].clientKey,
			name: 'Service agreement – Langley Research',
		});
		expect(keysWrittenBack(crm, 'K-7731').map((call) => call.body)).toEqual([
			{
				crmId: 'K-7731',
				clientKey: clients[0].clientKey,
				userKey: clients[0].users[0].userKey,
				contractKey: contracts[0].contractKey,
			},
		]);
	});

	it('skips the same contact when the CRM sends it again', async () => {
		expect(
			(await postToWebhook(`${n8n!.url}/webhook/${webhookPath(adapted)}`, OTHER_CRM_EVENT)).status,
		).toBe(200);
		const runs = await endedRuns(rest, adapted.id, 2, 30_000);
		expect(runs.map((run) => run.status)).toEqual(['success', 'success']);
		expect(leftAtService(service, 'K-7731').clients).toHaveLength(1);
		expect(service.counts().contracts).toBe(1);
	});
});
