/**
 * Contract → Create as a plain declarative node: n8n's routing builds the request from the
 * fields, sends it with the credential and returns the reply as the item. No pagination hook, no
 * execute method, nothing of this package's node: what a declarative node costs in n8n itself.
 */
import { NodeConnectionTypes, type INodeType } from 'n8n-workflow';
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
		// The credential's `authenticate` sets the base URL too; this is how a declarative node says it.
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
