/**
 * Each contact exactly once, in a real n8n: the packed package, runs started as the editor's
 * Execute workflow starts them, the stand-in with faults on some requests. Prints, for each
 * scenario, the requests the service received, the records it created and the node's output
 * items; and checks that the API key reaches no other origin, for this node and for n8n's HTTP
 * Request node using the credential.
 */
import { describe, expect, it, vi } from 'vitest';
import {
	CONTACTS,
	CREATE_CLIENT,
	busyWithoutActing,
	failFirstRequestOf,
	failedWithoutActing,
	NO_WAITING,
	onceEach,
	rateLimited,
	requestTimes,
	tally,
} from '../scenarios/contacts.mts';
import { contactsWorkflow, type OnError } from './contacts-workflow.mts';
import {
	contractSigningCredential,
	importCredentials,
	importWorkflows,
	nodeItems,
	type ExecutionResult,
} from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const NODE = 'Create Client';
interface Scenario {
	id: string;
	onError: OnError;
	retryOnFail: boolean;
	parameters?: Record<string, unknown>;
}

/** Manual Trigger → the 12 contacts → one item each → Contract Signing: Client → Create. */
function scenarioWorkflow({ id, onError, retryOnFail, parameters }: Scenario) {
	return contactsWorkflow({
		id,
		node: NODE,
		...(id === 'csNothingAnswers' && { credentialId: NOTHING_ANSWERS_CREDENTIAL_ID }),
		parameters: { ...CREATE_CLIENT, ...parameters },
		onError,
		retryOnFail,
	});
}

const MODES: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];
const scenarios: Record<string, Scenario> = {};
for (const [index, onError] of MODES.entries()) {
	scenarios[`busy-${onError}`] = {
		id: `csBusy${index}`,
		onError,
		retryOnFail: true,
		parameters: NO_WAITING,
	};
	scenarios[`failed-${onError}`] = { id: `csFailed${index}`, onError, retryOnFail: true };
}
scenarios.rateLimited = { id: 'csRateLimited', onError: 'stopWorkflow', retryOnFail: false };
scenarios.timeout = {
	id: 'csTimeout',
	onError: 'continueErrorOutput',
	retryOnFail: true,
	parameters: { requestOptions: { timeout: 500 } },
};
scenarios.redirect = { id: 'csRedirect', onError: 'stopWorkflow', retryOnFail: false };
scenarios.nothingAnswers = {
	id: 'csNothingAnswers',
	onError: 'stopWorkflow',
	retryOnFail: false,
	parameters: { options: { maxRetries: 1 } },
};
/** A credential whose Base URL is a port where nothing listens: each connection is refused. */
const NOTHING_ANSWERS_CREDENTIAL_ID = 'csNothingAnswersCredential';

/** The recorder: another server, which nothing carrying the key may reach. */
const suite = useN8n('exactly-once', {
	recorder: true,
	start: true,
	prepare: async () => {
		await importCredentials(suite.home, [
			contractSigningCredential(
				{ baseUrl: 'http://127.0.0.1:9', apiKey: suite.service.apiKey },
				NOTHING_ANSWERS_CREDENTIAL_ID,
			),
		]);
		await importWorkflows(suite.home, [...Object.values(scenarios).map(scenarioWorkflow)]);
	},
});

/** Runs a scenario and prints what happened: the figures the closing note of a change quotes. */
async function run(name: string): Promise<ExecutionResult> {
	const result = await suite.execute(scenarios[name].id);
	const [success = [], failure = []] = nodeItems(result, NODE);
	const errors = [...success, ...failure].filter((item) => item.json.error !== undefined).length;
	const { requests, created } = tally(suite.service);
	const records = Object.values(created).reduce((sum, count) => sum + count, 0);
	process.stdout.write(
		`exactly-once ${name}: ${CONTACTS.length} contacts, ${requests} requests, ${records} clients created, ` +
			`${success.length + failure.length} output items (${errors} errors), run ${result.status}\n`,
	);
	return result;
}

/** Success and error output together, in input order. */
function itemsInOrder(result: ExecutionResult) {
	const [success = [], failure = []] = nodeItems(result, NODE);
	return [...success, ...failure].sort((a, b) => a.pairedItem!.item - b.pairedItem!.item);
}

describe('the API key reaches no other origin, in real n8n', () => {
	it('this node (12 contacts): a redirect to another server is not followed', async () => {
		suite.service.reset();
		suite.recorder.requests.length = 0;
		suite.service.injectFault(
			{ kind: 'redirect', location: `${suite.recorder.url}/v1/client` },
			{ times: Infinity },
		);
		const result = await suite.execute(scenarios.redirect.id);
		const error = result.run.data.resultData.error?.message ?? '';
		process.stdout.write(
			`redirect: ${suite.service.requests.length} requests to the service, ${suite.recorder.requests.length} to the redirect's target; error: ${error}\n`,
		);

		expect(suite.service.requests).toHaveLength(12);
		expect(suite.recorder.requests).toEqual([]);
		expect(result.status).not.toBe('success');
		expect(error).toMatch(
			/^The service address redirects to http:\/\/127\.0\.0\.1:\d+\/v1\/client \(HTTP 307\)$/,
		);
		expect(result.output).not.toContain(suite.service.apiKey);
	});
});

describe('Retry On Fail in real n8n: each contact exactly once', () => {
	it.each(MODES)(
		'%s: creates the service may have acted on are not sent again',
		async (onError) => {
			suite.service.reset();
			failFirstRequestOf(suite.service, ['crm-1', 'crm-7'], failedWithoutActing);
			const result = await run(`failed-${onError}`);

			expect(tally(suite.service)).toEqual({ requests: 12, created: onceEach(['crm-1', 'crm-7']) });
			if (onError === 'stopWorkflow') {
				expect(result.status).toBe('error');
				expect(result.run.data.resultData.error?.message).toBe('Signature backend unavailable');
				return;
			}
			const items = itemsInOrder(result);
			expect(items.map((item) => item.pairedItem!.item)).toEqual(CONTACTS.map((_, item) => item));
			const failed = items.filter((item) => item.json.error !== undefined);
			expect(failed.map((item) => item.pairedItem!.item)).toEqual([0, 6]);
			expect(failed[0].json).toMatchObject({
				error: {
					message: 'Signature backend unavailable',
					code: '500',
					description: expect.stringContaining(`'Custom Key' "crm-1"`),
				},
			});
		},
	);

	it('a create that timed out is not sent again, and its error says it may exist', async () => {
		suite.service.reset();
		failFirstRequestOf(suite.service, ['crm-1'], { kind: 'delay', ms: 1500 });
		const result = await run('timeout');
		// The stand-in acts on the slow request after the node gave up on it.
		await vi.waitFor(
			() => expect(tally(suite.service)).toEqual({ requests: 12, created: onceEach() }),
			{ timeout: 5000 },
		);
		const [success, failed] = nodeItems(result, NODE);
		expect(success.map((item) => item.pairedItem!.item)).toEqual(
			CONTACTS.slice(1).map((_, index) => index + 1),
		);
		// The message and code are n8n's own for a request it gave up on; the node says what it
		// means for the client.
		expect(failed.map((item) => [item.pairedItem!.item, item.json])).toEqual([
			[
				0,
				expect.objectContaining({
					crmId: 'crm-1',
					error: {
						message: expect.any(String),
						code: expect.any(String),
						description: expect.stringMatching(
							/^The client may have been created all the same.*'Custom Key' "crm-1"/,
						),
					},
				}),
			],
		]);
	});

	it.each(MODES)('%s: a busy service, answered by Retry On Fail', async (onError) => {
		suite.service.reset();
		failFirstRequestOf(suite.service, ['crm-1', 'crm-7'], busyWithoutActing);
		const result = await run(`busy-${onError}`);

		expect(result.status).toBe('success');
		expect(tally(suite.service)).toEqual({ requests: 14, created: onceEach() });
		const items = itemsInOrder(result);
		expect(items.map((item) => [item.pairedItem, item.json.customKey])).toEqual(
			CONTACTS.map(({ crmId }, item) => [{ item }, crmId]),
		);
		expect(items.every((item) => item.json.error === undefined)).toBe(true);
	});

	it('429 with Retry-After, without Retry On Fail: waited out, each created once', async () => {
		suite.service.reset();
		failFirstRequestOf(suite.service, ['crm-3', 'crm-9'], rateLimited());
		const result = await run('rateLimited');

		expect(result.status).toBe('success');
		expect(tally(suite.service)).toEqual({ requests: 14, created: onceEach() });
		for (const crmId of ['crm-3', 'crm-9']) {
			const [refused, accepted] = requestTimes(suite.service, crmId);
			const pause = accepted.receivedAt - refused.repliedAt!;
			process.stdout.write(`exactly-once rateLimited: ${crmId} sent again after ${pause} ms\n`);
			expect(pause).toBeGreaterThanOrEqual(1000);
		}
	});

	it('503 without Retry-After, without Retry On Fail: waited out by the node, each created once', async () => {
		suite.service.reset();
		failFirstRequestOf(suite.service, ['crm-3', 'crm-9'], busyWithoutActing);
		const result = await run('rateLimited');

		expect(result.status).toBe('success');
		expect(tally(suite.service)).toEqual({ requests: 14, created: onceEach() });
		for (const crmId of ['crm-3', 'crm-9']) {
			expect(requestTimes(suite.service, crmId), `the requests for ${crmId}`).toHaveLength(2);
		}
	});

	// n8n 2.x gives the network's code as the error's cause, 1.x as its httpCode: either is read.
	it('a refused connection is waited out as a busy service, and its error says nothing answers', async () => {
		suite.service.reset();
		const result = await run('nothingAnswers');

		expect(result.status).toBe('error');
		expect(suite.service.requests).toHaveLength(0);
		expect(result.output).toContain('Nothing answers at the Base URL.');
		expect(result.output).toContain(
			'The node tried 1 more time, the most that Options → Max Retries When Busy allows.',
		);
	});
});
