import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import { contractCreateRules, simplifyContractCreated } from './create';

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
			routing: operationRouting('/v1/contract', 'create', contractCreateRules, {
				member: 'contract',
				key: 'contractKey',
				notFoundHint:
					"Check the keys this node sends ('Client Key', 'User Key', 'Template Key'): the service does not know one of them.",
				simplify: simplifyContractCreated,
			}),
		},
	],
	default: 'create',
};
