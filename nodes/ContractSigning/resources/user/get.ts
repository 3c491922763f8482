import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { labelsFromFields, type EnvelopeRules, type WireField } from '../../shared/envelope';
import {
	clientKeyField,
	customKeyField,
	emailField,
	fullnameField,
	userKeyField,
} from '../../shared/fields';

export const findUserNotice: INodeProperties = {
	displayName:
		'Fill in at least one of the fields below. The service finds the user of this client by the fields you fill in.',
	name: 'findUserNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { resource: ['user'], operation: ['get'] } },
};

export const userGetFields: WireField[] = [
	{ property: clientKeyField, path: 'data.clientKey' },
	{ property: userKeyField, path: 'data.user.userKey' },
	{ property: fullnameField, path: 'data.user.fullname' },
	{ property: emailField, path: 'data.user.email' },
	{ property: customKeyField, path: 'data.user.customKey' },
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
