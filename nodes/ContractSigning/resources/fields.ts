import type { INodeProperties } from 'n8n-workflow';

/*
 * Fields that several operations show with the same meaning, each described once: n8n's routing
 * evaluates every field of the description for every item, shown or not, so a field described
 * twice under one name would be evaluated twice as often (test/behaviours/evaluations.test.mts).
 */

export const clientKeyField: INodeProperties = {
	displayName: 'Client Key',
	name: 'clientKey',
	type: 'string',
	// Every request of a contract or a user names its client.
	displayOptions: { show: { resource: ['contract', 'user'] } },
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
	displayOptions: { show: { resource: ['client', 'user'], operation: ['create', 'get'] } },
	default: '',
	placeholder: 'e.g. Nathan Smith',
	description: 'Full name of the person or company',
};

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	displayOptions: { show: { resource: ['client', 'user'], operation: ['create', 'get'] } },
	default: '',
	placeholder: 'e.g. nathan@example.com',
	description: 'Email address',
};

export const customKeyField: INodeProperties = {
	displayName: 'Custom Key',
	name: 'customKey',
	type: 'string',
	displayOptions: { show: { resource: ['client', 'user'], operation: ['create', 'get'] } },
	default: '',
	placeholder: 'e.g. crm-1042',
	description: 'Your own reference, such as the ID in your CRM. Numbers are sent as text.',
};
