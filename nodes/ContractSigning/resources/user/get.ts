import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { EnvelopeRules } from '../../shared/envelope';
import { clientKeyField, customKeyField, emailField, fullnameField } from '../../shared/fields';

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
	},
];

export const userGetRules: EnvelopeRules = {
	fields: [clientKeyField, ...userGetDescription, fullnameField, emailField, customKeyField],
	paths: {
		clientKey: 'clientKey',
		userKey: 'user.userKey',
		fullname: 'user.fullname',
		email: 'user.email',
		customKey: 'user.customKey',
	},
	required: {
		clientKey:
			'Enter the key of the client the user belongs to, for example {{ $json.clientKey }} from a Client → Create step.',
	},
	anyOf: 'There is nothing to find the user by',
};

/** The user record, as the service returns it. */
export function simplifyUserFound(reply: IDataObject): IDataObject {
	return reply.user as IDataObject;
}
