import type { INodeProperties } from 'n8n-workflow';
import type { Operations } from '../../description/operation';
import { userGet, userGetDescription } from './get';

export const userOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['user'] } },
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a user',
			description:
				'Find a user of a client by their key, name, email or your own reference. Returns the user.',
			routing: { request: { method: 'POST', url: '/v1/user' }, send: { paginate: true } },
		},
	],
	default: 'get',
};

/** The user's own fields, after the Client Key and before the Full Name, Email and Custom Key. */
export const userDescription: INodeProperties[] = [...userGetDescription];

export const userOperations: Operations = { get: userGet };
