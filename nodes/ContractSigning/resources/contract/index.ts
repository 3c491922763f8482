import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import {
	contractCreateFields,
	contractCreateRules,
	contractMayExist,
	simplifyContractCreated,
} from './create';

/** The operations of the Contract resource. */
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
			action: 'Create a contract for a client',
			description:
				'Create a contract for a client. Needs clientKey and a contract name; templateKey and userKey are optional (default: the client’s default user). Returns contractKey.',
			routing: operationRouting({
				url: '/v1/contract',
				action: 'create',
				resource: 'contract',
				fields: contractCreateFields,
				rules: contractCreateRules,
				simplify: simplifyContractCreated,
				mayExist: contractMayExist,
			}),
		},
	],
	default: 'create',
};
