import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { clientCreate } from '../../../nodes/ContractSigning/resources/client/create';
import {
	labelledRulesOf,
	finishEnvelope,
	labelsFromFields,
	type LabelledRules,
} from '../../../nodes/ContractSigning/item/envelope';
import type { WireField } from '../../../nodes/ContractSigning/description/operation';

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

describe('labelsFromFields', () => {
	it('maps each wire path, and the fields of list entries, to the label the user sees', () => {
		expect(labelsFromFields(fields)).toEqual({
			'data.action': 'Operation',
			'data.client.fullname': 'Full Name',
			'data.client.users': 'Users',
			'data.client.users[].email': 'Email',
		});
	});
});

describe('finishEnvelope', () => {
	const rules: LabelledRules = {
		labels: labelsFromFields(fields),
		required: [{ path: 'data.client.fullname', fix: 'Enter a name.' }],
		emails: ['data.client.users[].email'],
	};

	it('trims text, turns numbers into text and drops empty values, objects and lists', () => {
		const envelope = finishEnvelope(
			{
				data: {
					action: 'create',
					client: { fullname: ' Ada ', users: [{ email: 'ada@example.com' }] },
				},
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
			finishEnvelope({ data: { action: 'create', client: { fullname: 7, users: [] } } }, rules),
		).toEqual({ data: { action: 'create', client: { fullname: '7' } } });
	});

	it.each([
		[{ fullname: null }, "'Full Name' is empty"],
		[{ fullname: '   ' }, "'Full Name' is empty"],
		[{ fullname: true }, "'Full Name' must be text, but it is the value true"],
		[{ fullname: Number.NaN }, "'Full Name' must be text, but it is the number NaN"],
		[
			{ fullname: 'Ada', nickname: 'A' },
			'This operation has a field "nickname" that the service does not accept',
		],
		[{ fullname: 'Ada', users: 'ada@example.com' }, "'Users' must be a list, but it is a string"],
		[
			{ fullname: 'Ada', users: [{ email: 'ada' }] },
			`'Users', entry 1: 'Email' "ada" is not an email address`,
		],
		[{ fullname: 'Ada', users: [{ email: 'a@b.co' }, {}] }, "'Users', entry 2 is empty"],
	])('refuses client %j', (client, message) => {
		expect(() => finishEnvelope({ data: { action: 'create', client } }, rules)).toThrow(
			expect.objectContaining({ message }),
		);
	});

	it('names the fields a list entry may have, from the operation’s own fields', () => {
		expect(() =>
			finishEnvelope(
				{ data: { action: 'create', client: { users: [{ email: 'a@b.co', phone: '1' }] } } },
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
			finishEnvelope({ data: { action: 'create', client: {} } }, labelledRulesOf(clientCreate)),
		).toThrow('There is nothing to create the client from');
	});
});
