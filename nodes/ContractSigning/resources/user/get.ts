import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { clientKeyField, customKeyField, emailField, fullnameField } from '../fields';
import type { Operation } from '../../description/operation';

const showOnlyForUserGet = { resource: ['user'], operation: ['get'] };

const userKeyField: INodeProperties = {
	displayName: 'User Key',
	name: 'userKey',
	type: 'string',
	displayOptions: { show: showOnlyForUserGet },
	default: '',
	placeholder: 'e.g. {{ $json.defaultUserKey }}',
	description: 'Key of the user, as returned by Client → Create',
};

export const userGetDescription: INodeProperties[] = [
	{
		displayName:
			'Fill in at least one of the fields below. The service finds the user of this client by the fields you fill in.',
		name: 'findUserNotice',
		type: 'notice',
		displayOptions: { show: showOnlyForUserGet },
		default: '',
	},
	userKeyField,
];

/** The user record, as the service returns it. */
export function simplifyUserFound(reply: IDataObject): IDataObject {
	return reply.user as IDataObject;
}

export const userGet: Operation = {
	action: 'read',
	fields: [
		{ property: clientKeyField, path: 'data.clientKey' },
		{ property: userKeyField, path: 'data.user.userKey' },
		{ property: fullnameField, path: 'data.user.fullname' },
		{ property: emailField, path: 'data.user.email' },
		{ property: customKeyField, path: 'data.user.customKey' },
	],
	rules: {
		required: [
			{
				path: 'data.clientKey',
				fix: 'Enter the key of the client the user belongs to, for example {{ $json.clientKey }} from a Client → Create step.',
			},
		],
		anyOf: {
			paths: ['data.user.userKey', 'data.user.fullname', 'data.user.email', 'data.user.customKey'],
			message: 'There is nothing to find the user by',
			fix: "Fill in at least one of 'User Key', 'Full Name', 'Email' or 'Custom Key'.",
		},
		emails: ['data.user.email'],
	},
	record: { member: 'user', key: 'userKey' },
	notFoundHint:
		"No user of this client matches what this node sent, or the service does not know the client. Check 'Client Key', and the 'User Key', 'Full Name', 'Email' or 'Custom Key' you find the user by.",
	creates: false,
	simplify: simplifyUserFound,
};
