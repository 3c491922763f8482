/**
 * The once workflow (workflows/contact-once.json) in the tests: a webhook contact made a client
 * and a contract once per contact, by recording each delivery in a data table. It was an example
 * until the won-deal examples took its place; it stays as what the repeated-delivery, storm and
 * queue tests measure the node in. Its data table made and picked, the contact a CRM posts to it,
 * and what one contact left at the service and at the CRM.
 */
import { readFileSync } from 'node:fs';
import type { RecordedCall, Recorder } from '../service/recorder.mts';
import type { ClientRecord, ContractRecord, StandIn } from '../service/stand-in.mts';
import { createDataTable, pickDataTable, type DataTable } from './data-tables.mts';
import { sendKeysTo, type ExampleWorkflow, type RestSession } from './n8n-instance.mts';

/** The table the workflow records deliveries in. */
const DELIVERIES_TABLE: DataTable = { name: 'CRM deliveries', columns: ['crmId'] };

/** Makes the deliveries table in a running n8n, as a user does under Data tables; its id. */
export const createDeliveriesTable = async (rest: RestSession) =>
	await createDataTable(rest, DELIVERIES_TABLE);

/** The deliveries table in every data table node of the workflow, as users pick it. */
export const pickDeliveriesTable = <T extends Pick<ExampleWorkflow, 'nodes'>>(
	workflow: T,
	deliveriesTableId: string,
) => pickDataTable(workflow, deliveriesTableId, DELIVERIES_TABLE.name);

/** The once workflow as shipped in the tests' folder. */
export const readOnceWorkflow = () =>
	JSON.parse(
		readFileSync(new URL('./workflows/contact-once.json', import.meta.url), 'utf8'),
	) as ExampleWorkflow;

/**
 * The workflow set up: the deliveries table picked in its data table nodes, the write-back aimed
 * at `crmUrl` instead of crm.example.com.
 */
export function onceExampleFor(crmUrl: string, deliveriesTableId: string): ExampleWorkflow {
	return sendKeysTo(pickDeliveriesTable(readOnceWorkflow(), deliveriesTableId), crmUrl);
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
