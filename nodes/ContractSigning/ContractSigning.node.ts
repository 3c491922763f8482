import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { clientOperation } from './resources/client';
import { clientCreateDescription } from './resources/client/create';
import { contractOperation } from './resources/contract';
import { contractCreateDescription } from './resources/contract/create';
import { userOperation } from './resources/user';
import { userGetDescription } from './resources/user/get';
import { clientKeyField, optionsField, simplifyField } from './shared/fields';
import { sendItem } from './shared/send';

export class ContractSigning implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Contract Signing',
		name: 'contractSigning',
		icon: {
			light: 'file:../../icons/contract-signing.svg',
			dark: 'file:../../icons/contract-signing.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Create clients with their users, find users and create contracts from templates in the Contract Signing service',
		defaults: { name: 'Contract Signing' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contractSigningApi', required: true }],
		requestDefaults: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/v1$/i, "") }}',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			// Every reply reaches the operation's postReceive; the key never follows a redirect.
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		requestOperations: { pagination: sendItem },
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Client', value: 'client' },
					{ name: 'Contract', value: 'contract' },
					{ name: 'User', value: 'user' },
				],
				default: 'client',
			},
			clientOperation,
			contractOperation,
			userOperation,
			clientKeyField,
			...userGetDescription,
			...clientCreateDescription,
			...contractCreateDescription,
			simplifyField,
			optionsField,
		],
	};
}
