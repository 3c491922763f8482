import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { JSON_HEADERS } from '../../credentials/ContractSigningApi.credentials';
import { describeResources } from './description/describe';
import { optionsField, simplifyField } from './description/settings';
import { operationRouting } from './item/send';
import { resources } from './resources';
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
		defaults: {
			name: 'Contract Signing',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
			},
		],
		requestDefaults: { headers: { ...JSON_HEADERS } },
		properties: [...describeResources(resources, operationRouting), simplifyField, optionsField],
	};
}
