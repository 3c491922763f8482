/**
 * Two promises of the README, in a real n8n: the packed package, runs started as the editor's
 * Execute workflow starts them, the stand-in.
 *
 * Each item is sent at most once per run, even when a mapped field changes between Retry On
 * Fail's tries (`$now` in a name): a create the service may have acted on is not sent again.
 * Counted in the records the service holds, not only in requests.
 *
 * The API key, pasted with spaces and a line break around it, reaches the service trimmed, and
 * only the service: a redirect to another server is not followed, so the key does not go there.
 * The service's refusal and its success reach the user as the service sent them. Prints one line
 * of figures per scenario. Part of the n8n version matrix.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTACTS, CREATE_CLIENT, failFirstRequestOf, NO_WAITING } from '../scenarios/contacts.mts';
import { seedClient } from '../service/seed-client.mts';
import type { Fault } from '../service/stand-in.mts';
import {
	contractSigningCredential,
	importCredentials,
	importWorkflows,
	nodeItems,
	type ExecutionResult,
} from './n8n-instance.mts';
import { contactsWorkflow, type OnError } from './contacts-workflow.mts';
import { useN8n } from './suite.mts';

const MODES: OnError[] = ['continueErrorOutput', 'stopWorkflow'];

/** Distinctive; '+' and '/' as in base64 keys. */
const API_KEY = `sk_e2e_${randomBytes(10).toString('hex')}+${randomBytes(4).toString('hex')}/${randomBytes(4).toString('hex')}`;
/** How the key looks when copied from a web page or a password manager. */
const PASTED_KEY = `  ${API_KEY}\n`;
const PASTED_CREDENTIAL_ID = 'csPastedKey';

const NODE = 'Contract Signing';
const CONTACTS_SENT = CONTACTS.slice(0, 4);
/** Their first request gets the 500 after the record was created: items 0 and 2. */
const FAILING = ['crm-1', 'crm-3'];

const signatureBackendDown: Fault = {
	kind: 'afterActing',
	status: 500,
	body: { code: '500', message: 'Signature backend unavailable' },
};

/** Client → Create whose Full Name changes with every evaluation, so with every try. */
const CREATE_CLIENT_NOW = {
	...CREATE_CLIENT,
	...NO_WAITING,
	fullname: '={{ $json.name + " " + $now.toISO() }}',
};

function contractParameters(clientKey: string) {
	return {
		resource: 'contract',
		operation: 'create',
		clientKey,
		name: '={{ "NDA " + $json.crmId + " " + $now.toISO() }}',
		...NO_WAITING,
	};
}

const changingClientId = (onError: OnError) => `csNowClient${MODES.indexOf(onError)}`;
const changingContractId = (onError: OnError) => `csNowContract${MODES.indexOf(onError)}`;

type KeyScenario = 'refused401' | 'redirect' | 'success';
const KEY_SCENARIOS: KeyScenario[] = ['refused401', 'redirect', 'success'];
const keyWorkflowId = (scenario: KeyScenario, onError: OnError) =>
	`csKey${KEY_SCENARIOS.indexOf(scenario)}${MODES.indexOf(onError)}`;

/** The service's reply in each key scenario. */
function keyFault(scenario: KeyScenario): Fault {
	switch (scenario) {
		case 'refused401':
			return {
				kind: 'status',
				status: 401,
				body: { code: '401', message: 'Invalid service key' },
			};
		case 'redirect':
			// To another server, the recorder: were the redirect followed, the key would go there.
			return { kind: 'redirect', location: `${suite.recorder.url}/v1/client` };
		case 'success':
			return {
				kind: 'status',
				status: 201,
				body: {
					code: '201',
					message: 'Client created',
					client: { clientKey: 'cli_x', createTime: '2026-01-01 00:00:00', users: [] },
				},
			};
	}
}

const suite = useN8n('promises', {
	service: { apiKey: API_KEY },
	recorder: true,
	start: true,
	prepare,
});

async function prepare() {
	await importCredentials(suite.home, [
		contractSigningCredential(
			{ baseUrl: suite.service.url, apiKey: PASTED_KEY },
			PASTED_CREDENTIAL_ID,
		),
	]);
	await importWorkflows(suite.home, [
		...MODES.map((onError) =>
			contactsWorkflow({
				id: changingClientId(onError),
				node: NODE,
				contacts: CONTACTS_SENT,
				parameters: CREATE_CLIENT_NOW,
				onError,
				retryOnFail: true,
			}),
		),
		...KEY_SCENARIOS.flatMap((scenario) =>
			MODES.map((onError) =>
				contactsWorkflow({
					id: keyWorkflowId(scenario, onError),
					node: NODE,
					contacts: CONTACTS.slice(0, 1),
					parameters: {
						...CREATE_CLIENT,
						...(scenario === 'success' ? { simple: false } : {}),
					},
					onError,
					credentialId: PASTED_CREDENTIAL_ID,
				}),
			),
		),
	]);
}

/** Success and error output together, in input order. */
function itemsInOrder(result: ExecutionResult) {
	const [success = [], failure = []] = nodeItems(result, NODE);
	return [...success, ...failure].sort((a, b) => a.pairedItem!.item - b.pairedItem!.item);
}

interface ItemError {
	message?: string;
	description?: string;
}

/** The run's error under "Stop Workflow", as n8n stored it. */
function runError(result: ExecutionResult): ItemError | undefined {
	return result.run.data.resultData.error as ItemError | undefined;
}

/** Records per CRM id, read from the records themselves (client Custom Key, contract name). */
function recordsPerContact(crmIdOf: (record: { customKey?: string; name?: string }) => string) {
	const records: Record<string, number> = {};
	for (const record of [...suite.service.clients(), ...suite.service.contracts()]) {
		const crmId = crmIdOf(record);
		if (crmId) records[crmId] = (records[crmId] ?? 0) + 1;
	}
	return records;
}

const onceEachSent = () => Object.fromEntries(CONTACTS_SENT.map(({ crmId }) => [crmId, 1]));

/** Runs a scenario and prints its figures: requests, records, output items. */
async function runCounted(
	name: string,
	workflowId: string,
	path: string,
	crmIdOf: (record: { customKey?: string; name?: string }) => string,
) {
	const result = await suite.execute(workflowId);
	const [success = [], failure = []] = nodeItems(result, NODE);
	const requests = suite.service.requests.filter((request) => request.path === path).length;
	const records = recordsPerContact(crmIdOf);
	const recordCount = Object.values(records).reduce((sum, count) => sum + count, 0);
	process.stdout.write(
		`promises ${name}: ${CONTACTS_SENT.length} items, ${requests} requests, ${recordCount} records ` +
			`${JSON.stringify(records)}, ${success.length} + ${failure.length} output items ` +
			`(success + error output), run ${result.status}\n`,
	);
	return { result, requests, records };
}

/**
 * Each item sent once and its record made once; the items whose first request got the 500 on the
 * error output (or, stopped, the run's error) saying the record may exist, the others created.
 */
function expectOncePerItem(
	onError: OnError,
	{ result, requests, records }: Awaited<ReturnType<typeof runCounted>>,
	resource: 'client' | 'contract',
	crmIdOfOutput: (json: Record<string, unknown>) => string,
) {
	expect(records).toEqual(onceEachSent());
	expect(requests).toBe(CONTACTS_SENT.length);
	const mayExist = {
		message: 'Signature backend unavailable',
		description: expect.stringMatching(`^The ${resource} may have been created all the same`),
	};
	if (onError === 'stopWorkflow') {
		expect(result.status).toBe('error');
		expect(runError(result)).toMatchObject(mayExist);
		return;
	}
	const [success, failure] = nodeItems(result, NODE);
	expect(success.map((item) => [item.pairedItem!.item, crmIdOfOutput(item.json)])).toEqual([
		[1, 'crm-2'],
		[3, 'crm-4'],
	]);
	expect(failure.map((item) => [item.pairedItem!.item, item.json.crmId])).toEqual([
		[0, 'crm-1'],
		[2, 'crm-3'],
	]);
	for (const item of failure) expect(item.json.error).toMatchObject(mayExist);
	expect(itemsInOrder(result).map((item) => item.pairedItem!.item)).toEqual([0, 1, 2, 3]);
}

describe('Retry On Fail with a field that changes between tries: each item sent at most once', () => {
	const clientCrmId = (record: { customKey?: string }) => record.customKey ?? '';

	it.each(MODES)('%s: Client → Create with $now in Full Name', async (onError) => {
		suite.service.reset();
		failFirstRequestOf(suite.service, FAILING, signatureBackendDown);
		const { result, requests, records } = await runCounted(
			`client-${onError}`,
			changingClientId(onError),
			'/v1/client',
			clientCrmId,
		);

		expectOncePerItem(onError, { result, requests, records }, 'client', (json) =>
			String(json.customKey),
		);
	});

	it.each(MODES)('%s: Contract → Create with $now in Contract Name', async (onError) => {
		suite.service.reset();
		const { clientKey } = await seedClient(suite.service);
		// The client key is the seeded one's, known only now: the workflow is imported per test.
		await importWorkflows(suite.home, [
			contactsWorkflow({
				id: changingContractId(onError),
				node: NODE,
				contacts: CONTACTS_SENT,
				parameters: contractParameters(clientKey),
				onError,
				retryOnFail: true,
			}),
		]);
		for (const crmId of FAILING) {
			suite.service.injectFault(signatureBackendDown, {
				path: '/v1/contract',
				when: (request) => request.rawBody.includes(`"name":"NDA ${crmId} `),
				times: 1,
			});
		}
		const contractCrmId = (record: { name?: string }) =>
			/^NDA (crm-\d+) /.exec(record.name ?? '')?.[1] ?? '';
		const { result, requests, records } = await runCounted(
			`contract-${onError}`,
			changingContractId(onError),
			'/v1/contract',
			contractCrmId,
		);

		expectOncePerItem(onError, { result, requests, records }, 'contract', contractCrmId);
	});
});

describe('a key pasted with spaces and a line break', () => {
	const cases = KEY_SCENARIOS.flatMap((scenario) =>
		MODES.map((onError) => [scenario, onError] as const),
	);

	it.each(cases)(
		'%s, %s: the key arrives trimmed, at the service only',
		async (scenario, onError) => {
			suite.service.reset();
			suite.recorder.requests.length = 0;
			suite.service.injectFault(keyFault(scenario), { path: '/v1/client' });
			const result = await suite.execute(keyWorkflowId(scenario, onError));
			const arrived = suite.service.requests[0]?.headers['x-service-key'];
			const [success = [], failure = []] = nodeItems(result, NODE);
			const error = runError(result) ?? (failure[0]?.json.error as ItemError | undefined);
			process.stdout.write(
				`promises key ${scenario}-${onError}: ${suite.service.requests.length} requests, X-Service-Key arrived as ` +
					`${arrived === undefined ? 'nothing' : JSON.stringify(arrived)}; ` +
					`${suite.recorder.requests.length} requests to another server; run ${result.status}, ` +
					`${success.length} + ${failure.length} output items; error: ${error?.message ?? 'none'}\n`,
			);

			expect(suite.service.requests).toHaveLength(1);
			expect(arrived).toBe(API_KEY);
			expect(suite.recorder.requests).toEqual([]);
			if (scenario === 'success') {
				expect(result.status).toBe('success');
				expect(success.map((item) => item.json)).toEqual([
					expect.objectContaining({
						code: '201',
						client: expect.objectContaining({ clientKey: 'cli_x' }),
					}),
				]);
				return;
			}
			const expectedMessage =
				scenario === 'refused401'
					? /^Invalid service key$/
					: /^The service address redirects to http:\/\/127\.0\.0\.1:\d+\/v1\/client \(HTTP 307\)$/;
			expect(error?.message).toMatch(expectedMessage);
			if (onError === 'stopWorkflow') expect(result.status).toBe('error');
			else expect(failure).toHaveLength(1);
		},
	);
});
