import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { clientKeyField } from '../fields';
import { mayExistHint, type Operation } from '../../description/operation';

const showOnlyForContractCreate = { resource: ['contract'], operation: ['create'] };

const contractNameField: INodeProperties = {
	displayName: 'Contract Name',
	name: 'name',
	type: 'string',
	displayOptions: { show: showOnlyForContractCreate },
	required: true,
	default: '',
	placeholder: 'e.g. Service agreement – {{ $json.organization }}',
	description: 'Name of the contract, as the signers will see it',
};

const additionalFields: INodeProperties = {
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
				'Key of the user the contract is for, as returned by Client → Create. Without it, the client’s default user (the first user created with the client).',
		},
	],
};

export const contractCreateDescription: INodeProperties[] = [contractNameField, additionalFields];

/** The flat item the next steps map: the new contract's key and what it was created for. */
export function simplifyContractCreated(reply: IDataObject, envelope: IDataObject): IDataObject {
	const created = reply.contract as IDataObject;
	const data = (envelope.data ?? {}) as IDataObject;
	const contract = (data.contract ?? {}) as IDataObject;
	return {
		contractKey: created.contractKey,
		createTime: created.createTime,
		clientKey: data.clientKey,
		...(data.userKey === undefined ? {} : { userKey: data.userKey }),
		name: contract.name,
		...(contract.templateKey === undefined ? {} : { templateKey: contract.templateKey }),
	};
}

/** Where to look for a contract the service may have created without confirming it. */
export function contractMayExist(envelope: IDataObject): string {
	const data = (envelope.data ?? {}) as IDataObject;
	const contract = (data.contract ?? {}) as IDataObject;
	return mayExistHint(
		'contract',
		`a contract named "${String(contract.name)}" of client ${String(data.clientKey)}`,
	);
}

export const contractCreate: Operation = {
	action: 'create',
	fields: [
		{ property: clientKeyField, path: 'data.clientKey' },
		{ property: contractNameField, path: 'data.contract.name' },
		{
			property: additionalFields,
			paths: { templateKey: 'data.contract.templateKey', userKey: 'data.userKey' },
		},
	],
	rules: {
		required: [
			{
				path: 'data.clientKey',
				fix: 'Enter the key of the client the contract is for, for example {{ $json.clientKey }} from a Client → Create step.',
			},
			{
				path: 'data.contract.name',
				fix: 'Enter a name for the contract, such as "Service agreement".',
			},
		],
	},
	record: { member: 'contract', key: 'contractKey' },
	notFoundHint:
		"Check the keys this node sends ('Client Key', 'User Key', 'Template Key'): the service does not know one of them.",
	creates: { mayExist: contractMayExist },
	simplify: simplifyContractCreated,
};
