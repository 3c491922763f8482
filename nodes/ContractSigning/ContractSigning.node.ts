import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { clientOperation } from './resources/client';
import {
	defaultUserNotice,
	organizationField,
	usersField,
	usersInputField,
	usersListField,
} from './resources/client/create';
import { contractOperation } from './resources/contract';
import { contractNameField, templateKeyField } from './resources/contract/create';
import { userOperation } from './resources/user';
import { findUserNotice } from './resources/user/get';
import {
	clientKeyField,
	customKeyField,
	emailField,
	fullnameField,
	simplifyField,
	userKeyField,
} from './shared/fields';
import { requestRateField } from './shared/pace';
import { retryWhenBusyField } from './shared/waits';

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
		defaults: {
			name: 'Contract Signing',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'contractSigningApi',
				required: true,
			},
		],
		requestDefaults: {
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json',
			},
		},
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
			// Every field once, in the order each operation shows its own.
			clientKeyField,
			findUserNotice,
			userKeyField,
			contractNameField,
			templateKeyField,
			fullnameField,
			emailField,
			organizationField,
			customKeyField,
			usersInputField,
			defaultUserNotice,
			usersField,
			usersListField,
			simplifyField,
			retryWhenBusyField,
			requestRateField,
		],
	};
}
