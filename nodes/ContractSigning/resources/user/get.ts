import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { clientKeyField } from '../../shared/descriptions';
import { labelsFromFields, type EnvelopeRules } from '../../shared/envelope';

const showOnlyForUserGet = { show: { resource: ['user'], operation: ['get'] } };

export const userGetFields: INodeProperties[] = [
	clientKeyField(showOnlyForUserGet),
	{
		displayName:
			'Fill in at least one of the fields below. The service finds the user of this client by the fields you fill in.',
		name: 'findUserNotice',
		type: 'notice',
		default: '',
		displayOptions: showOnlyForUserGet,
	},
	{
		displayName: 'User Key',
		name: 'userKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.defaultUserKey }}',
		description: 'Key of the user, as returned by Client → Create',
		displayOptions: showOnlyForUserGet,
		routing: { send: { type: 'body', property: 'data.user.userKey' } },
	},
	{
		displayName: 'Full Name',
		name: 'fullname',
		type: 'string',
		default: '',
		placeholder: 'e.g. Ada Lovelace',
		description: 'Full name of the user',
		displayOptions: showOnlyForUserGet,
		routing: { send: { type: 'body', property: 'data.user.fullname' } },
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		placeholder: 'e.g. nathan@example.com',
		description: 'Email address of the user',
		displayOptions: showOnlyForUserGet,
		routing: { send: { type: 'body', property: 'data.user.email' } },
	},
	{
		displayName: 'Custom Key',
		name: 'customKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. crm-contact-1042',
		description: 'Your own reference for the user, as sent when the user was created',
		displayOptions: showOnlyForUserGet,
		routing: { send: { type: 'body', property: 'data.user.customKey' } },
	},
];

export const userGetRules: EnvelopeRules = {
	labels: labelsFromFields(userGetFields),
	required: [
		{
			path: 'data.clientKey',
			fix: 'Enter the key of the client the user belongs to, for example {{ $json.clientKey }} from a Client → Create step.',
		},
	],
	anyOf: {
		paths: ['data.user.userKey', 'data.user.fullname', 'data.user.email', 'data.user.customKey'],
		message: 'There is nothing to find the user by',
		fix: 'Fill in at least one of User Key, Full Name, Email or Custom Key.',
	},
};

/** The user record, as the service returns it. */
export function simplifyUserFound(reply: IDataObject): IDataObject {
	return reply.user as IDataObject;
}
