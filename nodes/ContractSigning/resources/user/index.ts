import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import { simplifyUserFound, userGetRules } from './get';

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
			routing: operationRouting('/v1/user', 'read', userGetRules, {
				member: 'user',
				key: 'userKey',
				notFoundHint:
					"No user of this client matches what this node sent, or the service does not know the client. Check 'Client Key', and the 'User Key', 'Full Name', 'Email' or 'Custom Key' you find the user by.",
				simplify: simplifyUserFound,
			}),
		},
	],
	default: 'get',
};
