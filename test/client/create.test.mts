import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { simplifyClientCreated } from '../../nodes/ContractSigning/resources/client/create';
import { outputSchema, runStep, useStandIn } from '../helpers.mts';
import {
	A_DATE,
	A_DATE_TEXT,
	describeBadInput,
	LONG_TEXT,
	NON_ASCII,
	type BadInputCase,
} from '../scenarios/bad-input.mts';

const service = useStandIn();
const createClient = { resource: 'client', operation: 'create' };

describe('Client → Create', () => {
	it('sends POST /v1/client with the key header and only the filled-in fields', async () => {
		const { items, error } = await runStep(
			service(),
			{
				...createClient,
				fullname: '  Ada Lovelace ',
				email: 'ada@example.com',
				organization: '',
				customKey: '={{ $json.crmId }}',
				users: {
					user: [
						{ fullname: 'Ada Lovelace', email: 'ada@example.com', customKey: '' },
						{ fullname: 'Charles Babbage', email: '', customKey: 'crm-7' },
					],
				},
			},
			{ items: [{ crmId: 1042 }] },
		);

		expect(error).toBeUndefined();
		expect(service().requests).toHaveLength(1);
		const [request] = service().requests;
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/client');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-service-key']).toBe(service().apiKey);
		expect(request.body).toEqual({
			data: {
				action: 'create',
				client: {
					fullname: 'Ada Lovelace',
					email: 'ada@example.com',
					customKey: '1042',
					users: [
						{ fullname: 'Ada Lovelace', email: 'ada@example.com' },
						{ fullname: 'Charles Babbage', customKey: 'crm-7' },
					],
				},
			},
		});
		expect(items).toHaveLength(1);
	});

	it('puts the client key, the default user key and each user at the top of the output', async () => {
		const { items } = await runStep(service(), {
			...createClient,
			organization: 'Analytical Engines Ltd',
			users: { user: [{ fullname: 'Ada Lovelace' }, { email: 'charles@example.com' }] },
		});

		const [stored] = service().clients();
		const [first, second] = stored.users;
		expect(items).toEqual([
			{
				clientKey: stored.clientKey,
				createTime: stored.createTime,
				defaultUserKey: first.userKey,
				organization: 'Analytical Engines Ltd',
				users: [
					{
						userKey: first.userKey,
						default: true,
						createTime: first.createTime,
						fullname: 'Ada Lovelace',
					},
					{
						userKey: second.userKey,
						default: false,
						createTime: second.createTime,
						email: 'charles@example.com',
					},
				],
			},
		]);
	});

	it('takes users as a list from an expression, such as the contacts of a CRM record', async () => {
		const contacts = [
			{ name: 'Ada Lovelace', mail: 'ada@example.com', id: 11 },
			{ name: 'Charles Babbage', mail: 'charles@example.com', id: 12 },
		];
		const { items, error } = await runStep(
			service(),
			{
				...createClient,
				organization: '={{ $json.company }}',
				usersInput: 'list',
				usersList:
					'={{ $json.contacts.map(c => ({ fullname: c.name, email: c.mail, customKey: c.id })) }}',
			},
			{ items: [{ company: 'Analytical Engines Ltd', contacts }] },
		);

		expect(error).toBeUndefined();
		expect(service().requests[0].body).toEqual({
			data: {
				action: 'create',
				client: {
					organization: 'Analytical Engines Ltd',
					users: [
						{ fullname: 'Ada Lovelace', email: 'ada@example.com', customKey: '11' },
						{ fullname: 'Charles Babbage', email: 'charles@example.com', customKey: '12' },
					],
				},
			},
		});
		expect(items[0].users).toHaveLength(2);
	});

	it('sends only the Users field that Add Users shows, whatever the other still holds', async () => {
		const rows = { user: [{ fullname: 'Ada Lovelace' }] };
		const list = '[{ "fullname": "Charles Babbage" }]';
		for (const [usersInput, sent] of [
			['fields', 'Ada Lovelace'],
			['list', 'Charles Babbage'],
		]) {
			service().reset();
			const { error } = await runStep(service(), {
				...createClient,
				usersInput,
				users: rows,
				usersList: list,
			});
			expect(error).toBeUndefined();
			expect(service().requests[0].body).toEqual({
				data: { action: 'create', client: { users: [{ fullname: sent }] } },
			});
		}
	});

	it('takes users as JSON text', async () => {
		const { error } = await runStep(service(), {
			...createClient,
			usersInput: 'list',
			usersList: '[{ "fullname": "Ada Lovelace" }]',
		});

		expect(error).toBeUndefined();
		expect(service().requests[0].body).toEqual({
			data: { action: 'create', client: { users: [{ fullname: 'Ada Lovelace' }] } },
		});
	});

	it('gives the full reply of the service when Simplify is off', async () => {
		const { items } = await runStep(service(), {
			...createClient,
			fullname: 'Ada Lovelace',
			simple: false,
		});

		const [stored] = service().clients();
		expect(items).toEqual([
			{
				code: '201',
				message: 'Client created',
				client: { clientKey: stored.clientKey, createTime: stored.createTime, users: [] },
			},
		]);
	});

	it('sends one request per input item and returns one item per input item, in order', async () => {
		const { items } = await runStep(
			service(),
			{ ...createClient, fullname: '={{ $json.name }}' },
			{ items: [{ name: 'First' }, { name: 'Second' }, { name: 'Third' }] },
		);

		expect(items.map((item) => item.fullname)).toEqual(['First', 'Second', 'Third']);
		expect(service().counts().clients).toBe(3);
	});

	describe('refuses, before any request, input the service can never accept', () => {
		it.each([
			[
				'no field at all',
				{ users: { user: [] } },
				'There is nothing to create the client from',
				"Fill in at least one of 'Full Name', 'Email', 'Organization', 'Custom Key' or 'Users'.",
			],
			[
				'a client email that is not an address',
				{ email: 'ada.example.com' },
				`'Email' "ada.example.com" is not an email address`,
				"Enter an address such as name@example.com in 'Email', or leave it empty.",
			],
			[
				'a user email that is not an address',
				{ users: { user: [{ fullname: 'Ada' }, { email: 'charles at example' }] } },
				`'Users', entry 2: 'Email' "charles at example" is not an email address`,
				"Enter an address such as name@example.com in 'Users', entry 2: 'Email', or leave it empty.",
			],
			[
				'an empty user row',
				{ fullname: 'Ada', users: { user: [{ fullname: ' ', email: '' }] } },
				"'Users', entry 1 is empty",
				"Fill in at least one field of 'Users', entry 1, or remove it.",
			],
		])('%s', async (_case, fields, message, description) => {
			const { error, items } = await runStep(service(), { ...createClient, ...fields });

			expect(error?.message).toBe(message);
			expect(error?.description).toBe(description);
			expect(items).toEqual([]);
			expect(service().requests).toHaveLength(0);
		});

		it.each([
			[
				'a list entry with a field the service does not take',
				'={{ [{ fullname: "Ada", phone: "123" }] }}',
				`'Users', entry 1 has a field "phone" that the service does not accept`,
			],
			[
				'a list that is not a list',
				'={{ { fullname: "Ada" } }}',
				"'Users' must be a list, but it is an object",
			],
			['JSON text that does not parse', '[{ "fullname": "Ada" ', "'Users' is not a valid list"],
			[
				'a list entry that is text',
				'={{ ["Ada"] }}',
				"'Users', entry 1 must be an object, but it is a string",
			],
		])('users from a list: %s', async (_case, usersList, message) => {
			const { error } = await runStep(service(), {
				...createClient,
				usersInput: 'list',
				usersList,
			});

			expect(error?.message).toBe(message);
			expect(service().requests).toHaveLength(0);
		});

		it('names the fields an entry of Users takes when an entry is not an object', async () => {
			const { error } = await runStep(service(), {
				...createClient,
				usersInput: 'list',
				usersList: '={{ ["Ada"] }}',
			});

			expect(error?.description).toBe(
				"Give each entry of 'Users' as an object with one or more of 'fullname', 'email', 'customKey'.",
			);
		});
	});

	it('shows the service’s own message when it refuses the request', async () => {
		const { error, items } = await runStep(
			service(),
			{ ...createClient, fullname: 'Ada Lovelace' },
			{ credentials: { apiKey: 'not-the-key' } },
		);

		expect(error?.message).toBe('Invalid service key');
		expect(error?.description).toBe(
			"The service refused the API key. Check 'API Key' in the Contract Signing credential.",
		);
		expect(items).toEqual([]);
	});
});

describe('Client → Create, its simplified output', () => {
	it('keys first, then the sent fields; each user with what was sent for it', () => {
		const reply = {
			code: '201',
			message: 'Client created',
			client: {
				clientKey: 'cli_1',
				createTime: 't0',
				users: [
					{ userKey: 'usr_1', default: false, createTime: 't1' },
					{ userKey: 'usr_2', default: true, createTime: 't2' },
				],
			},
		};
		const sent = {
			data: {
				action: 'create',
				client: { email: 'ada@example.com', users: [{ fullname: 'Ada' }, { customKey: 'k2' }] },
			},
		};
		expect(simplifyClientCreated(reply, sent)).toEqual({
			clientKey: 'cli_1',
			createTime: 't0',
			defaultUserKey: 'usr_2',
			email: 'ada@example.com',
			users: [
				{ userKey: 'usr_1', default: false, createTime: 't1', fullname: 'Ada' },
				{ userKey: 'usr_2', default: true, createTime: 't2', customKey: 'k2' },
			],
		});
	});

	it('without users has no default user key', () => {
		const reply = { client: { clientKey: 'cli_1', createTime: 't0', users: [] } };
		expect(simplifyClientCreated(reply, { data: { client: { fullname: 'Ada' } } })).toEqual({
			clientKey: 'cli_1',
			createTime: 't0',
			fullname: 'Ada',
			users: [],
		});
	});

	it('lists every key of the output in the schema the editor shows before a run', () => {
		const client = simplifyClientCreated(
			{
				client: {
					clientKey: 'c',
					createTime: 't',
					users: [{ userKey: 'u', default: true, createTime: 't' }],
				},
			},
			{
				data: {
					client: {
						fullname: 'A',
						email: 'a@b.co',
						organization: 'O',
						customKey: 'k',
						users: [{ fullname: 'A', email: 'a@b.co', customKey: 'k' }],
					},
				},
			},
		);
		const clientSchema = outputSchema('client/create.json');
		expect(Object.keys(clientSchema.properties)).toEqual(Object.keys(client));
		expect(Object.keys(clientSchema.properties.users.items!.properties)).toEqual(
			Object.keys((client.users as object[])[0]),
		);
	});
});

const client = (fields: IDataObject) => () => ({
	resource: 'client',
	operation: 'create',
	...fields,
});
const clientList = (usersList: string, fields: IDataObject = { fullname: 'Ada' }) =>
	client({ ...fields, usersInput: 'list', usersList });
const sentClient = (client: IDataObject) => () => ({ data: { action: 'create', client } });

const badInput: BadInputCase[] = [
	{
		name: 'client: no field at all',
		parameters: client({}),
		expect: { refuses: 'There is nothing to create the client from' },
	},
	{
		name: 'client: whitespace-only full name and nothing else',
		parameters: client({ fullname: '   ' }),
		expect: { refuses: 'There is nothing to create the client from' },
	},
	{
		name: 'client: full name from a number',
		parameters: client({ fullname: '={{ 42 }}' }),
		expect: { sends: sentClient({ fullname: '42' }) },
	},
	{
		name: 'client: full name from an object',
		parameters: client({ fullname: '={{ { first: "Ada" } }}' }),
		expect: { refuses: "'Full Name' must be text, but it is an object" },
	},
	{
		name: 'client: full name from a list',
		parameters: client({ fullname: '={{ ["Ada"] }}' }),
		expect: { refuses: "'Full Name' must be text, but it is a list" },
	},
	{
		name: 'client: full name from a boolean',
		parameters: client({ fullname: '={{ true }}' }),
		expect: { refuses: "'Full Name' must be text, but it is the value true" },
	},
	{
		name: 'client: over-long full name',
		parameters: client({ fullname: LONG_TEXT }),
		expect: { sends: sentClient({ fullname: LONG_TEXT }) },
	},
	{
		name: 'client: non-ASCII full name',
		parameters: client({ fullname: NON_ASCII }),
		expect: { sends: sentClient({ fullname: NON_ASCII }) },
	},
	{
		name: 'client: email with spaces around',
		parameters: client({ email: '  ada@example.com\t' }),
		expect: { sends: sentClient({ email: 'ada@example.com' }) },
	},
	{
		name: 'client: email without a domain',
		parameters: client({ email: 'ada@' }),
		expect: { refuses: `'Email' "ada@" is not an email address` },
	},
	{
		name: 'client: email from a number',
		parameters: client({ email: '={{ 12345 }}' }),
		expect: { refuses: `'Email' "12345" is not an email address` },
	},
	{
		name: 'client: organization from an expression that gives nothing',
		parameters: client({ fullname: 'Ada', organization: '={{ $json.company }}' }),
		item: {},
		expect: { sends: sentClient({ fullname: 'Ada' }) },
	},
	{
		name: 'client: custom key from a decimal number',
		parameters: client({ customKey: '={{ $json.id }}' }),
		item: { id: 10.5 },
		expect: { sends: sentClient({ customKey: '10.5' }) },
	},
	{
		name: 'client: custom key that is not a number',
		parameters: client({ customKey: '={{ 0 / 0 }}' }),
		expect: { refuses: "'Custom Key' must be text, but it is the number NaN" },
	},
	{
		name: 'client: users row with only blanks',
		parameters: client({
			fullname: 'Ada',
			users: { user: [{ fullname: ' ', email: '', customKey: '' }] },
		}),
		expect: { refuses: "'Users', entry 1 is empty" },
	},
	{
		name: 'client: users row with a number as custom key',
		parameters: client({ users: { user: [{ customKey: '={{ 7 }}' }] } }),
		expect: { sends: sentClient({ users: [{ customKey: '7' }] }) },
	},
	{
		name: 'client: users list that gives nothing',
		parameters: clientList('={{ $json.contacts }}'),
		item: {},
		expect: { sends: sentClient({ fullname: 'Ada' }) },
	},
	{
		name: 'client: users list that is empty',
		parameters: clientList('={{ [] }}'),
		expect: { sends: sentClient({ fullname: 'Ada' }) },
	},
	{
		name: 'client: users list of names',
		parameters: clientList('={{ ["Ada", "Charles"] }}'),
		expect: { refuses: "'Users', entry 1 must be an object, but it is a string" },
	},
	{
		name: 'client: users list that is one object',
		parameters: clientList('={{ { fullname: "Ada" } }}'),
		expect: { refuses: "'Users' must be a list, but it is an object" },
	},
	{
		name: 'client: users list entry with an unknown field',
		parameters: clientList('={{ [{ fullname: "Ada", phone: "+44 1" }] }}'),
		expect: { refuses: `'Users', entry 1 has a field "phone" that the service does not accept` },
	},
	{
		name: 'client: users list entry with an object as email',
		parameters: clientList('={{ [{ email: { work: "ada@example.com" } }] }}'),
		expect: { refuses: "'Users', entry 1: 'Email' must be text, but it is an object" },
	},
	{
		name: 'client: users list entry that is empty',
		parameters: clientList('={{ [{ fullname: "Ada" }, {}] }}'),
		expect: { refuses: "'Users', entry 2 is empty" },
	},
	{
		name: 'client: users list entry with nulls beside a value',
		parameters: clientList(
			'={{ [{ fullname: null, email: "ada@example.com", customKey: null }] }}',
			{},
		),
		expect: { sends: sentClient({ users: [{ email: 'ada@example.com' }] }) },
	},
	{
		name: 'client: users list as broken JSON text',
		parameters: clientList('[{"fullname": "Ada"'),
		expect: { refuses: "'Users' is not a valid list" },
	},
	{
		name: 'client: users list with an invalid email',
		parameters: clientList('={{ [{ email: "ada at example.com" }] }}'),
		expect: { refuses: `'Users', entry 1: 'Email' "ada at example.com" is not an email address` },
	},
	{
		name: 'client: full name from a date ($now and the like)',
		parameters: client({ fullname: `={{ ${A_DATE} }}` }),
		expect: { sends: sentClient({ fullname: A_DATE_TEXT }) },
	},
	{
		name: 'client: full name from a JavaScript date',
		parameters: client({ fullname: '={{ new Date(0) }}' }),
		expect: { sends: sentClient({ fullname: '1970-01-01T00:00:00.000Z' }) },
	},
	{
		name: 'client: full name from an invalid date',
		parameters: client({ fullname: '={{ new Date("not a date") }}' }),
		expect: { refuses: "'Full Name' must be text, but it is a date" },
	},
	{
		name: 'client: users list entry with a date as full name',
		parameters: clientList(`={{ [{ fullname: ${A_DATE} }, { fullname: new Date(0) }] }}`, {}),
		expect: {
			sends: sentClient({
				users: [{ fullname: A_DATE_TEXT }, { fullname: '1970-01-01T00:00:00.000Z' }],
			}),
		},
	},
	{
		name: 'client: users row with a date as full name',
		parameters: client({ users: { user: [{ fullname: `={{ ${A_DATE} }}` }] } }),
		expect: { sends: sentClient({ users: [{ fullname: A_DATE_TEXT }] }) },
	},
	{
		name: 'client: users list entry that is a date',
		parameters: clientList('={{ [new Date(0)] }}'),
		expect: { refuses: "'Users', entry 1 must be an object, but it is a date" },
	},
	{
		name: 'client: full name of zero-width spaces and NEL only',
		parameters: client({ fullname: '\u200b\u0085\ufeff\u200d' }),
		expect: { refuses: 'There is nothing to create the client from' },
	},
	{
		name: 'client: full name with zero-width spaces and NEL around it',
		parameters: client({ fullname: '\u200bAda Lovelace\u0085' }),
		expect: { sends: sentClient({ fullname: 'Ada Lovelace' }) },
	},
	{
		name: 'client: Simplify given the text "maybe"',
		parameters: client({ fullname: 'Ada', simple: '={{ "maybe" }}' }),
		expect: { refuses: `'Simplify' must be true or false, but it is "maybe"` },
	},
];

describeBadInput(service, badInput);
