import type { INodeProperties } from 'n8n-workflow';

/*
 * Fields that several operations show are defined once. n8n's routing engine evaluates the
 * expression of every field of the node's description, shown or not, on every item; a field
 * defined twice under one name is evaluated twice.
 */

const showFor = (...operations: Array<[string, string]>) => ({
	show: {
		resource: operations.map(([resource]) => resource),
		operation: operations.map(([, operation]) => operation),
	},
});

export const clientKeyField: INodeProperties = {
	displayName: 'Client Key',
	name: 'clientKey',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.clientKey }}',
	description:
		'Key of the client, as returned by Client → Create. Map it from an earlier step with an expression.',
	displayOptions: showFor(['user', 'get'], ['contract', 'create']),
};

export const userKeyField: INodeProperties = {
	displayName: 'User Key',
	name: 'userKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.defaultUserKey }}',
	description:
		'Key of the user, as returned by Client → Create. For Contract → Create, leave it empty to use the client’s default user (the first user created with the client).',
	displayOptions: showFor(['user', 'get'], ['contract', 'create']),
};

export const fullnameField: INodeProperties = {
	displayName: 'Full Name',
	name: 'fullname',
	type: 'string',
	default: '',
	placeholder: 'e.g. Ada Lovelace',
	description: 'Full name of the person or company',
	displayOptions: showFor(['client', 'create'], ['user', 'get']),
};

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	default: '',
	placeholder: 'e.g. nathan@example.com',
	description: 'Email address',
	displayOptions: showFor(['client', 'create'], ['user', 'get']),
};

export const customKeyField: INodeProperties = {
	displayName: 'Custom Key',
	name: 'customKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. crm-1042',
	description: 'Your own reference, such as the ID in your CRM. Numbers are sent as text.',
	displayOptions: showFor(['client', 'create'], ['user', 'get']),
};

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat item with the keys the next steps map (such as clientKey, userKey, contractKey) instead of the full reply of the service',
	hint: 'Off: the full reply of the service, with its code and message',
};
