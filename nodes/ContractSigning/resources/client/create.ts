import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { EnvelopeRules } from '../../shared/envelope';
import { customKeyField, emailField, fullnameField } from '../../shared/fields';

const showOnlyForClientCreate = { resource: ['client'], operation: ['create'] };

/** Each user's fields: the client's own, shown in every row. */
const userValues: INodeProperties[] = [fullnameField, emailField, customKeyField].map((field) => ({
	...field,
	displayOptions: undefined,
}));

const organizationField: INodeProperties = {
	displayName: 'Organization',
	name: 'organization',
	type: 'string',
	displayOptions: { show: showOnlyForClientCreate },
	default: '',
	placeholder: 'e.g. Analytical Engines Ltd',
	description: 'Name of the client’s organization',
};

export const clientCreateDescription: INodeProperties[] = [
	fullnameField,
	emailField,
	organizationField,
	customKeyField,
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
	{
		displayName: 'Users',
		name: 'users',
		type: 'fixedCollection',
		displayOptions: { show: { ...showOnlyForClientCreate, usersInput: ['fields'] } },
		placeholder: 'Add User',
		typeOptions: { multipleValues: true, sortable: true },
		default: {},
		description: 'Users created together with the client. The first one is the default user.',
		options: [{ displayName: 'User', name: 'user', values: userValues }],
	},
	{
		displayName: 'Users',
		name: 'usersList',
		type: 'json',
		displayOptions: { show: { ...showOnlyForClientCreate, usersInput: ['list'] } },
		default: '[]',
		placeholder: 'e.g. {{ $json.contacts.map(c => ({ fullname: c.name, email: c.email })) }}',
		description:
			'A list of users, each an object with fullname, email and/or customKey. The first one is the default user.',
	},
];

function clientToLookFor(data: IDataObject): string {
	const client = (data.client ?? {}) as IDataObject;
	const known = [customKeyField, emailField, fullnameField, organizationField].find(
		({ name }) => typeof client[name] === 'string',
	);
	return known
		? `a client with '${known.displayName}' "${String(client[known.name])}"`
		: 'a client';
}

export const clientCreateRules: EnvelopeRules = {
	fields: clientCreateDescription,
	paths: {
		fullname: 'client.fullname',
		email: 'client.email',
		organization: 'client.organization',
		customKey: 'client.customKey',
		users: 'client.users',
		usersList: 'client.users',
	},
	list: { path: 'client.users', group: 'user', entries: userValues },
	anyOf: 'There is nothing to create the client from',
	mayExist: { record: 'client', lookFor: clientToLookFor },
};

/** The flat item the next steps map: keys first, then what was sent for the client and each user. */
export function simplifyClientCreated(reply: IDataObject, envelope: IDataObject): IDataObject {
	const created = reply.client as IDataObject;
	const sent = ((envelope.data as IDataObject | undefined)?.client ?? {}) as IDataObject;
	const { users: sentUsers = [], ...clientFields } = sent as { users?: IDataObject[] };
	const createdUsers = (Array.isArray(created.users) ? created.users : []) as IDataObject[];
	const users = createdUsers.map((user, index) => ({
		userKey: user?.userKey,
		default: user?.default,
		createTime: user?.createTime,
		...sentUsers[index],
	}));
	const defaultUser = users.find((user) => user.default === true);
	return {
		clientKey: created.clientKey,
		createTime: created.createTime,
		...(defaultUser ? { defaultUserKey: defaultUser.userKey } : {}),
		...clientFields,
		users,
	};
}
