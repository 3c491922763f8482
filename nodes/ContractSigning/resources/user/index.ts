import type { INodeProperties } from 'n8n-workflow';
import { handleReply, prepareEnvelope } from '../../shared/hooks';
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
				description: 'Find a user of a client by key, name, email or custom key',
				routing: {
					request: {
						method: 'POST',
						url: '/v1/user',
						body: { data: { action: 'read' } },
						ignoreHttpStatusErrors: true,
					},
					send: { preSend: [prepareEnvelope(userGetRules)] },
					output: { postReceive: [handleReply('user', simplifyUserFound)] },
				},
			},
		],
		default: 'get',
	},
	...userGetFields,
];
