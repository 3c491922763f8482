import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import { clientCreateRules, simplifyClientCreated } from './create';

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
			routing: operationRouting('/v1/client', 'create', clientCreateRules, {
				member: 'client',
				key: 'clientKey',
				notFoundHint: "Check 'Base URL' in the Contract Signing credential.",
				simplify: simplifyClientCreated,
			}),
		},
	],
	default: 'create',
};
