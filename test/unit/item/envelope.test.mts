import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { clientCreate } from '../../../nodes/ContractSigning/resources/client/create';
import {
	labelledRulesOf,
	finishEnvelope,
	type LabelledRules,
} from '../../../nodes/ContractSigning/item/envelope';
import { wireFields, type WireField } from '../../../nodes/ContractSigning/description/operation';

const fullname: INodeProperties = {
	displayName: 'Full Name',
	name: 'fullname',
	type: 'string',
	default: '',
};
const users: INodeProperties = {
	displayName: 'Users',
	name: 'users',
	type: 'fixedCollection',
	default: {},
	options: [
		{
			displayName: 'User',
			name: 'user',
			values: [{ displayName: 'Email', name: 'email', type: 'string', default: '' }],
		},
	],
};
const fields: WireField[] = [
	{ property: fullname, path: 'data.client.fullname', shownWhen: [] },
	{ property: users, path: 'data.client.users', shownWhen: [] },
];

describe('labelledRulesOf', () => {
	it('maps each wire path, and the fields of list entries, to the label the user sees', () => {
		expect(labelledRulesOf(fields).labels).toEqual({
			'data.action': 'Operation',
			'data.client.fullname': 'Full Name',
			'data.client.users': 'Users',
			'data.client.users[].email': 'Email',
		});
		expect(labelledRulesOf(fields).groups).toEqual({ 'data.client.users': 'user' });
	});
});

describe('finishEnvelope', () => {
	const rules: LabelledRules = {
		labels: labelledRulesOf(fields).labels,
		groups: {},
		required: [{ path: 'data.client.fullname', fix: 'Enter a name.' }],
		emails: ['data.client.users[].email'],
	};

	it('puts each value at its wire path: text trimmed, numbers as text, nothing empty', () => {
		const envelope = finishEnvelope(
			{
				'data.action': 'create',
				'data.client.fullname': ' Ada ',
				'data.client.users': [{ email: 'ada@example.com' }],
			},
			rules,
		);
		expect(envelope).toEqual({
			data: {
				action: 'create',
				client: { fullname: 'Ada', users: [{ email: 'ada@example.com' }] },
			},
		});
		expect(
			finishEnvelope(
				{ 'data.action': 'create', 'data.client.fullname': 7, 'data.client.users': [] },
				rules,
			),
		).toEqual({ data: { action: 'create', client: { fullname: '7' } } });
	});

	it.each([
		[{ fullname: null }, "'Full Name' is empty"],
		[{ fullname: '   ' }, "'Full Name' is empty"],
		[{ fullname: true }, "'Full Name' must be text, but it is the value true"],
		[{ fullname: Number.NaN }, "'Full Name' must be text, but it is the number NaN"],
		[
			{ fullname: 'Ada', users: { email: 'a@b.co' } },
			"'Users' must be a list, but it is an object",
		],
		[{ fullname: 'Ada', users: 'ada@example.com' }, "'Users' is not a valid list"],
		[{ fullname: 'Ada', users: '"ada@example.com"' }, "'Users' must be a list, but it is a string"],
		[
			{ fullname: 'Ada', users: [{ email: 'ada' }] },
			`'Users', entry 1: 'Email' "ada" is not an email address`,
		],
		[{ fullname: 'Ada', users: [{ email: 'a@b.co' }, {}] }, "'Users', entry 2 is empty"],
	])('refuses client %j', (client, message) => {
		const values = Object.fromEntries(
			Object.entries(client).map(([name, value]) => [`data.client.${name}`, value]),
		);
		expect(() => finishEnvelope({ 'data.action': 'create', ...values }, rules)).toThrow(
			expect.objectContaining({ message }),
		);
	});

	it('takes a list as the rows of a field, or as JSON text', () => {
		const withRows = { ...rules, required: [], groups: { 'data.client.users': 'user' } };
		const sent = (users: IDataObject[string]) =>
			finishEnvelope({ 'data.action': 'create', 'data.client.users': users }, withRows);
		const expected = { data: { action: 'create', client: { users: [{ email: 'a@b.co' }] } } };
		expect(sent({ user: [{ email: 'a@b.co' }] })).toEqual(expected);
		expect(sent(' [{ "email": "a@b.co" }] ')).toEqual(expected);
		expect(sent({})).toEqual({ data: { action: 'create' } });
		expect(() => sent({ user: 'a@b.co' })).toThrow("'Users' must be a list, but it is an object");
	});

	it('names the fields a list entry may have, from the operation’s own fields', () => {
		expect(() =>
			finishEnvelope(
				{ 'data.action': 'create', 'data.client.users': [{ email: 'a@b.co', phone: '1' }] },
				rules,
			),
		).toThrow(
			expect.objectContaining({
				message: `'Users', entry 1 has a field "phone" that the service does not accept`,
				description:
					"Give each entry of 'Users' only 'email'; map the entries of a list from an expression to these fields.",
			}),
		);
	});

	it('applies the operation’s at-least-one rule', () => {
		expect(() =>
			finishEnvelope(
				{ 'data.action': 'create' },
				labelledRulesOf(wireFields(clientCreate), clientCreate.rules),
			),
		).toThrow('There is nothing to create the client from');
	});
});
