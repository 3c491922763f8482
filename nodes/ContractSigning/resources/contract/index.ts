import type { INodeProperties } from 'n8n-workflow';
import type { Operations } from '../../description/operation';
import { contractCreate, contractCreateDescription } from './create';

export const contractOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['contract'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a contract',
			description:
				'Create a contract for a client, from a template if you choose one. Returns the contract’s key.',
			routing: { request: { method: 'POST', url: '/v1/contract' }, send: { paginate: true } },
		},
	],
	default: 'create',
};

/** The contract's own fields, after the Client Key. */
export const contractDescription: INodeProperties[] = [...contractCreateDescription];

export const contractOperations: Operations = { create: contractCreate };
