import type { INodeProperties } from 'n8n-workflow';
import type { Operations } from '../../description/operation';
import { clientCreate, clientCreateDescription } from './create';

export const clientOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['client'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a client',
			description:
				'Create a client, with its users if you add them. Returns the keys of the client and its users.',
			routing: { request: { method: 'POST', url: '/v1/client' }, send: { paginate: true } },
		},
	],
	default: 'create',
};

/** The client's fields after the Custom Key: its users. */
export const clientDescription: INodeProperties[] = [...clientCreateDescription];

export const clientOperations: Operations = { create: clientCreate };
