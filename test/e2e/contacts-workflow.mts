/**
 * The workflow of the end-to-end contact scenarios: Manual Trigger → the contacts (Set) → one
 * item each (Split Out) → one Contract Signing node with the scenario's settings.
 */
import { CONTACTS, RETRY_ON_FAIL } from '../scenarios/contacts.mts';
import { CREDENTIAL_TYPE, EXAMPLE_CREDENTIAL_ID, NODE_TYPE } from './n8n-instance.mts';

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export interface ContactsWorkflow {
	id: string;
	/** The Contract Signing node's name. */
	node: string;
	parameters: Record<string, unknown>;
	onError: OnError;
	retryOnFail?: boolean;
	contacts?: typeof CONTACTS;
	credentialId?: string;
}

export function contactsWorkflow({
	id,
	node,
	parameters,
	onError,
	retryOnFail = false,
	contacts = CONTACTS,
	credentialId = EXAMPLE_CREDENTIAL_ID,
}: ContactsWorkflow) {
	// n8n wants UUIDs for node and version ids; each workflow gets its own, made from its id.
	const hex = Buffer.from(id).toString('hex').padStart(10, '0').slice(-10);
	const nodeId = (suffix: string) => `e1c0ffee-0000-4000-8000-${hex}${suffix}`;
	return {
		id,
		name: `Contacts ${id}`,
		versionId: nodeId('99'),
		nodes: [
			{
				id: nodeId('01'),
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: nodeId('02'),
				name: 'Contacts',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ contacts }), options: {} },
			},
			{
				id: nodeId('03'),
				name: 'One Item per Contact',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'contacts', options: {} },
			},
			{
				id: nodeId('04'),
				name: node,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [600, 0],
				credentials: {
					[CREDENTIAL_TYPE]: { id: credentialId, name: 'Contract Signing account' },
				},
				parameters,
				onError,
				...(retryOnFail ? RETRY_ON_FAIL : {}),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: 'One Item per Contact', type: 'main', index: 0 }]] },
			'One Item per Contact': { main: [[{ node, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}
