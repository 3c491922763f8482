import type { INodeProperties } from 'n8n-workflow';

/*
 * Fields two operations show are described once, shown for both: n8n evaluates a mapped value once
 * for each description of its name on every item, shown or not (test/behaviours/evaluations.test.mts).
 */
export const clientKeyField: INodeProperties = {
	displayName: 'Client Key',
	name: 'clientKey',
	type: 'string',
	displayOptions: { show: { resource: ['contract', 'user'] } },
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.clientKey }}',
	description:
		'Key of the client, as returned by Client → Create. Map it from an earlier step with an expression.',
};

const clientCreateOrUserGet = {
	show: { resource: ['client', 'user'], operation: ['create', 'get'] },
};

export const fullnameField: INodeProperties = {
	displayName: 'Full Name',
	name: 'fullname',
	type: 'string',
	displayOptions: clientCreateOrUserGet,
	default: '',
	placeholder: 'e.g. Nathan Smith',
	description: 'Full name of the person or company',
};

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	displayOptions: clientCreateOrUserGet,
	default: '',
	placeholder: 'e.g. nathan@example.com',
	description: 'Email address',
};

export const customKeyField: INodeProperties = {
	displayName: 'Custom Key',
	name: 'customKey',
	type: 'string',
	displayOptions: clientCreateOrUserGet,
	default: '',
	placeholder: 'e.g. crm-1042',
	description: 'Your own reference, such as the ID in your CRM. Numbers are sent as text.',
};

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	hint: 'On: one flat item with the keys the next steps map, such as clientKey. Off: the service’s full reply.',
};

export const DEFAULT_MAX_RETRIES = 20;
export const DEFAULT_MAX_WAIT_SECONDS = 300;

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Retries When Busy',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 50 },
			default: DEFAULT_MAX_RETRIES,
			description:
				'How many times to send an item again while the service says it is busy or refuses the connection. 0 fails the item at once.',
		},
		{
			displayName: 'Max Wait When Busy (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 3600 },
			default: DEFAULT_MAX_WAIT_SECONDS,
			description: 'How long to wait in all for a busy service, for each item',
		},
	],
};
