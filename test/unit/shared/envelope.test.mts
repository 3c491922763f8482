/**
 * finishData: the `data` the service takes, made from what n8n's routing put at each field's path.
 * Called directly with the operations' own rules.
 */
import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { clientCreateRules } from '../../../nodes/ContractSigning/resources/client/create';
import { contractCreateRules } from '../../../nodes/ContractSigning/resources/contract/create';
import { userGetRules } from '../../../nodes/ContractSigning/resources/user/get';
import { finishData } from '../../../nodes/ContractSigning/shared/envelope';

/** Client → Create with these client fields, as routing gives them. */
const createClient = (client: IDataObject) =>
	finishData({ action: 'create', client }, clientCreateRules);

/** Client → Create with these users. */
const withUsers = (users: unknown) => createClient({ users: users as IDataObject[] });

/** The error finishData throws, as message and description. */
function refusal(finish: () => unknown): { message: string; description?: string } {
	try {
		finish();
	} catch (error) {
		const { message, description } = error as { message: string; description?: string };
		return { message, description };
	}
	throw new Error('finishData took what it should have refused');
}

describe('finishData: each value as the service takes it', () => {
	it.each([
		['blanks', '  Ada Lovelace \t\n', 'Ada Lovelace'],
		['zero-width spaces and joiners', '\u200bAda\u200c\u200d', 'Ada'],
		['a byte order mark and a word joiner', '\ufeffAda\u2060', 'Ada'],
		['a next line (NEL) and a Mongolian vowel separator', '\u0085Ada\u180e', 'Ada'],
		['no-break spaces', '\u00a0Ada\u202f', 'Ada'],
	])('trims %s at either end', (_what, sent, finished) => {
		expect(createClient({ fullname: sent })).toEqual({
			action: 'create',
			client: { fullname: finished },
		});
	});

	it('keeps what is between the ends as it is', () => {
		expect(createClient({ fullname: ` Ada\u200b \n Lovelace ` })).toEqual({
			action: 'create',
			client: { fullname: 'Ada\u200b \n Lovelace' },
		});
	});

	it('sends numbers as text', () => {
		expect(createClient({ customKey: 1042, fullname: 0 })).toEqual({
			action: 'create',
			client: { customKey: '1042', fullname: '0' },
		});
		expect(createClient({ customKey: -2.5 })).toEqual({
			action: 'create',
			client: { customKey: '-2.5' },
		});
	});

	it('sends a date as ISO 8601: a Luxon DateTime, as {{ $now }} gives, and a JavaScript Date', () => {
		const now = DateTime.fromISO('2026-03-01T09:30:00.000+01:00', { setZone: true });
		expect(createClient({ customKey: now })).toEqual({
			action: 'create',
			client: { customKey: '2026-03-01T09:30:00.000+01:00' },
		});
		expect(createClient({ customKey: new Date(Date.UTC(2026, 2, 1, 8, 30)) })).toEqual({
			action: 'create',
			client: { customKey: '2026-03-01T08:30:00.000Z' },
		});
	});

	it('drops empty values: nothing is sent for them', () => {
		expect(
			createClient({ fullname: 'Ada', email: '', organization: '  \u200b ', customKey: null }),
		).toEqual({ action: 'create', client: { fullname: 'Ada' } });
		expect(createClient({ fullname: 'Ada', customKey: undefined, users: [] })).toEqual({
			action: 'create',
			client: { fullname: 'Ada' },
		});
	});

	it('keeps the action, and sends only the paths the operation names', () => {
		expect(
			finishData(
				{ action: 'create', client: { fullname: 'Ada', phone: '+44 20' }, extra: 'x' },
				clientCreateRules,
			),
		).toEqual({ action: 'create', client: { fullname: 'Ada' } });
	});

	it.each([
		[true, "'Full Name' must be text, but it is the value true"],
		[Number.NaN, "'Full Name' must be text, but it is the number NaN"],
		[Number.POSITIVE_INFINITY, "'Full Name' must be text, but it is the number Infinity"],
		[['Ada'], "'Full Name' must be text, but it is a list"],
		[{ first: 'Ada' }, "'Full Name' must be text, but it is an object"],
	])('refuses %j where text belongs, naming the field', (value, message) => {
		expect(refusal(() => createClient({ fullname: value as IDataObject[string] }))).toEqual({
			message,
			description:
				"Set 'Full Name' to a single text value, for example an expression such as {{ $json.name }}.",
		});
	});

	it('refuses a date that is not one, and says how to give one', () => {
		expect(refusal(() => createClient({ customKey: new Date(Number.NaN) }))).toEqual({
			message: "'Custom Key' must be text, but it is a date",
			description: "Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.",
		});
		expect(refusal(() => createClient({ customKey: DateTime.fromISO('not a date') }))).toEqual({
			message: "'Custom Key' must be text, but it is a date",
			description: "Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.",
		});
	});
});

describe('finishData: the operation’s rules', () => {
	it('refuses a required field that is empty once finished, with what to enter', () => {
		const contract = (data: IDataObject) =>
			refusal(() => finishData({ action: 'create', ...data }, contractCreateRules));
		expect(contract({ contract: { name: 'NDA' } })).toEqual({
			message: "'Client Key' is empty",
			description:
				'Enter the key of the client the contract is for, for example {{ $json.clientKey }} from a Client → Create step.',
		});
		expect(contract({ clientKey: 'cli_1', contract: { name: ' \u200b ' } })).toEqual({
			message: "'Contract Name' is empty",
			description: 'Enter a name for the contract, such as "Service agreement".',
		});
		expect(
			finishData(
				{ action: 'create', clientKey: ' cli_1 ', contract: { name: 'NDA', templateKey: '' } },
				contractCreateRules,
			),
		).toEqual({ action: 'create', clientKey: 'cli_1', contract: { name: 'NDA' } });
	});

	it('refuses an operation none of whose at-least-one fields is filled in', () => {
		expect(refusal(() => createClient({ fullname: '  ', users: [] }))).toEqual({
			message: 'There is nothing to create the client from',
			description:
				"Fill in at least one of 'Full Name', 'Email', 'Organization', 'Custom Key' or 'Users'.",
		});
		expect(
			refusal(() => finishData({ action: 'read', clientKey: 'cli_1', user: {} }, userGetRules)),
		).toEqual({
			message: 'There is nothing to find the user by',
			description: "Fill in at least one of 'User Key', 'Full Name', 'Email' or 'Custom Key'.",
		});
		expect(withUsers([{ email: 'ada@example.com' }])).toEqual({
			action: 'create',
			client: { users: [{ email: 'ada@example.com' }] },
		});
	});

	it('refuses an email field that is not an address, and takes one that is, trimmed', () => {
		expect(refusal(() => createClient({ email: 'ada at example.com' }))).toEqual({
			message: `'Email' "ada at example.com" is not an email address`,
			description: "Enter an address such as name@example.com in 'Email', or leave it empty.",
		});
		expect(
			refusal(() =>
				finishData({ action: 'read', clientKey: 'c', user: { email: 'ada@' } }, userGetRules),
			).message,
		).toBe(`'Email' "ada@" is not an email address`);
		expect(createClient({ email: ' ada@example.com\u200b' })).toEqual({
			action: 'create',
			client: { email: 'ada@example.com' },
		});
		// Only the fields the rules name as emails are checked.
		expect(createClient({ fullname: 'ada at example' })).toEqual({
			action: 'create',
			client: { fullname: 'ada at example' },
		});
	});
});

describe('finishData: a list of users', () => {
	const expected = {
		action: 'create',
		client: { users: [{ fullname: 'Ada', email: 'ada@example.com' }, { customKey: '7' }] },
	};

	it('from the rows of the Users field', () => {
		expect(
			withUsers({ user: [{ fullname: ' Ada ', email: 'ada@example.com' }, { customKey: 7 }] }),
		).toEqual(expected);
	});

	it('from JSON text, as the list field holds it', () => {
		expect(
			withUsers(' [{"fullname": "Ada", "email": "ada@example.com"}, {"customKey": 7}] '),
		).toEqual(expected);
	});

	it('from a list, as an expression gives it', () => {
		expect(
			withUsers([{ fullname: 'Ada', email: 'ada@example.com', customKey: '' }, { customKey: 7 }]),
		).toEqual(expected);
	});

	it('sends nothing for an empty list, no rows or empty text', () => {
		for (const empty of [[], {}, { user: [] }, '', '  ', '[]', null]) {
			expect(refusal(() => withUsers(empty)).message).toBe(
				'There is nothing to create the client from',
			);
		}
	});

	it.each([
		[
			'JSON text that is not JSON',
			'[{ fullname: "Ada" }]',
			"'Users' is not a valid list",
			'Enter a JSON list such as [{ "fullname": "…" }], or map a list with an expression.',
		],
		[
			'JSON text that is not a list',
			'"ada@example.com"',
			"'Users' must be a list, but it is a string",
			"Give 'Users' as a list of objects, for example an expression such as {{ $json.contacts }}.",
		],
		[
			'one object',
			{ email: 'ada@example.com' },
			"'Users' must be a list, but it is an object",
			"Give 'Users' as a list of objects, for example an expression such as {{ $json.contacts }}.",
		],
		[
			'an entry that is not an object',
			[{ fullname: 'Ada' }, { fullname: 'Bob' }, 'carol@example.com'],
			"'Users', entry 3 must be an object, but it is a string",
			"Give each entry of 'Users' as an object with one or more of 'fullname', 'email', 'customKey'.",
		],
		[
			'an entry with a field the service does not take',
			[{ fullname: 'Ada', phone: '+44 20' }],
			`'Users', entry 1 has a field "phone" that the service does not accept`,
			"Give each entry of 'Users' only 'fullname', 'email', 'customKey'.",
		],
		[
			'an empty entry',
			[{ fullname: 'Ada' }, { fullname: ' ', email: '' }],
			"'Users', entry 2 is empty",
			"Fill in at least one field of 'Users', entry 2, or remove it.",
		],
		[
			'an entry whose email is not an address',
			[{ fullname: 'Ada' }, { email: 'bob' }],
			`'Users', entry 2: 'Email' "bob" is not an email address`,
			"Enter an address such as name@example.com in 'Users', entry 2: 'Email', or leave it empty.",
		],
		[
			'an entry whose field is not text',
			[{ fullname: ['Ada'] }],
			"'Users', entry 1: 'Full Name' must be text, but it is a list",
			"Set 'Users', entry 1: 'Full Name' to a single text value, for example an expression such as {{ $json.name }}.",
		],
	])('refuses %s, naming the entry', (_what, users, message, description) => {
		expect(refusal(() => withUsers(users))).toEqual({ message, description });
	});

	it('skips an unknown field of an entry when it is empty', () => {
		expect(
			withUsers([
				{ fullname: 'Ada', phone: '' },
				{ email: 'b@example.com', id: null },
			]),
		).toEqual({
			action: 'create',
			client: { users: [{ fullname: 'Ada' }, { email: 'b@example.com' }] },
		});
	});
});
