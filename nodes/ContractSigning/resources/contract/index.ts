import type { INodeProperties } from 'n8n-workflow';
import { handleReply, prepareEnvelope } from '../../shared/hooks';
import { contractCreateFields, contractCreateRules, simplifyContractCreated } from './create';

export const contractDescription: INodeProperties[] = [
	{
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
					'Create a contract for a client, optionally from a template; returns the contract key',
				routing: {
					request: {
						method: 'POST',
						url: '/v1/contract',
						body: { data: { action: 'create' } },
						ignoreHttpStatusErrors: true,
					},
					send: { preSend: [prepareEnvelope(contractCreateRules)] },
					output: { postReceive: [handleReply('contract', simplifyContractCreated)] },
				},
			},
		],
		default: 'create',
	},
	...contractCreateFields,
];
