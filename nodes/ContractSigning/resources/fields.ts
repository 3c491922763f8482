import type { INodeProperties } from 'n8n-workflow';

/*
 * Fields that several operations list with the same meaning, defined once: description/describe.ts
 * shows each on the panels of the operations that list it, described once.
 */

export const clientKeyField: INodeProperties = {
	displayName: 'Client Key',
	name: 'clientKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.clientKey }}',
	description:
		'Key of the client, as returned by Client → Create. Map it from an earlier step with an expression.',
};

export const fullnameField: INodeProperties = {
	displayName: 'Full Name',
	name: 'fullname',
	type: 'string',
	default: '',
	placeholder: 'e.g. Nathan Smith',
	description: 'Full name of the person or company',
};

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	default: '',
	placeholder: 'e.g. nathan@example.com',
	description: 'Email address',
};

export const customKeyField: INodeProperties = {
	displayName: 'Custom Key',
	name: 'customKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. crm-1042',
	description: 'Your own reference, such as the ID in your CRM. Numbers are sent as text.',
};
