import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simplifyClientCreated } from '../../nodes/ContractSigning/resources/client/create';
import { simplifyContractCreated } from '../../nodes/ContractSigning/resources/contract/create';
import { simplifyUserFound } from '../../nodes/ContractSigning/resources/user/get';

describe('output shaping', () => {
	it('Client → Create: keys first, then the sent fields; each user with what was sent for it', () => {
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

	it('Client → Create without users has no default user key', () => {
		const reply = { client: { clientKey: 'cli_1', createTime: 't0', users: [] } };
		expect(simplifyClientCreated(reply, { data: { client: { fullname: 'Ada' } } })).toEqual({
			clientKey: 'cli_1',
			createTime: 't0',
			fullname: 'Ada',
			users: [],
		});
	});

	it('Contract → Create: the contract key with the client, user, name and template it was made for', () => {
		const reply = { contract: { contractKey: 'ctr_1', createTime: 't0' } };
		const sent = {
			data: {
				clientKey: 'cli_1',
				userKey: 'usr_1',
				contract: { name: 'NDA', templateKey: 'tpl_nda' },
			},
		};
		expect(simplifyContractCreated(reply, sent)).toEqual({
			contractKey: 'ctr_1',
			createTime: 't0',
			clientKey: 'cli_1',
			userKey: 'usr_1',
			name: 'NDA',
			templateKey: 'tpl_nda',
		});
	});

	it('User → Get: the user record as the service returns it', () => {
		const user = { userKey: 'usr_1', email: 'ada@example.com', createTime: 't0', changeTime: 't1' };
		expect(simplifyUserFound({ code: '200', message: 'User found', user })).toEqual(user);
	});
});

describe('output schemas the editor shows before a run', () => {
	const schema = (path: string) =>
		JSON.parse(
			readFileSync(
				new URL(`../../nodes/ContractSigning/__schema__/v1.0.0/${path}`, import.meta.url),
				'utf8',
			),
		) as { properties: Record<string, { properties?: unknown; items?: { properties: object } }> };

	it('list every key of each simplified output', () => {
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
		const clientSchema = schema('client/create.json');
		expect(Object.keys(clientSchema.properties)).toEqual(Object.keys(client));
		expect(Object.keys(clientSchema.properties.users.items!.properties)).toEqual(
			Object.keys((client.users as object[])[0]),
		);

		const contract = simplifyContractCreated(
			{ contract: { contractKey: 'k', createTime: 't' } },
			{ data: { clientKey: 'c', userKey: 'u', contract: { name: 'n', templateKey: 't' } } },
		);
		expect(Object.keys(schema('contract/create.json').properties)).toEqual(Object.keys(contract));

		expect(Object.keys(schema('user/get.json').properties).sort()).toEqual(
			['userKey', 'fullname', 'email', 'customKey', 'createTime', 'changeTime'].sort(),
		);
	});
});
