/**
 * examples/crm-contact-once.json in the tests: its data table made and picked as a user does, the
 * contact a CRM posts to it, and what one contact left at the service and at the CRM.
 */
import type { RecordedCall, Recorder } from '../service/recorder.mts';
import type { ClientRecord, ContractRecord, StandIn } from '../service/stand-in.mts';
import {
	ownerSession,
	readExample,
	restJson,
	startN8n,
	type ExampleWorkflow,
	type N8nHome,
	type RestSession,
} from './n8n-instance.mts';
import { N8N_LINE_UNDER_TEST } from './n8n-runtime.mts';

/** The table the example records deliveries in, as step 3 of the README's first workflow makes it. */
const DELIVERIES_TABLE = {
	name: 'CRM deliveries',
	columns: [{ name: 'crmId', type: 'string' }],
};

/**
 * Makes the deliveries table in the owner's project, as a user does under Data tables; its id.
 * A table exists only in a running n8n, so this starts n8n in the user folder and stops it again.
 */
export async function makeDeliveriesTable(home: N8nHome): Promise<string> {
	const n8n = await startN8n(home);
	try {
		return await createDeliveriesTable(await ownerSession(n8n.url));
	} finally {
		await n8n.stop();
	}
}

/** Makes the deliveries table in a running n8n, through the owner's session; its id. */
export async function createDeliveriesTable(rest: RestSession): Promise<string> {
	const project = await restJson<{ id: string }>(rest, '/rest/projects/personal');
	const table = await restJson<{ id: string }>(rest, `/rest/projects/${project.id}/data-tables`, {
		method: 'POST',
		body: JSON.stringify(DELIVERIES_TABLE),
	});
	return table.id;
}

/**
 * The deliveries table in every data table node of the workflow, as the README has users set it.
 * The examples find it by its name, which the pinned n8n does as shipped. Before 2.3 n8n has no
 * By Name (its Data table field offers From list and ID): users pick the table from the list,
 * which stores its id.
 */
export function pickDeliveriesTable<T extends Pick<ExampleWorkflow, 'nodes'>>(
	workflow: T,
	deliveriesTableId: string,
): T {
	if (N8N_LINE_UNDER_TEST === undefined) return workflow;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.dataTable') {
			node.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: deliveriesTableId,
				cachedResultName: DELIVERIES_TABLE.name,
			};
		}
	}
	return workflow;
}

/**
 * The example as a user sets it up: the deliveries table picked in its data table nodes, the
 * write-back aimed at `crmUrl` instead of crm.example.com.
 */
export function onceExampleFor(crmUrl: string, deliveriesTableId: string): ExampleWorkflow {
	const copy = pickDeliveriesTable(readExample('crm-contact-once.json'), deliveriesTableId);
	for (const node of copy.nodes) {
		if (node.name === 'Send Keys to CRM') {
			node.parameters.url = String(node.parameters.url).replace('https://crm.example.com', crmUrl);
		}
	}
	return copy;
}

/** The contact a CRM posts to the webhook examples. */
export function crmContact(crmId: string) {
	return {
		name: `Contact ${crmId}`,
		email: `${crmId}@example.com`,
		company: `Company ${crmId}`,
		crmId,
	};
}

/** The clients the service holds for the contact (Custom Key = CRM id), and their contracts. */
export function leftAtService(
	service: StandIn,
	crmId: string,
): { clients: ClientRecord[]; contracts: ContractRecord[] } {
	const clients = service.clients().filter((client) => client.customKey === crmId);
	const clientKeys = new Set(clients.map((client) => client.clientKey));
	const contracts = service.contracts().filter((contract) => clientKeys.has(contract.clientKey));
	return { clients, contracts };
}

/** The write-backs of the contact's keys the CRM accepted. */
export function keysWrittenBack(crm: Recorder, crmId: string): RecordedCall[] {
	return crm.requests.filter(
		(call) => call.status === 200 && String((call.body as { crmId?: unknown })?.crmId) === crmId,
	);
}
