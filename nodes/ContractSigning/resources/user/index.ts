import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import { simplifyUserFound, userGetFields, userGetRules } from './get';

/** The operations of the User resource. */
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
			action: 'Get a user of a client',
			description:
				'Find a user of a client. Needs clientKey and at least one of userKey, full name, email or custom key. Returns the user record with userKey.',
			routing: operationRouting({
				url: '/v1/user',
				action: 'read',
				resource: 'user',
				fields: userGetFields,
				rules: userGetRules,
				simplify: simplifyUserFound,
			}),
		},
	],
	default: 'get',
};
