import { describe, expect, it } from 'vitest';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

const service = useStandIn();

describe('one reply check for every operation', () => {
	it('treats HTTP 200 with an error code in the body as an error, with the service message', async () => {
		service().settings.errorsAs = 'body';
		const { error, items } = await runStep(service(), {
			resource: 'contract',
			operation: 'create',
			clientKey: 'cli_unknown',
			name: 'NDA',
		});

		expect(error?.message).toBe('Client not found');
		expect(items).toEqual([]);
	});

	it('accepts codes sent as numbers', async () => {
		service().settings.numericCodes = true;
		const { clientKey } = await seedClient(service());
		const { error, items } = await runStep(service(), {
			resource: 'user',
			operation: 'get',
			clientKey,
			customKey: 'crm-1',
		});

		expect(error).toBeUndefined();
		expect(items[0]).toMatchObject({ email: 'ada@example.com' });
	});

	it('describes an HTML error page with its HTTP status and, for a read, says a retry is safe', async () => {
		service().injectFault({ kind: 'html', status: 502 });
		const { error } = await runStep(service(), {
			resource: 'user',
			operation: 'get',
			clientKey: 'cli_1',
			email: 'ada@example.com',
		});

		expect(error?.message).toBe('The service sent a web page instead of data (HTTP 502)');
		expect(error?.description).toBe(
			'The service could not complete the request. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.',
		);
	});

	it('for a create, says where to look for the client the service may have created', async () => {
		service().injectFault({ kind: 'html', status: 502 });
		const { error } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
			customKey: 'crm-1042',
		});

		expect(error?.message).toBe('The service sent a web page instead of data (HTTP 502)');
		expect(error?.description).toBe(
			'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with \'Custom Key\' "crm-1042" before you run this item again.',
		);
	});

	it('sends failed items to the error output, with the input fields, and the others on', async () => {
		const { clientKey } = await seedClient(service());
		const run = await runStep(
			service(),
			{
				resource: 'contract',
				operation: 'create',
				clientKey: '={{ $json.clientKey }}',
				name: '={{ $json.name }}',
			},
			{
				items: [
					{ clientKey, name: 'First' },
					{ clientKey: 'cli_unknown', name: 'Second' },
					{ clientKey, name: 'Third' },
				],
				onError: 'continueErrorOutput',
			},
		);

		const [success, failure] = run.outputs('Contract Signing');
		expect(success.map((item) => item.json.name)).toEqual(['First', 'Third']);
		expect(failure.map((item) => item.json)).toEqual([
			{
				clientKey: 'cli_unknown',
				name: 'Second',
				error: {
					message: 'Client not found',
					code: '404',
					description:
						"Check the keys this node sends ('Client Key', 'User Key', 'Template Key'): the service does not know one of them.",
				},
			},
		]);
	});
});

describe('odd replies', () => {
	it('a created client whose users list has an empty entry still gives its keys', async () => {
		service().injectFault({
			kind: 'status',
			status: 201,
			body: {
				code: '201',
				message: 'Client created',
				client: {
					clientKey: 'cli_1',
					createTime: 't',
					users: [null, { userKey: 'usr_2', default: false, createTime: 't' }],
				},
			},
		});
		const { error, items } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
			users: { user: [{ fullname: 'Ada' }, { fullname: 'Bob' }] },
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				clientKey: 'cli_1',
				createTime: 't',
				fullname: 'Ada',
				users: [
					{ userKey: undefined, default: undefined, createTime: undefined, fullname: 'Ada' },
					{ userKey: 'usr_2', default: false, createTime: 't', fullname: 'Bob' },
				],
			},
		]);
	});

	it('a 50 MB error message is cut to what anyone reads, and the reply kept is bounded', async () => {
		const huge = 'x'.repeat(50_000_000);
		service().injectFault({ kind: 'status', status: 400, body: { code: '400', message: huge } });
		const { error } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
		});

		expect(error?.message).toBe(`${'x'.repeat(2000)}… (49998000 more characters)`);
		const kept = JSON.stringify((error as { errorResponse?: unknown }).errorResponse);
		expect(kept.length).toBeLessThan(5000);
		expect(kept).toMatch(/The rest of the reply \(500000\d\d characters\) is not kept\./);
	});

	it.each([
		['false', false],
		[' FALSE ', false],
		['true', true],
	])('Simplify given the text %j simplifies: %s', async (text, simplified) => {
		const { error, items } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
			simple: `={{ ${JSON.stringify(text)} }}`,
		});

		expect(error).toBeUndefined();
		expect('clientKey' in items[0]).toBe(simplified);
		expect('code' in items[0]).toBe(!simplified);
	});
});
