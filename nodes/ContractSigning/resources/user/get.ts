import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { EnvelopeRules } from '../../shared/envelope';
import { customKeyField, emailField, fullnameField } from '../../shared/fields';

const showOnlyForUserGet = { resource: ['user'], operation: ['get'] };

export const userGetDescription: INodeProperties[] = [
	{
		displayName:
			'Fill in at least one of the fields below. The service finds the user of this client by the fields you fill in.',
		name: 'findUserNotice',
		type: 'notice',
		displayOptions: { show: showOnlyForUserGet },
		default: '',
	},
	{
		displayName: 'User Key',
		name: 'userKey',
		type: 'string',
		displayOptions: { show: showOnlyForUserGet },
		default: '',
		placeholder: 'e.g. {{ $json.defaultUserKey }}',
		description: 'Key of the user, as returned by Client → Create',
		routing: { send: { type: 'body', property: 'data.user.userKey' } },
	},
	{
		...fullnameField,
		displayOptions: { show: showOnlyForUserGet },
		routing: { send: { type: 'body', property: 'data.user.fullname' } },
	},
	{
		...emailField,
		displayOptions: { show: showOnlyForUserGet },
		routing: { send: { type: 'body', property: 'data.user.email' } },
	},
	{
		...customKeyField,
		displayOptions: { show: showOnlyForUserGet },
		routing: { send: { type: 'body', property: 'data.user.customKey' } },
	},
];

export const userGetRules: EnvelopeRules = {
	labels: {
		clientKey: 'Client Key',
		'user.userKey': 'User Key',
		'user.fullname': 'Full Name',
		'user.email': 'Email',
		'user.customKey': 'Custom Key',
	},
	required: [
		{
			path: 'clientKey',
			fix: 'Enter the key of the client the user belongs to, for example {{ $json.clientKey }} from a Client → Create step.',
		},
	],
	anyOf: {
		paths: ['user.userKey', 'user.fullname', 'user.email', 'user.customKey'],
		message: 'There is nothing to find the user by',
		fix: "Fill in at least one of 'User Key', 'Full Name', 'Email' or 'Custom Key'.",
	},
	emails: ['user.email'],
};

/** The user record, as the service returns it. */
export function simplifyUserFound(reply: IDataObject): IDataObject {
	return reply.user as IDataObject;
}
