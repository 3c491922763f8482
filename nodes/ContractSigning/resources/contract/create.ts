import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { EnvelopeRules } from '../../shared/envelope';
import { clientKeyField } from '../../shared/fields';

const showOnlyForContractCreate = { resource: ['contract'], operation: ['create'] };

export const contractCreateDescription: INodeProperties[] = [
	{
		displayName: 'Contract Name',
		name: 'name',
		type: 'string',
		displayOptions: { show: showOnlyForContractCreate },
		required: true,
		default: '',
		placeholder: 'e.g. Service agreement – {{ $json.organization }}',
		description: 'Name of the contract, as the signers will see it',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		displayOptions: { show: showOnlyForContractCreate },
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Template Key',
				name: 'templateKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. tpl_service_agreement',
				description:
					'Key of the template the contract is created from, as shown in the Contract Signing service',
				hint: 'The contract starts with the text and signature fields of this template',
			},
			{
				displayName: 'User Key',
				name: 'userKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.defaultUserKey }}',
				description:
					'Key of the user who creates the contract, as returned by Client → Create. Without it, the client’s default user (the first user created with the client).',
			},
		],
	},
];

export const contractCreateRules: EnvelopeRules = {
	fields: [clientKeyField, ...contractCreateDescription],
	paths: {
		clientKey: 'clientKey',
		'additionalFields.userKey': 'userKey',
		name: 'contract.name',
		'additionalFields.templateKey': 'contract.templateKey',
	},
	required: {
		clientKey:
			'Enter the key of the client the contract is for, for example {{ $json.clientKey }} from a Client → Create step.',
		'contract.name': 'Enter a name for the contract, such as "Service agreement".',
	},
	mayExist: {
		record: 'contract',
		lookFor: (data) =>
			`a contract named "${String((data.contract as IDataObject).name)}" of client ${String(data.clientKey)}`,
	},
};

/** The flat item the next steps map: the new contract's key and what it was created for. */
export function simplifyContractCreated(reply: IDataObject, envelope: IDataObject): IDataObject {
	const created = reply.contract as IDataObject;
	const sent = (envelope.data ?? {}) as IDataObject;
	const contract = (sent.contract ?? {}) as IDataObject;
	return {
		contractKey: created.contractKey,
		createTime: created.createTime,
		clientKey: sent.clientKey,
		...(sent.userKey === undefined ? {} : { userKey: sent.userKey }),
		name: contract.name,
		...(contract.templateKey === undefined ? {} : { templateKey: contract.templateKey }),
	};
}
