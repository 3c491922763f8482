/**
 * Bad input, field by field: each value is either sent as the service accepts it, or refused
 * before any request with a message that names the field.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, seedClient, useStandIn } from './helpers.mts';

const service = useStandIn();

const LONG_TEXT = 'x'.repeat(5000);
const NON_ASCII = 'Zoë Ångström – 李小龍 🚀';
/** A date as `$now` gives one (a Luxon DateTime), fixed so that what is sent can be compared. */
const A_DATE = 'DateTime.fromISO("2026-01-02T03:04:05.000Z", { zone: "utc" })';
const A_DATE_TEXT = '2026-01-02T03:04:05.000Z';

interface Keys {
	clientKey: string;
	defaultUserKey: string;
}

type Expectation = { sends: (keys: Keys) => IDataObject } | { refuses: string };

interface Case {
	name: string;
	parameters: (keys: Keys) => IDataObject;
	item?: IDataObject;
	expect: Expectation;
}

const client = (fields: IDataObject) => () => ({
	resource: 'client',
	operation: 'create',
	...fields,
});
const clientList = (usersList: string, fields: IDataObject = { fullname: 'Ada' }) =>
	client({ ...fields, usersInput: 'list', usersList });
const user = (fields: IDataObject) => (keys: Keys) => ({
	resource: 'user',
	operation: 'get',
	clientKey: keys.clientKey,
	...fields,
});
const contract = (fields: IDataObject) => (keys: Keys) => ({
	resource: 'contract',
	operation: 'create',
	clientKey: keys.clientKey,
	name: 'NDA',
	...fields,
});
const sentClient = (client: IDataObject) => () => ({ data: { action: 'create', client } });

const cases: Case[] = [
	// Client → Create
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
		expect: { refuses: 'Full Name must be text, but it is an object' },
	},
	{
		name: 'client: full name from a list',
		parameters: client({ fullname: '={{ ["Ada"] }}' }),
		expect: { refuses: 'Full Name must be text, but it is a list' },
	},
	{
		name: 'client: full name from a boolean',
		parameters: client({ fullname: '={{ true }}' }),
		expect: { refuses: 'Full Name must be text, but it is the value true' },
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
		expect: { refuses: 'Email "ada@" is not an email address' },
	},
	{
		name: 'client: email from a number',
		parameters: client({ email: '={{ 12345 }}' }),
		expect: { refuses: 'Email "12345" is not an email address' },
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
		expect: { refuses: 'Custom Key must be text, but it is the number NaN' },
	},
	{
		name: 'client: users row with only blanks',
		parameters: client({
			fullname: 'Ada',
			users: { user: [{ fullname: ' ', email: '', customKey: '' }] },
		}),
		expect: { refuses: 'Users, entry 1 is empty' },
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
		expect: { refuses: 'Users, entry 1 must be an object, but it is a string' },
	},
	{
		name: 'client: users list that is one object',
		parameters: clientList('={{ { fullname: "Ada" } }}'),
		expect: { refuses: 'Users must be a list, but it is an object' },
	},
	{
		name: 'client: users list entry with an unknown field',
		parameters: clientList('={{ [{ fullname: "Ada", phone: "+44 1" }] }}'),
		expect: { refuses: 'Users, entry 1 has a field "phone" that the service does not accept' },
	},
	{
		name: 'client: users list entry with an object as email',
		parameters: clientList('={{ [{ email: { work: "ada@example.com" } }] }}'),
		expect: { refuses: 'Users, entry 1: Email must be text, but it is an object' },
	},
	{
		name: 'client: users list entry that is empty',
		parameters: clientList('={{ [{ fullname: "Ada" }, {}] }}'),
		expect: { refuses: 'Users, entry 2 is empty' },
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
		expect: { refuses: 'Users is not a valid list' },
	},
	{
		name: 'client: users list with an invalid email',
		parameters: clientList('={{ [{ email: "ada at example.com" }] }}'),
		expect: { refuses: 'Users, entry 1: Email "ada at example.com" is not an email address' },
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
		expect: { refuses: 'Full Name must be text, but it is a date' },
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
		expect: { refuses: 'Users, entry 1 must be an object, but it is a date' },
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
		parameters: client({ fullname: 'Ada', simplify: '={{ "maybe" }}' }),
		expect: { refuses: 'Simplify must be true or false, but it is "maybe"' },
	},
	// User → Get
	{
		name: 'user: client key from an expression that gives nothing',
		parameters: user({ clientKey: '={{ $json.clientKey }}', email: 'ada@example.com' }),
		item: {},
		expect: { refuses: 'Client Key is empty' },
	},
	{
		name: 'user: client key from a boolean',
		parameters: user({ clientKey: '={{ false }}', email: 'ada@example.com' }),
		expect: { refuses: 'Client Key must be text, but it is the value false' },
	},
	{
		name: 'user: only whitespace to find by',
		parameters: user({ userKey: '  ', email: ' ' }),
		expect: { refuses: 'There is nothing to find the user by' },
	},
	{
		name: 'user: non-ASCII full name',
		parameters: user({ fullname: NON_ASCII }),
		expect: {
			sends: (keys) => ({
				data: { action: 'read', clientKey: keys.clientKey, user: { fullname: NON_ASCII } },
			}),
		},
	},
	{
		name: 'user: user key from a list',
		parameters: user({ userKey: '={{ ["usr_1"] }}' }),
		expect: { refuses: 'User Key must be text, but it is a list' },
	},
	{
		name: 'user: custom key from a number',
		parameters: user({ customKey: '={{ 1 }}' }),
		expect: {
			sends: (keys) => ({
				data: { action: 'read', clientKey: keys.clientKey, user: { customKey: '1' } },
			}),
		},
	},
	// Contract → Create
	{
		name: 'contract: name from an expression that gives nothing',
		parameters: contract({ name: '={{ $json.title }}' }),
		item: {},
		expect: { refuses: 'Contract Name is empty' },
	},
	{
		name: 'contract: over-long name',
		parameters: contract({ name: LONG_TEXT }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: LONG_TEXT } },
			}),
		},
	},
	{
		name: 'contract: name from a number',
		parameters: contract({ name: '={{ 2026 }}' }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: '2026' } },
			}),
		},
	},
	{
		name: 'contract: template key from an object',
		parameters: contract({ templateKey: '={{ { key: "tpl_nda" } }}' }),
		expect: { refuses: 'Template Key must be text, but it is an object' },
	},
	{
		name: 'contract: whitespace-only template key and user key',
		parameters: contract({ templateKey: ' ', userKey: '\t' }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: 'NDA' } },
			}),
		},
	},
	{
		name: 'contract: user key from a number',
		parameters: contract({ userKey: '={{ 5 }}' }),
		expect: {
			sends: (keys) => ({
				data: {
					action: 'create',
					clientKey: keys.clientKey,
					userKey: '5',
					contract: { name: 'NDA' },
				},
			}),
		},
	},
];

describe('bad input table', () => {
	it('has at least 30 cases', () => {
		expect(cases.length).toBeGreaterThanOrEqual(30);
	});

	it.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
		const keys = await seedClient(service());
		const { error } = await runStep(service(), entry.parameters(keys), {
			items: [entry.item ?? {}],
		});

		if ('refuses' in entry.expect) {
			expect(error?.message).toBe(entry.expect.refuses);
			expect(error?.description).toMatch(/\S/);
			expect(service().requests).toHaveLength(0);
		} else {
			expect(service().requests.map((request) => request.body)).toEqual([entry.expect.sends(keys)]);
		}
	});
});
