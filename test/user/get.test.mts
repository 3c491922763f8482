import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { simplifyUserFound } from '../../nodes/ContractSigning/resources/user/get';
import { outputSchema, runStep, seedClient, useStandIn } from '../helpers.mts';
import {
	describeBadInput,
	NON_ASCII,
	type BadInputCase,
	type Keys,
} from '../scenarios/bad-input.mts';

const service = useStandIn();
const getUser = { resource: 'user', operation: 'get' };

describe('User → Get', () => {
	it('sends POST /v1/user with action read, the client key and only the fields to find by', async () => {
		const { clientKey } = await seedClient(service());
		const { error } = await runStep(service(), {
			...getUser,
			clientKey,
			userKey: '',
			email: ' ADA@example.com ',
			fullname: '',
			customKey: '',
		});

		expect(error).toBeUndefined();
		expect(service().requests).toHaveLength(1);
		const [request] = service().requests;
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/user');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-service-key']).toBe(service().apiKey);
		expect(request.body).toEqual({
			data: { action: 'read', clientKey, user: { email: 'ADA@example.com' } },
		});
	});

	it('returns the user record', async () => {
		const { clientKey, otherUserKey } = await seedClient(service());
		const { items } = await runStep(service(), { ...getUser, clientKey, userKey: otherUserKey });

		const stored = service().clients()[0].users[1];
		expect(items).toEqual([
			{
				createTime: stored.createTime,
				changeTime: stored.changeTime,
				userKey: otherUserKey,
				fullname: 'Charles Babbage',
				email: 'charles@example.com',
			},
		]);
	});

	it('finds by custom key given as a number by an expression', async () => {
		const { clientKey } = await seedClient(service());
		await runStep(
			service(),
			{ ...getUser, clientKey, customKey: '={{ $json.id }}' },
			{
				items: [{ id: 1 }],
			},
		);

		expect(service().requests[0].body).toEqual({
			data: { action: 'read', clientKey, user: { customKey: '1' } },
		});
	});

	it('gives the full reply of the service when Simplify is off', async () => {
		const { clientKey, defaultUserKey } = await seedClient(service());
		const { items } = await runStep(service(), {
			...getUser,
			clientKey,
			customKey: 'crm-1',
			simple: false,
		});

		expect(items[0]).toMatchObject({
			code: '200',
			message: 'User found',
			user: { userKey: defaultUserKey, customKey: 'crm-1' },
		});
	});

	it.each([
		[
			'an empty client key',
			{ clientKey: '  ', email: 'ada@example.com' },
			"'Client Key' is empty",
			'Enter the key of the client the user belongs to, for example {{ $json.clientKey }} from a Client → Create step.',
		],
		[
			'no field to find the user by',
			{ clientKey: 'cli_1', userKey: '', fullname: '', email: '', customKey: '' },
			'There is nothing to find the user by',
			"Fill in at least one of 'User Key', 'Full Name', 'Email' or 'Custom Key'.",
		],
		[
			'an email that is not an address',
			{ clientKey: 'cli_1', email: 'ada' },
			`'Email' "ada" is not an email address`,
			"Enter an address such as name@example.com in 'Email', or leave it empty.",
		],
		[
			'a client key that is an object',
			{ clientKey: '={{ { key: 1 } }}', email: 'ada@example.com' },
			"'Client Key' must be text, but it is an object",
			"Set 'Client Key' to a single text value, for example an expression such as {{ $json.name }}.",
		],
	])('refuses %s before any request', async (_case, fields, message, description) => {
		const { error } = await runStep(service(), { ...getUser, ...fields });

		expect(error?.message).toBe(message);
		expect(error?.description).toBe(description);
		expect(service().requests).toHaveLength(0);
	});

	it('shows the service’s message when no user matches', async () => {
		const { clientKey } = await seedClient(service());
		const { error, items } = await runStep(service(), {
			...getUser,
			clientKey,
			email: 'nobody@example.com',
		});

		expect(error?.message).toBe('User not found');
		expect(error?.description).toBe(
			"No user of this client matches what this node sent, or the service does not know the client. Check 'Client Key', and the 'User Key', 'Full Name', 'Email' or 'Custom Key' you find the user by.",
		);
		expect((error as { httpCode?: string }).httpCode).toBe('404');
		expect(items).toEqual([]);
	});
});

describe('User → Get, its simplified output', () => {
	it('the user record as the service returns it', () => {
		const user = { userKey: 'usr_1', email: 'ada@example.com', createTime: 't0', changeTime: 't1' };
		expect(simplifyUserFound({ code: '200', message: 'User found', user })).toEqual(user);
	});

	it('lists every key of the output in the schema the editor shows before a run', () => {
		expect(Object.keys(outputSchema('user/get.json').properties).sort()).toEqual(
			['userKey', 'fullname', 'email', 'customKey', 'createTime', 'changeTime'].sort(),
		);
	});
});

const user = (fields: IDataObject) => (keys: Keys) => ({
	resource: 'user',
	operation: 'get',
	clientKey: keys.clientKey,
	...fields,
});

const badInput: BadInputCase[] = [
	{
		name: 'user: client key from an expression that gives nothing',
		parameters: user({ clientKey: '={{ $json.clientKey }}', email: 'ada@example.com' }),
		item: {},
		expect: { refuses: "'Client Key' is empty" },
	},
	{
		name: 'user: client key from a boolean',
		parameters: user({ clientKey: '={{ false }}', email: 'ada@example.com' }),
		expect: { refuses: "'Client Key' must be text, but it is the value false" },
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
		expect: { refuses: "'User Key' must be text, but it is a list" },
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
];

describeBadInput(service, badInput);
