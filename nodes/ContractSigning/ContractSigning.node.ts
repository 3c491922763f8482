import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { JSON_HEADERS } from '../../credentials/ContractSigningApi.credentials';
import { optionsField, simplifyField } from './description/settings';
import { sendEachItem } from './item/send';
import { operations } from './resources';
import { clientDescription, clientOperation } from './resources/client';
import { organizationField } from './resources/client/create';
import { contractDescription, contractOperation } from './resources/contract';
import { clientKeyField, customKeyField, emailField, fullnameField } from './resources/fields';
import { userDescription, userOperation } from './resources/user';
import { CREDENTIAL_TYPE } from './run/n8n';

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
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		requestDefaults: {
			headers: { ...JSON_HEADERS },
			// The node reads every reply itself; the API key goes to the Base URL's origin only.
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		requestOperations: { pagination: sendEachItem(operations) },
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
			// Each field once, in the order the panels show them (resources/fields.ts says why).
			clientKeyField,
			...contractDescription,
			...userDescription,
			fullnameField,
			emailField,
			organizationField,
			customKeyField,
			...clientDescription,
			simplifyField,
			optionsField,
		],
	};
}
