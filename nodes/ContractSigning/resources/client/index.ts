import type { INodeProperties } from 'n8n-workflow';
import { handleReply, prepareEnvelope } from '../../shared/hooks';
import {
	clientCreateFields,
	clientCreateRules,
	normalizeClientBody,
	simplifyClientCreated,
} from './create';

export const clientDescription: INodeProperties[] = [
	{
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
					'Create a client, optionally with its users; returns the client key and user keys',
				routing: {
					request: {
						method: 'POST',
						url: '/v1/client',
						body: { data: { action: 'create' } },
						ignoreHttpStatusErrors: true,
					},
					send: { preSend: [prepareEnvelope(clientCreateRules, normalizeClientBody)] },
					output: { postReceive: [handleReply('client', simplifyClientCreated)] },
				},
			},
		],
		default: 'create',
	},
	...clientCreateFields,
];
