import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import { simplifyUserFound, userGetFields, userGetRules } from './get';

export const userDescription: INodeProperties[] = [
	{
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
					'Find a user of a client. Needs clientKey and at least one of userKey, full name, email or custom key. Returns the user record with userKey.',
				routing: operationRouting({
					url: '/v1/user',
					action: 'read',
					resource: 'user',
					rules: userGetRules,
					simplify: simplifyUserFound,
				}),
			},
		],
		default: 'get',
	},
	...userGetFields,
];
