/**
 * Bulk runs into a service that limits its rate, in a real n8n: the packed package, `n8n execute`,
 * the stand-in allowing R requests per second (429 + Retry-After beyond it, nothing done for a
 * refused request). 400 contacts through Client → Create in one run, no Batching, no Retry On
 * Fail: n8n sends each item as soon as it has built it, without waiting for the replies to the
 * ones before, and each item the service refuses waits out its Retry-After itself (a random while
 * longer, so that the refused ones do not come back together) and is sent again. Each is created
 * exactly once and the run succeeds, also when the limit drops mid-run; how long that takes is a
 * row of `npm run bench` (BENCHMARKS.md, "A service that limits its rate"), not a bound here.
 * n8n's HTTP Request node with this credential, against the same limit, is printed beside it.
 * Then 2,000 contacts in one run into a service that keeps up: each created once. Part of the n8n
 * version matrix.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CREATE_CLIENT, tally, type Contact } from '../scenarios/contacts.mts';
import { contactsWorkflow } from './contacts-workflow.mts';
import { CREDENTIAL_TYPE, importWorkflows } from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const N = 400;
const R = 40;
const NODE = 'Create Clients';
/** Four n8n runs of 400 items, each after n8n's own start. */
const TIMEOUT_MS = 300_000;

const LARGE_RUN = 2000;

const contacts = (count: number): Contact[] =>
	Array.from({ length: count }, (_, index) => ({
		name: `Contact ${String(index + 1).padStart(3, '0')}`,
		email: `contact${index + 1}@example.com`,
		crmId: `crm-${index + 1}`,
	}));
const CONTACTS = contacts(N);
const onceEach = (list: Contact[]) => Object.fromEntries(list.map(({ crmId }) => [crmId, 1]));

const thisNodeWorkflow = contactsWorkflow({
	id: 'csPacing',
	node: NODE,
	contacts: CONTACTS,
	parameters: CREATE_CLIENT,
	onError: 'stopWorkflow',
});

const largeRunWorkflow = contactsWorkflow({
	id: 'csPacingLarge',
	node: NODE,
	contacts: contacts(LARGE_RUN),
	parameters: CREATE_CLIENT,
	onError: 'stopWorkflow',
});

/** The same workflow with n8n's HTTP Request node in place of this one. */
function httpRequestWorkflow() {
	const body = `{ "data": { "action": "create", "client": { "fullname": "{{ $json.name }}", "email": "{{ $json.email }}", "customKey": "{{ $json.crmId }}" } } }`;
	return {
		...thisNodeWorkflow,
		id: 'csPacingHttp',
		name: 'Contacts csPacingHttp',
		nodes: thisNodeWorkflow.nodes.map((node) =>
			node.name !== NODE
				? node
				: {
						...node,
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						parameters: {
							method: 'POST',
							url: `${suite.service.url}/v1/client`,
							authentication: 'predefinedCredentialType',
							nodeCredentialType: CREDENTIAL_TYPE,
							sendBody: true,
							specifyBody: 'json',
							jsonBody: `=${body}`,
							options: {},
						},
					},
		),
	};
}

const suite = useN8n('pacing', {
	prepare: async () => {
		await importWorkflows(suite.home, [thisNodeWorkflow, httpRequestWorkflow(), largeRunWorkflow]);
	},
});

/** Runs the workflow and prints its figures; the node's time is n8n's own, without n8n's start. */
async function run(name: string, workflowId: string, contactCount = N) {
	const result = await suite.execute(workflowId);
	const runData = result.run.data.resultData.runData as unknown as Record<
		string,
		Array<{ executionTime?: number }> | undefined
	>;
	const nodeMs = runData[NODE]?.[0]?.executionTime;
	const { requests, created } = tally(suite.service);
	const refused = suite.service.requests.filter((request) => request.limited).length;
	const counts = Object.values(created);
	process.stdout.write(
		`pacing ${name}: node ${nodeMs === undefined ? '?' : (nodeMs / 1000).toFixed(1)} s, ` +
			`${requests} requests, ${refused} refused (${((100 * refused) / contactCount).toFixed(1)} % of the contacts), ` +
			`${suite.service.mostUnderWay()} under way at most, ${counts.length} clients created ` +
			`(${counts.filter((count) => count > 1).length} twice), run ${result.status}\n`,
	);
	return { result, nodeMs, created };
}

function expectOnceEach({ result, created }: Awaited<ReturnType<typeof run>>, list = CONTACTS) {
	expect(result.status).toBe('success');
	expect(created).toEqual(onceEach(list));
}

/** Lowers the limit some time after the run's first request: n8n takes seconds to start. */
async function lowerLimitLater(afterMs: number, perSecond: number, signal: AbortSignal) {
	while (suite.service.requests.length === 0) await sleep(50, undefined, { signal });
	await sleep(afterMs, undefined, { signal });
	suite.service.settings.rateLimit = { perSecond };
}

describe(`a service that allows ${R} requests per second, in real n8n`, () => {
	it(
		`this node: ${N} contacts, each created once`,
		async () => {
			suite.service.reset();
			suite.service.settings.rateLimit = { perSecond: R };
			const figures = await run(`this node, ${N} contacts, ${R}/s`, thisNodeWorkflow.id);

			expectOnceEach(figures);
		},
		TIMEOUT_MS,
	);

	it(
		'the HTTP Request node with this credential, for comparison',
		async () => {
			suite.service.reset();
			suite.service.settings.rateLimit = { perSecond: R };
			const { result } = await run(`HTTP Request node, ${N} contacts, ${R}/s`, 'csPacingHttp');

			// Only that the figures were gathered: how it fares is what the line shows.
			expect(result.run.data.resultData.runData[NODE]).toBeDefined();
		},
		TIMEOUT_MS,
	);

	it(
		`this node, the limit lowered to ${R / 2}/s 5 s into the run: each created once`,
		async () => {
			suite.service.reset();
			suite.service.settings.rateLimit = { perSecond: R };
			const stop = new AbortController();
			const lowered = lowerLimitLater(5000, R / 2, stop.signal).then(
				() => true,
				() => false,
			);
			const figures = await run(
				`this node, ${N} contacts, ${R}/s lowered to ${R / 2}/s after 5 s`,
				thisNodeWorkflow.id,
			);
			stop.abort();

			expect(await lowered).toBe(true);
			// No time limit: at the lower rate alone the rest takes about 1.5 × N / R.
			expectOnceEach(figures);
		},
		TIMEOUT_MS,
	);
});

describe('a service that keeps up, in real n8n', () => {
	it(
		`this node: ${LARGE_RUN} contacts in one run, each created once`,
		async () => {
			suite.service.reset();
			suite.service.settings.latencyMs = 20;
			const figures = await run(
				`this node, ${LARGE_RUN} contacts, 20 ms a reply, no limit`,
				largeRunWorkflow.id,
				LARGE_RUN,
			);

			expectOnceEach(figures, contacts(LARGE_RUN));
		},
		TIMEOUT_MS,
	);
});
