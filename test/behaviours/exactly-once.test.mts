/**
 * Each contact exactly once: under n8n's Retry On Fail (which runs the node again on all its
 * items) no record is created twice, and a create the service may have acted on is never sent
 * again. The node's own waiting for a busy service is in busy-service.test.mts beside it.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it, vi } from 'vitest';
import type { OnError } from '../engine/n8n-engine.mts';
import { runStep, seedClient, useStandIn } from '../helpers.mts';
import type { Fault } from '../service/stand-in.mts';
import {
	busyWithoutActing,
	CONTACTS,
	CREATE_CLIENT,
	failedWithoutActing,
	failFirstRequestOf,
	NO_WAITING,
	onceEach,
	RETRY_ON_FAIL,
	tally,
} from '../scenarios/contacts.mts';

const service = useStandIn();

const MODES: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];
const contacts = CONTACTS as unknown as IDataObject[];

/** Output items of the node, success and error output together, in input order. */
function outputByInput(run: Awaited<ReturnType<typeof runStep>>) {
	const [success = [], failure = []] = run.outputs('Contract Signing');
	return [...success, ...failure].sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}

describe('Retry On Fail never creates a contact twice', () => {
	it.each(MODES)(
		'%s: a refusal the service did not act on is sent again, nothing else is',
		async (onError) => {
			// Contact 1 fails too: under Continue, n8n retries only when the first item failed.
			failFirstRequestOf(service(), ['crm-1', 'crm-7'], busyWithoutActing);
			const run = await runStep(
				service(),
				{ ...CREATE_CLIENT, ...NO_WAITING },
				{
					items: contacts,
					onError,
					settings: RETRY_ON_FAIL,
				},
			);

			expect(run.error).toBeUndefined();
			expect(tally(service())).toEqual({ requests: 14, created: onceEach() });
			const output = outputByInput(run);
			expect(output.map((item) => item.pairedItem)).toEqual(CONTACTS.map((_, item) => ({ item })));
			expect(output.map((item) => item.json.customKey)).toEqual(CONTACTS.map((c) => c.crmId));
			const clientKeys = service()
				.clients()
				.map((client) => client.clientKey);
			expect(new Set(output.map((item) => item.json.clientKey))).toEqual(new Set(clientKeys));
		},
	);

	it.each(MODES)(
		'%s: a create the service may have acted on (HTTP 500) is not sent again',
		async (onError) => {
			failFirstRequestOf(service(), ['crm-1', 'crm-7'], failedWithoutActing);
			const run = await runStep(service(), CREATE_CLIENT, {
				items: contacts,
				onError,
				settings: RETRY_ON_FAIL,
			});

			expect(tally(service())).toEqual({
				requests: 12,
				created: onceEach(['crm-1', 'crm-7']),
			});
			if (onError === 'stopWorkflow') {
				expect(run.error?.message).toBe('Signature backend unavailable');
				expect(run.error?.description).toMatch(/^The client may have been created all the same/);
				return;
			}
			expect(run.error).toBeUndefined();
			const output = outputByInput(run);
			expect(output).toHaveLength(12);
			// Created once or reported as an error, never both.
			const failed = output.filter((item) => item.json.error !== undefined);
			expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 6 }]);
			expect(failed[0].json).toMatchObject({
				error: {
					message: 'Signature backend unavailable',
					code: '500',
					description: expect.stringContaining(
						'Look in your Contract Signing account for a client with \'Custom Key\' "crm-1"',
					),
				},
			});
			const created = output.filter((item) => item.json.clientKey !== undefined);
			expect(created.map((item) => item.json.customKey)).toEqual(
				Object.keys(onceEach(['crm-1', 'crm-7'])),
			);
		},
	);

	it.each(['stopWorkflow', 'continueErrorOutput'] as OnError[])(
		'%s: a create that timed out is not sent again, and its error says it may exist',
		async (onError) => {
			failFirstRequestOf(service(), ['crm-1'], { kind: 'delay', ms: 1500 });
			const run = await runStep(
				service(),
				{ ...CREATE_CLIENT, requestOptions: { timeout: 500 } },
				{ items: contacts, onError, settings: RETRY_ON_FAIL },
			);
			// The stand-in acts on the slow request after the node gave up on it.
			await vi.waitFor(
				() => expect(tally(service())).toEqual({ requests: 12, created: onceEach() }),
				{ timeout: 5000 },
			);
			// n8n's own message for the timeout; the code says what happened.
			const error =
				onError === 'stopWorkflow'
					? {
							code: (run.error as { httpCode?: string } | undefined)?.httpCode,
							description: run.error?.description,
						}
					: run.outputs('Contract Signing')[1][0].json.error;
			expect(error).toMatchObject({
				code: 'ECONNABORTED',
				description:
					'The client may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a client with \'Custom Key\' "crm-1" before you run this item again.',
			});
		},
	);

	it('a create whose reply never ends is not sent again after the Timeout of Settings → Request Options', async () => {
		service().injectFault({ kind: 'silent' }, { times: Infinity });
		const { error } = await runStep(
			service(),
			{
				resource: 'client',
				operation: 'create',
				customKey: 'crm-1042',
				requestOptions: { timeout: 500 },
			},
			{ settings: RETRY_ON_FAIL },
		);

		expect((error as { httpCode?: string } | undefined)?.httpCode).toBe('ECONNABORTED');
		expect(error?.description).toMatch(/^The client may have been created all the same/);
		expect(service().requests).toHaveLength(1);
	});

	it.each(['stopWorkflow', 'continueErrorOutput'] as OnError[])(
		'%s: a create answered HTTP 500 with code 404 in the body may exist, and is not sent again',
		async (onError) => {
			// The HTTP status decides: the service failed, perhaps after it created the client.
			const failedSaying404: Fault = {
				kind: 'status',
				status: 500,
				body: { code: '404', message: 'Client not found' },
			};
			service().injectFault(failedSaying404, { path: '/v1/client', times: Infinity });
			const run = await runStep(service(), CREATE_CLIENT, {
				items: [contacts[0]],
				onError,
				settings: RETRY_ON_FAIL,
			});

			expect(service().requests).toHaveLength(1);
			const error =
				onError === 'stopWorkflow'
					? { message: run.error?.message, description: run.error?.description }
					: run.outputs('Contract Signing')[1][0].json.error;
			expect(error).toMatchObject({
				message: 'Client not found',
				description: expect.stringMatching(/^The client may have been created all the same/),
			});
		},
	);

	it('a refused create (4xx) is sent again on every try: the service did not act, and the next try may be answered otherwise', async () => {
		const refused: Fault = {
			kind: 'status',
			status: 404,
			body: { code: '404', message: 'Template not found: tpl_gone' },
		};
		service().injectFault(refused, { path: '/v1/client', times: Infinity });
		const { error } = await runStep(
			service(),
			{ ...CREATE_CLIENT, customKey: 'crm-1043' },
			{
				items: [contacts[0]],
				settings: RETRY_ON_FAIL,
			},
		);

		expect(error?.message).toContain('Template not found: tpl_gone');
		expect(service().requests).toHaveLength(RETRY_ON_FAIL.maxTries);
		expect(service().clients()).toHaveLength(0);
	});

	it('a read (User → Get) is sent again after a 500: reading twice creates nothing', async () => {
		const { clientKey } = await seedClient(service());
		service().injectFault(failedWithoutActing, { path: '/v1/user' });
		const run = await runStep(
			service(),
			{ resource: 'user', operation: 'get', clientKey, email: 'ada@example.com' },
			{ settings: RETRY_ON_FAIL },
		);

		expect(run.error).toBeUndefined();
		expect(run.items).toEqual([expect.objectContaining({ email: 'ada@example.com' })]);
		expect(service().requests).toHaveLength(2);
	});

	it('sends identical items each, and sends again in a new execution', async () => {
		const twins = [CONTACTS[0], CONTACTS[0]] as unknown as IDataObject[];
		failFirstRequestOf(service(), ['crm-1'], busyWithoutActing);
		const first = await runStep(
			service(),
			{ ...CREATE_CLIENT, ...NO_WAITING },
			{
				items: twins,
				settings: RETRY_ON_FAIL,
			},
		);
		const second = await runStep(service(), CREATE_CLIENT, {
			items: twins,
			settings: RETRY_ON_FAIL,
		});

		expect([first.error, second.error]).toEqual([undefined, undefined]);
		expect(tally(service())).toEqual({ requests: 5, created: { 'crm-1': 4 } });
	});
});

describe('Retry On Fail: exactly once whatever the fields do', () => {
	/** Creates the record, then answers 500: the node cannot know the record exists. */
	const actedThenFailed: Fault = {
		kind: 'afterActing',
		status: 500,
		body: { code: '500', message: 'Signature backend unavailable' },
	};
	const changing = [
		['$now', '{{ "NDA " + $json.crmId + " " + $now.toISO() }}'],
		['Date.now()', '{{ "NDA " + $json.crmId + " " + Date.now() }}'],
		['Math.random()', '{{ "NDA " + $json.crmId + " " + Math.random() }}'],
	];

	it.each(changing)(
		'Contract → Create with a name from %s: the contract the service made is not made again',
		async (_what, name) => {
			const { clientKey } = await seedClient(service());
			service().injectFault(actedThenFailed, { path: '/v1/contract', times: 1 });
			const run = await runStep(
				service(),
				{ resource: 'contract', operation: 'create', clientKey, name: `=${name}` },
				{
					items: contacts.slice(0, 3),
					onError: 'continueErrorOutput',
					settings: { ...RETRY_ON_FAIL, waitBetweenTries: 50 },
				},
			);

			const contracts = service().contracts();
			expect(contracts.map((contract) => contract.name.split(' ')[1]).sort()).toEqual([
				'crm-1',
				'crm-2',
				'crm-3',
			]);
			expect(service().requests.filter((request) => request.path === '/v1/contract')).toHaveLength(
				3,
			);
			const [success, failure] = run.outputs('Contract Signing');
			expect(success).toHaveLength(2);
			expect(failure.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
			// The error names the contract as it was sent, the one to look for.
			const sentName = contracts.find((contract) => contract.name.includes('crm-1 '))!.name;
			expect(failure[0].json.error).toMatchObject({
				message: 'Signature backend unavailable',
				description: expect.stringContaining(`a contract named "${sentName}"`),
			});
		},
	);

	it.each(MODES)(
		'%s: Client → Create with a full name from $now: one client per contact',
		async (onError) => {
			failFirstRequestOf(service(), ['crm-1', 'crm-7'], actedThenFailed);
			const run = await runStep(
				service(),
				{ ...CREATE_CLIENT, ...NO_WAITING, fullname: '={{ $json.name + " " + $now.toMillis() }}' },
				{ items: contacts, onError, settings: RETRY_ON_FAIL },
			);

			expect(tally(service())).toEqual({ requests: 12, created: onceEach() });
			if (onError === 'stopWorkflow') {
				expect(run.error?.description).toMatch(/^The client may have been created all the same/);
				return;
			}
			const output = outputByInput(run);
			expect(output.map((item) => item.pairedItem)).toEqual(CONTACTS.map((_, item) => ({ item })));
			const failed = output.filter((item) => item.json.error !== undefined);
			expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 6 }]);
		},
	);
});

describe("the node's memory, in the execution's node context", () => {
	/** What the node kept in the execution's context for the step named 'Contract Signing'. */
	const memoryOf = (run: Awaited<ReturnType<typeof runStep>>['run']) =>
		run.data.executionData?.contextData['node:Contract Signing'] as IDataObject | undefined;
	const contacts = CONTACTS.slice(0, 3) as unknown as IDataObject[];

	it('holds each item’s result only under Retry On Fail, and nothing of a send once it is over', async () => {
		const plain = await runStep(service(), CREATE_CLIENT, { items: contacts });
		const retried = await runStep(service(), CREATE_CLIENT, {
			items: contacts,
			settings: RETRY_ON_FAIL,
		});

		expect(plain.error).toBeUndefined();
		expect(memoryOf(plain.run)?.results).toBeUndefined();
		expect(Object.keys((memoryOf(retried.run)?.results as IDataObject) ?? {})).toHaveLength(3);
		expect(memoryOf(plain.run)?.sent).toEqual({});
		expect(memoryOf(retried.run)?.sent).toEqual({});
	});

	it('keeps a copy of each result, not the item n8n goes on with', async () => {
		const retried = await runStep(service(), CREATE_CLIENT, {
			items: contacts,
			settings: RETRY_ON_FAIL,
		});
		const kept = Object.values(memoryOf(retried.run)?.results as Record<string, IDataObject>).map(
			(result) => (result.json as IDataObject[])[0],
		);

		expect(kept).toEqual(retried.items);
		kept.forEach((result, item) => expect(result).not.toBe(retried.items[item]));
	});
});
