/**
 * Contract → Create as a plain declarative node: n8n's routing builds the request from the
 * fields, sends it with the credential and returns the reply as the item. No pagination hook, no
 * execute method, nothing of this package's node: what a declarative node costs in n8n itself.
 */
import { NodeConnectionTypes, type INodeType } from 'n8n-workflow';
import { ContractSigning } from '../../nodes/ContractSigning/ContractSigning.node';
import { CREDENTIAL_TYPE } from './n8n-engine.mts';

export const ROUTING_ALONE_NODE_TYPE = 'test.routingAloneContractCreate';

export const routingAloneNode: INodeType = {
	description: {
		displayName: 'Contract Create, routing alone',
		name: ROUTING_ALONE_NODE_TYPE,
		group: ['output'],
		version: 1,
		description: 'Creates a contract with n8n’s declarative routing only',
		defaults: { name: 'Contract Create, routing alone' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		// The base URL from the credential, as a declarative node takes it; the credential sets the key.
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
		},
		properties: [
			{
				displayName: 'Action',
				name: 'action',
				type: 'hidden',
				default: 'create',
				routing: {
					request: { method: 'POST', url: '/v1/contract' },
					send: { type: 'body', property: 'data.action' },
				},
			},
			{
				displayName: 'Client Key',
				name: 'clientKey',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'data.clientKey' } },
			},
			{
				displayName: 'Contract Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'data.contract.name' } },
			},
		],
	},
};

const routed = new Set(routingAloneNode.description.properties.map(({ name }) => name));

export const ROUTING_ALONE_PANEL_NODE_TYPE = 'test.routingAlonePanelContractCreate';

/**
 * The same routing beside this package's panel: every field of the node, with no routing of its
 * own. n8n's routing walks every field of a node for every item, whether it is shown or not, so
 * this is what n8n itself costs for a node with this panel.
 */
export const routingAlonePanelNode: INodeType = {
	description: {
		...routingAloneNode.description,
		displayName: 'Contract Create, routing alone, this panel',
		name: ROUTING_ALONE_PANEL_NODE_TYPE,
		defaults: { name: 'Contract Create, routing alone, this panel' },
		properties: [
			...routingAloneNode.description.properties,
			...new ContractSigning().description.properties
				.filter(({ name }) => !routed.has(name))
				.map(({ routing: _, ...property }) => ({
					...property,
					...(property.options && {
						options: property.options.map((option) =>
							'routing' in option ? { ...option, routing: undefined } : option,
						),
					}),
				})),
		],
	},
};
