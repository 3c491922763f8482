/**
 * Stop and Timeout, in a real n8n driven as the editor drives it: `n8n start`, the workflow
 * created and run through the REST API, then stopped with the editor's Stop. First a reply that
 * never comes: the service takes the request and never answers. Then a run spaced by n8n's
 * Batching, stopped between two batches: nothing is sent after the Stop. Prints, for each case,
 * how the run ended, how long after the Stop (or the start), when the service saw its connection
 * closed and how many requests it received.
 *
 * On the pinned n8n and on 1.x (CONTRACT_SIGNING_N8N=1.x): the run and stop endpoints and their
 * bodies are the ones their editors use (POST /rest/workflows/:id/run with `triggerToStartFrom`, and
 * on 1.x the workflow itself; POST /rest/executions/:id/stop).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { batching, CREATE_CLIENT } from '../scenarios/contacts.mts';
import type { RecordedRequest } from '../service/stand-in.mts';
import {
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	NODE_TYPE,
	restJson,
	runHasEnded,
	unflatten,
} from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const NODE = 'Create Client';
/** Longer than any wait the fixed node needs; a run still going by then is a failure, not a hang. */
const GIVE_UP_MS = 20_000;
const TIMEOUT_MS = 2000;

const LINE = process.env.CONTRACT_SIGNING_N8N ?? '';
if (!['', '1.x'].includes(LINE)) {
	throw new Error(
		`stop.e2e.mts drives the REST API of the pinned n8n and of 1.x, not of n8n ${LINE}`,
	);
}

const suite = useN8n('stop', { start: true });

const START = {
	id: 'c0ffee00-0000-4000-8000-000000000001',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const credentials = {
	[CREDENTIAL_TYPE]: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
};

/** Manual Trigger → Contract Signing: Client → Create, one item, Settings → Request Options → Timeout 2 s. */
function silentWorkflow(name: string) {
	return {
		name,
		nodes: [
			START,
			{
				id: 'c0ffee00-0000-4000-8000-000000000002',
				name: NODE,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [200, 0],
				credentials,
				parameters: {
					resource: 'client',
					operation: 'create',
					fullname: 'Ada Lovelace',
					email: 'ada@example.com',
					customKey: 'crm-1',
					requestOptions: { timeout: TIMEOUT_MS },
				},
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

const BATCHED_CONTACTS = ['crm-1', 'crm-2', 'crm-3'];
const BATCH_INTERVAL_MS = 1000;

/**
 * Manual Trigger → three contacts (Code) → Contract Signing: Client → Create with Settings →
 * Request Options → Batching, one item per batch, 1 s apart.
 */
function batchedWorkflow(name: string) {
	const contacts = BATCHED_CONTACTS.map((crmId, index) => ({
		name: `Contact ${index + 1}`,
		email: `contact${index + 1}@example.com`,
		crmId,
	}));
	return {
		name,
		nodes: [
			START,
			{
				id: 'c0ffee00-0000-4000-8000-000000000003',
				name: 'Contacts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: {
					jsCode: `return ${JSON.stringify(contacts)}.map((json) => ({ json }));`,
				},
			},
			{
				id: 'c0ffee00-0000-4000-8000-000000000004',
				name: NODE,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [400, 0],
				credentials,
				parameters: { ...CREATE_CLIENT, ...batching(1, BATCH_INTERVAL_MS) },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** Creates the workflow as the editor saves a new one; returns its id. */
async function createWorkflow(
	name: string,
	workflow: (name: string) => object = silentWorkflow,
): Promise<string> {
	const created = await restJson<{ id: string }>(suite.rest, '/rest/workflows', {
		method: 'POST',
		// n8n 1.x's editor sends `active` with a new workflow, and 1.x needs it.
		body: JSON.stringify({ ...workflow(name), ...(LINE === '1.x' && { active: false }) }),
	});
	return created.id;
}

/**
 * The editor's "Execute workflow" from the Manual Trigger; returns the execution's id. The editor
 * of n8n 1.x sends the workflow itself along.
 */
async function runWorkflow(workflowId: string): Promise<string> {
	const workflowData =
		LINE === '1.x'
			? await restJson<object>(suite.rest, `/rest/workflows/${workflowId}`)
			: undefined;
	const started = await restJson<{ executionId?: string }>(
		suite.rest,
		`/rest/workflows/${workflowId}/run`,
		{
			method: 'POST',
			body: JSON.stringify({
				workflowId,
				...(workflowData && { workflowData }),
				startNodes: [],
				triggerToStartFrom: { name: 'Start' },
			}),
		},
	);
	if (!started.executionId) throw new Error(`no execution started: ${JSON.stringify(started)}`);
	return started.executionId;
}

interface Execution {
	status: string;
	stoppedAt?: string | null;
	/** The run data, in n8n's `flatted` form. */
	data?: string;
}

async function readExecution(executionId: string): Promise<Execution> {
	return await restJson<Execution>(suite.rest, `/rest/executions/${executionId}`);
}

/** The editor's Stop; returns the status it answers with. */
async function stopExecution(executionId: string): Promise<string> {
	const stopped = await restJson<{ status: string }>(
		suite.rest,
		`/rest/executions/${executionId}/stop`,
		{ method: 'POST' },
	);
	return stopped.status;
}

/**
 * Polls until the run has ended and the service's connection is closed, or GIVE_UP_MS passed:
 * when each was first seen, in ms after `since` (undefined: not within the limit).
 */
async function watchUntilEnded(executionId: string, request: RecordedRequest, since: number) {
	let endedAfterMs: number | undefined;
	for (;;) {
		const execution = await readExecution(executionId);
		if (endedAfterMs === undefined && runHasEnded(execution.status)) {
			endedAfterMs = Date.now() - since;
		}
		const settled = endedAfterMs !== undefined && request.closedAt !== undefined;
		if (settled || Date.now() - since >= GIVE_UP_MS) {
			const closedAfterMs = request.closedAt === undefined ? undefined : request.closedAt - since;
			return { execution, endedAfterMs, closedAfterMs };
		}
		await sleep(100);
	}
}

/** The first request of the run, once it has reached the service. */
async function firstRequest(): Promise<RecordedRequest> {
	const giveUpAt = Date.now() + GIVE_UP_MS;
	while (suite.service.requests.length === 0) {
		if (Date.now() > giveUpAt) throw new Error('the run sent no request to the service');
		await sleep(50);
	}
	return suite.service.requests[0];
}

/** The run's error, from n8n's stored run data. */
function runError(execution: Execution): { message?: string; description?: string } | undefined {
	if (!execution.data) return undefined;
	const run = unflatten(execution.data) as
		| { resultData?: { error?: { message?: string; description?: string } } }
		| undefined;
	return run?.resultData?.error;
}

const ms = (value: number | undefined) =>
	value === undefined ? `not within ${GIVE_UP_MS} ms` : `${value} ms`;

describe('a reply that never comes, in n8n start', () => {
	it('Stop cancels the run and ends its request under way, as n8n ends its own nodes’ requests; nothing is sent again', async () => {
		suite.service.reset();
		suite.service.injectFault({ kind: 'silent' }, { path: '/v1/client' });
		const workflowId = await createWorkflow('Stop while the service does not answer');
		const executionId = await runWorkflow(workflowId);
		const request = await firstRequest();
		await vi.waitFor(
			async () => expect((await readExecution(executionId)).status).toBe('running'),
			{ timeout: GIVE_UP_MS, interval: 50 },
		);

		const stoppedAt = Date.now();
		const stopped = await stopExecution(executionId);
		const { execution, endedAfterMs, closedAfterMs } = await watchUntilEnded(
			executionId,
			request,
			stoppedAt,
		);
		process.stdout.write(
			`stop: the Stop answered "${stopped}"; run ${execution.status}, ended ${ms(endedAfterMs)} ` +
				`after the Stop; the service's connection closed ${ms(closedAfterMs)} after the Stop; ` +
				`${suite.service.requests.length} request(s)\n`,
		);

		expect(suite.service.requests).toHaveLength(1);
		expect(execution.status).toBe('canceled');
		// n8n's cancel signal, which `httpRequestWithAuthentication` hands the request, ended it:
		// the Stop, not the Timeout.
		expect(closedAfterMs).toBeDefined();
		expect(closedAfterMs!).toBeLessThan(TIMEOUT_MS);
		// Still canceled once the Timeout would have passed: nothing ended it as an error later,
		// and nothing was sent again.
		await sleep(TIMEOUT_MS + 1000);
		expect((await readExecution(executionId)).status).toBe('canceled');
		expect(suite.service.requests).toHaveLength(1);
	});

	// The message is n8n's own for a request it gave up on; the node adds what it means for the client.
	it('Settings → Request Options → Timeout ends the run after 2 s, saying the client may exist', async () => {
		suite.service.reset();
		suite.service.injectFault({ kind: 'silent' }, { path: '/v1/client' });
		const workflowId = await createWorkflow('Timeout while the service does not answer');
		const startedAt = Date.now();
		const executionId = await runWorkflow(workflowId);
		const request = await firstRequest();

		const { execution, endedAfterMs, closedAfterMs } = await watchUntilEnded(
			executionId,
			request,
			request.receivedAt,
		);
		const error = runError(execution);
		process.stdout.write(
			`timeout: run ${execution.status}, ended ${ms(endedAfterMs)} after the request reached the ` +
				`service (${Date.now() - startedAt} ms after Run); the connection closed ${ms(closedAfterMs)} ` +
				`after it; error: ${error?.message ?? 'none'}; description: ${error?.description ?? 'none'}\n`,
		);

		expect(suite.service.requests).toHaveLength(1);
		expect(execution.status).toBe('error');
		expect(closedAfterMs).toBeDefined();
		expect(endedAfterMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
		expect(error?.message).toMatch(/\S/);
		expect(error?.description).toMatch(/^The client may have been created all the same/);
		expect(error?.description).toContain(`'Custom Key' "crm-1"`);
	});
});

describe('Stop during a run spaced by Batching, in n8n start', () => {
	it(`3 contacts, 1 per batch ${BATCH_INTERVAL_MS} ms apart, stopped once the first reply is out: nothing is sent after the Stop`, async () => {
		suite.service.reset();
		const workflowId = await createWorkflow('Stop between batches', batchedWorkflow);
		const executionId = await runWorkflow(workflowId);
		const first = await firstRequest();
		await vi.waitFor(() => expect(first.repliedAt).toBeDefined(), {
			timeout: GIVE_UP_MS,
			interval: 20,
		});

		const sentBeforeStop = suite.service.requests.length;
		const stoppedAt = Date.now();
		const stopped = await stopExecution(executionId);
		const { execution, endedAfterMs } = await watchUntilEnded(executionId, first, stoppedAt);
		// Longer than the batches still to come would have taken: each would have been sent by then.
		await sleep(BATCH_INTERVAL_MS * (BATCHED_CONTACTS.length + 1));
		const after = suite.service.requests.slice(sentBeforeStop);
		process.stdout.write(
			`stop between batches: ${sentBeforeStop} request(s) before the Stop, which answered "${stopped}"; ` +
				`run ${execution.status}, ended ${ms(endedAfterMs)} after the Stop; ` +
				`${after.length} request(s) after it (${after.map((request) => request.rawBody).join(' ') || 'none'}); ` +
				`clients created: ${suite.service
					.clients()
					.map((client) => client.customKey)
					.join(', ')}\n`,
		);

		expect(sentBeforeStop).toBe(1);
		expect(execution.status).toBe('canceled');
		expect(after).toEqual([]);
		expect(suite.service.requests).toHaveLength(1);
		expect(suite.service.clients().map((client) => client.customKey)).toEqual(['crm-1']);
	});
});
