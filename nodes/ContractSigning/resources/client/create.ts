import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { customKeyField, emailField, fullnameField } from '../fields';
import { mayExistHint, quoted, type Operation } from '../../description/operation';

const showOnlyForClientCreate = { resource: ['client'], operation: ['create'] };

const userValues: INodeProperties[] = [
	{
		displayName: 'Full Name',
		name: 'fullname',
		type: 'string',
		default: '',
		placeholder: 'e.g. Nathan Smith',
		description: 'Full name of the person or company',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		default: '',
		placeholder: 'e.g. nathan@example.com',
		description: 'Email address',
	},
	{
		displayName: 'Custom Key',
		name: 'customKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. crm-contact-1042',
		description: 'Your own reference for the user, such as the contact ID in your CRM',
	},
];

export const organizationField: INodeProperties = {
	displayName: 'Organization',
	name: 'organization',
	type: 'string',
	displayOptions: { show: showOnlyForClientCreate },
	default: '',
	placeholder: 'e.g. Analytical Engines Ltd',
	description: 'Name of the client’s organization',
};

const usersField: INodeProperties = {
	displayName: 'Users',
	name: 'users',
	type: 'fixedCollection',
	displayOptions: { show: { ...showOnlyForClientCreate, usersInput: ['fields'] } },
	placeholder: 'Add User',
	typeOptions: { multipleValues: true, sortable: true },
	default: {},
	description: 'Users created together with the client. The first one is the default user.',
	options: [{ displayName: 'User', name: 'user', values: userValues }],
};

const usersListField: INodeProperties = {
	displayName: 'Users',
	name: 'usersList',
	type: 'json',
	displayOptions: { show: { ...showOnlyForClientCreate, usersInput: ['list'] } },
	default: '[]',
	placeholder: 'e.g. {{ $json.contacts.map(c => ({ fullname: c.name, email: c.email })) }}',
	description:
		'A list of users, each an object with fullname, email and/or customKey. The first one is the default user.',
};

export const clientCreateDescription: INodeProperties[] = [
	{
		displayName: 'Add Users',
		name: 'usersInput',
		type: 'options',
		displayOptions: { show: showOnlyForClientCreate },
		noDataExpression: true,
		options: [
			{
				name: 'From a List',
				value: 'list',
				description:
					'Give a list of users with an expression, such as the contacts of a CRM record',
			},
			{ name: 'One by One', value: 'fields', description: 'Enter each user in the fields below' },
		],
		default: 'fields',
	},
	{
		displayName:
			'The first user becomes the client’s default user: contracts created without a User Key are created by this user',
		name: 'defaultUserNotice',
		type: 'notice',
		displayOptions: { show: showOnlyForClientCreate },
		default: '',
	},
	usersField,
	usersListField,
];

/** The flat item the next steps map: keys first, then what was sent for the client and each user. */
export function simplifyClientCreated(reply: IDataObject, envelope: IDataObject): IDataObject {
	const created = reply.client as IDataObject;
	const sent = ((envelope.data as IDataObject | undefined)?.client ?? {}) as IDataObject;
	const { users: sentUsers = [], ...clientFields } = sent as { users?: IDataObject[] };
	const createdUsers = (Array.isArray(created.users) ? created.users : []) as unknown[];
	const users = createdUsers.map((user, index) => {
		// The client exists by now: an odd user entry must not make its keys get lost.
		const entry = (typeof user === 'object' && user !== null ? user : {}) as IDataObject;
		return {
			userKey: entry.userKey,
			default: entry.default,
			createTime: entry.createTime,
			...sentUsers[index],
		};
	});
	const defaultUser = users.find((user) => user.default === true);
	return {
		clientKey: created.clientKey,
		createTime: created.createTime,
		...(defaultUser ? { defaultUserKey: defaultUser.userKey } : {}),
		...clientFields,
		users,
	};
}

const clientIdentity: Array<[string, string]> = [
	['customKey', 'Custom Key'],
	['email', 'Email'],
	['fullname', 'Full Name'],
	['organization', 'Organization'],
];

/** Where to look for a client the service may have created without confirming it. */
function clientMayExist(envelope: IDataObject): string {
	const client = ((envelope.data as IDataObject | undefined)?.client ?? {}) as IDataObject;
	const known = clientIdentity.find(([key]) => typeof client[key] === 'string');
	const which = known ? ` with ${quoted(known[1])} "${String(client[known[0]])}"` : '';
	return mayExistHint('client', `a client${which}`);
}

export const clientCreate: Operation = {
	action: 'create',
	fields: [
		{ property: fullnameField, path: 'data.client.fullname' },
		{ property: emailField, path: 'data.client.email' },
		{ property: organizationField, path: 'data.client.organization' },
		{ property: customKeyField, path: 'data.client.customKey' },
		{ property: usersField, path: 'data.client.users' },
		{ property: usersListField, path: 'data.client.users' },
	],
	rules: {
		anyOf: {
			paths: [
				'data.client.fullname',
				'data.client.email',
				'data.client.organization',
				'data.client.customKey',
				'data.client.users',
			],
			message: 'There is nothing to create the client from',
			fix: "Fill in at least one of 'Full Name', 'Email', 'Organization', 'Custom Key' or 'Users'.",
		},
		emails: ['data.client.email', 'data.client.users[].email'],
	},
	record: { member: 'client', key: 'clientKey' },
	notFoundHint: "Check 'Base URL' in the Contract Signing credential.",
	creates: { mayExist: clientMayExist },
	simplify: simplifyClientCreated,
};
