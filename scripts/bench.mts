/**
 * Throughput of Contract → Create in a real n8n, against the two other ways a user could make the
 * same calls: a raw Node.js HTTP loop (the limit) and n8n's HTTP Request node with this credential
 * (the peer). Each variant of this node has its HTTP Request counterpart given the same values:
 * two mapped by expressions (`{{ $json.clientKey }}`, `{{ $json.name }}`), or constants.
 *
 *   npm run bench                          # 1,000 items, latency 0 and 20 ms, Batching off and 50/100 ms
 *   npm run bench -- --items 1000 --repeat 5 --large 10000
 *   npm run bench -- --storm 300 --rate-limited 400   # the sizes of the two runs against a limit
 *   npm run bench -- --against ../before   # also a built checkout of another version, side by side
 *   npm run bench -- --engine legacy       # n8n's expression engine (N8N_EXPRESSION_ENGINE), else its default
 *   CONTRACT_SIGNING_N8N=1.x npm run bench # in n8n 1.x, as the end-to-end tests run there
 *
 * Two runs against a service that limits its rate (429 + Retry-After beyond it, nothing done)
 * follow, each method once: a rate-limited run, 400 contacts in one execution against a stand-in
 * allowing 40 requests per second; and a storm, 300 executions of one contact each, posted at
 * once, against a stand-in allowing 8 requests per second. Each execution of the node waits out a
 * busy service on its own: nothing is shared between them. Every record is named after its contact,
 * so that the stand-in's records show whether each contact was created once.
 * With --against, the other version's node runs beside this one in the same n8n, as the package
 * `n8n-nodes-contract-signing-before` (both define the credential type; n8n uses one of the two).
 *
 * The targets, for 1,000 items in n8n 2.41.1 with its default expression engine, compare with the
 * HTTP Request node given the same values in the same run: 2 mapped fields at most 1.3 × its time,
 * constant fields at most 0.6 ×. Against the limits: every record once, no execution failed, within
 * 1.5 × the ideal time N / R. (The live heap per item, at most the HTTP Request node's, is
 * bench-engine.mts's.)
 *
 * Every n8n method runs in the same workflow, as a CRM import would: Webhook → a Code node that
 * produces the items → the method → Respond to Webhook. One `n8n start` process serves every run,
 * warmed up first (a cold process, as under `n8n execute`, is slower for every method); the methods
 * are interleaved and each configuration repeated, and the table gives medians, so the ratios hold
 * on a noisy machine. Every n8n method is timed the same way: the node's execution time in n8n's
 * run data. The raw loop runs in one long-lived Node.js 24 process, warmed up the same way, and is
 * timed around its loop.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createInterface } from 'node:readline';
import { routingAloneNode } from '../test/engine/routing-alone-node.mts';
import { batching as batchingSettings } from '../test/scenarios/contacts.mts';
import { seedClient } from '../test/service/seed-client.mts';
import { startStandIn, type StandIn } from '../test/service/stand-in.mts';
import {
	buildPackage,
	createN8nHome,
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	importCredential,
	importWorkflows,
	NODE_TYPE,
	ownerSession,
	packPackage,
	publishWorkflow,
	removeN8nHome,
	startN8n,
	type N8nHome,
	type RunningN8n,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n, N8N_LINE_UNDER_TEST, type N8nRuntime } from '../test/e2e/n8n-runtime.mts';

function textOption(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
}

function option(name: string, fallback: number): number {
	const text = textOption(name);
	return text === undefined ? fallback : Number(text);
}

const against = textOption('against');
/** A built checkout of another version of the package, measured beside this one. */
const AGAINST = against === undefined ? undefined : resolve(against);
const BEFORE_PACKAGE = 'n8n-nodes-contract-signing-before';
/** n8n's expression engine for the run; n8n 2.41.1's default, `vm`, evaluates in isolated-vm. */
const ENGINE = textOption('engine');

const execFileAsync = promisify(execFile);
const ITEMS = option('items', 1000);
const REPEAT = option('repeat', 3);
const LARGE = option('large', 10_000);
/** A bulk import into a limited service: every contact in one execution. */
const RATE_LIMITED: Config & { rateLimit: { perSecond: number } } = {
	items: option('rate-limited', 400),
	latencyMs: 0,
	rateLimit: { perSecond: 40 },
};
/** A CRM's bulk change: one execution per contact, all posted at once, against a low limit. */
const STORM = { executions: option('storm', 300), perSecond: 8 };
/** The targets' n8n and expression engine; in another, the verdicts are printed all the same. */
const TARGET_N8N = '2.41.1';
const BATCHED: Batching = { size: 50, intervalMs: 100 };
/** The latency of the large run: the one a user's import is described with. */
const LARGE_LATENCY_MS = 20;

interface Batching {
	size: number;
	intervalMs: number;
}

interface Config {
	items: number;
	latencyMs: number;
	batching?: Batching;
	rateLimit?: { perSecond: number };
}

type Values = '2 mapped' | 'constant';

interface Method {
	name: string;
	/** What the node is given: the two values mapped by expressions, or constants. */
	values?: Values;
	/** The HTTP Request node given the same values, for this node's variants. */
	peer?: string;
	/** The node under test; none for the raw loop. */
	node?: (service: StandIn, clientKey: string, batching?: Batching) => Record<string, unknown>;
}

const MAPPED = { clientKey: '{{ $json.clientKey }}', name: '{{ $json.name }}' };

const credentials = {
	[CREDENTIAL_TYPE]: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
};

/** Options → Batching, the same for both nodes. */
const batchingOption = (batched?: Batching) =>
	batched ? batchingSettings(batched.size, batched.intervalMs).requestOptions : {};

/** The HTTP Request node with this credential; one JSON body holds both values. */
function httpRequestNode(values: Values) {
	return (service: StandIn, clientKey: string, batching?: Batching) => {
		const { clientKey: key, name } =
			values === '2 mapped' ? MAPPED : { clientKey, name: 'Contract' };
		const body = `{ "data": { "action": "create", "clientKey": "${key}", "contract": { "name": "${name}" } } }`;
		return {
			type: 'n8n-nodes-base.httpRequest',
			// n8n 1.x's newest is 4.3; 4.3 to 4.5 are one class, HttpRequestV3.
			typeVersion: N8N_LINE_UNDER_TEST === '1.x' ? 4.3 : 4.5,
			credentials,
			parameters: {
				method: 'POST',
				url: `${service.url}/v1/contract`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: CREDENTIAL_TYPE,
				sendBody: true,
				specifyBody: 'json',
				// Constants stay plain text: a body marked as an expression is evaluated for every item
				// even without a {{ }} in it.
				jsonBody: values === '2 mapped' ? `=${body}` : body,
				options: batchingOption(batching),
			},
		};
	};
}

/** Contract Signing, Contract → Create. */
function thisNode(values: Values, settings: Record<string, unknown> = {}, type = NODE_TYPE) {
	return (_service: StandIn, clientKey: string, batching?: Batching) => ({
		type,
		typeVersion: 1,
		credentials,
		parameters: {
			resource: 'contract',
			operation: 'create',
			clientKey: values === '2 mapped' ? `=${MAPPED.clientKey}` : clientKey,
			name: values === '2 mapped' ? `=${MAPPED.name}` : 'Contract',
			requestOptions: batchingOption(batching),
		},
		...settings,
	});
}

const RAW_LOOP = 'raw loop';
const HTTP_MAPPED = 'HTTP Request node, 2 mapped';
const HTTP_CONSTANT = 'HTTP Request node, constant';
const NODE_MAPPED = 'this node, 2 mapped';
const NODE_CONSTANT = 'this node, constant';

const ROUTING_MAPPED = 'routing alone, 2 mapped';
const ROUTING_CONSTANT = 'routing alone, constant';
/** n8n's routing alone: a declarative node with no code (test/engine/routing-alone-node.mts). */
const ROUTING_ALONE_PACKAGE = 'n8n-nodes-routing-alone';
const ROUTING_ALONE_TYPE = `${ROUTING_ALONE_PACKAGE}.routingAlone`;

const BEFORE_MAPPED = 'before: this node, 2 mapped';
const BEFORE_CONSTANT = 'before: this node, constant';
const BEFORE_TYPE = `${BEFORE_PACKAGE}.contractSigning`;

const METHODS: Method[] = [
	{ name: RAW_LOOP },
	{ name: HTTP_MAPPED, values: '2 mapped', node: httpRequestNode('2 mapped') },
	{ name: HTTP_CONSTANT, values: 'constant', node: httpRequestNode('constant') },
	{ name: NODE_MAPPED, values: '2 mapped', peer: HTTP_MAPPED, node: thisNode('2 mapped') },
	{ name: NODE_CONSTANT, values: 'constant', peer: HTTP_CONSTANT, node: thisNode('constant') },
	// n8n's own floor for a declarative node given the same values.
	{
		name: ROUTING_MAPPED,
		values: '2 mapped',
		peer: HTTP_MAPPED,
		node: thisNode('2 mapped', {}, ROUTING_ALONE_TYPE),
	},
	{
		name: ROUTING_CONSTANT,
		values: 'constant',
		peer: HTTP_CONSTANT,
		node: thisNode('constant', {}, ROUTING_ALONE_TYPE),
	},
	// Remembers each item's result for the retries: what that costs, nothing failing.
	{
		name: 'this node, 2 mapped, Retry On Fail',
		values: '2 mapped',
		peer: HTTP_MAPPED,
		node: thisNode('2 mapped', { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 }),
	},
	...(AGAINST
		? [
				{
					name: BEFORE_MAPPED,
					values: '2 mapped' as const,
					peer: HTTP_MAPPED,
					node: thisNode('2 mapped', {}, BEFORE_TYPE),
				},
				{
					name: BEFORE_CONSTANT,
					values: 'constant' as const,
					peer: HTTP_CONSTANT,
					node: thisNode('constant', {}, BEFORE_TYPE),
				},
			]
		: []),
];

/**
 * The methods of the runs against a limit: this node, the HTTP Request node (and the other
 * version), each with the contact's name mapped, so that every record names its contact.
 */
const LIMITED_METHODS = METHODS.filter((method) =>
	[NODE_MAPPED, HTTP_MAPPED, BEFORE_MAPPED].includes(method.name),
);

const workflowPath = (method: Method, batching?: Batching) =>
	`bench-${method.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}${batching ? '-batched' : ''}`;

/** Webhook → a Code node producing the items → the method under test → the execution id. */
function benchWorkflow(service: StandIn, clientKey: string, method: Method, batching?: Batching) {
	const path = workflowPath(method, batching);
	const id = path.replace(/-/g, '').slice(0, 40);
	const chain = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			webhookId: `${id}-hook`,
			parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
		},
		{
			name: 'Contacts',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: {
				jsCode: [
					'const { count, clientKey, first = 0 } = $input.first().json.body;',
					"return Array.from({ length: count }, (_, i) => ({ json: { clientKey, name: 'Contract ' + (first + i) } }));",
				].join('\n'),
			},
		},
		{ name: 'Under Test', ...method.node!(service, clientKey, batching) },
		{
			name: 'Answer',
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.5,
			parameters: {
				respondWith: 'json',
				responseBody: '={{ { executionId: $execution.id } }}',
				options: {},
			},
		},
	];
	return {
		id,
		name: `Benchmark: ${method.name}${batching ? ', batched' : ''}`,
		nodes: chain.map((node, index) => ({
			id: `${id}-${index}`,
			position: [index * 200, 0],
			...node,
		})),
		connections: Object.fromEntries(
			chain
				.slice(0, -1)
				.map((node, index) => [
					node.name,
					{ main: [[{ node: chain[index + 1].name, type: 'main', index: 0 }]] },
				]),
		),
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/**
 * The same calls from a plain Node.js process (n8n's Node 24), on the same schedule: one line of
 * JSON in (count, batch size, interval), the loop's time in milliseconds out.
 */
const RAW_LOOP_SCRIPT = `
import { createInterface } from 'node:readline';
const [url, apiKey, clientKey] = process.argv.slice(1);
const send = async (index) => {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Service-Key': apiKey },
		body: JSON.stringify({ data: { action: 'create', clientKey, contract: { name: 'Contract ' + index } } }),
	});
	await response.json();
};
for await (const line of createInterface({ input: process.stdin })) {
	const { count, batchSize, intervalMs } = JSON.parse(line);
	const started = performance.now();
	const pending = [];
	for (let index = 0; index < count; index++) {
		if (index > 0 && batchSize > 0 && index % batchSize === 0) {
			await new Promise((resolve) => setTimeout(resolve, intervalMs));
		}
		pending.push(send(index));
	}
	await Promise.all(pending);
	process.stdout.write(String(performance.now() - started) + '\\n');
}
`;

function startRawLoop(runtime: N8nRuntime, service: StandIn, clientKey: string) {
	const child = spawn(
		runtime.nodeBin,
		[
			'--input-type=module',
			'-e',
			RAW_LOOP_SCRIPT,
			`${service.url}/v1/contract`,
			service.apiKey,
			clientKey,
		],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
	return {
		async run(config: Config): Promise<number> {
			child.stdin.write(
				`${JSON.stringify({
					count: config.items,
					batchSize: config.batching?.size ?? 0,
					intervalMs: config.batching?.intervalMs ?? 0,
				})}\n`,
			);
			const { value, done } = await lines.next();
			if (done) throw new Error('the raw loop ended');
			return Number(value);
		},
		stop: () => child.kill(),
	};
}

function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Bench {
	service: StandIn;
	n8n: RunningN8n;
	rest: Awaited<ReturnType<typeof ownerSession>>;
	rawLoop: ReturnType<typeof startRawLoop>;
	clientKey: string;
	parseFlatted: (text: string) => unknown;
}

interface Measurement {
	/** The node's execution time in n8n's run data; for the raw loop, its loop. */
	timeMs: number;
	requests: number;
	/** Items the node put out. */
	outputs?: number;
	p50Ms: number;
	p99Ms: number;
	peakRssMb?: number;
	rssGrowthMb?: number;
	/** The run ended in an error. */
	failed?: boolean;
}

/** The answer of a run that succeeded: n8n 1.x answers a failed one with 200 and no body. */
async function succeeded(response: Response): Promise<string | undefined> {
	const answer = await response.text();
	return response.ok && answer !== '' ? answer : undefined;
}

async function measure(bench: Bench, method: Method, config: Config): Promise<Measurement> {
	const { service, n8n } = bench;
	service.settings.latencyMs = config.latencyMs;
	service.settings.rateLimit = config.rateLimit;
	const firstRequest = service.requests.length;
	let run: Pick<Measurement, 'timeMs' | 'outputs' | 'peakRssMb' | 'rssGrowthMb' | 'failed'>;

	if (!method.node) {
		run = { timeMs: await bench.rawLoop.run(config) };
	} else {
		const before = rssMb(n8n.pid);
		let peak = before;
		const sampler = setInterval(() => {
			peak = Math.max(peak, rssMb(n8n.pid));
		}, 20);
		const response = await fetch(`${n8n.url}/webhook/${workflowPath(method, config.batching)}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ count: config.items, clientKey: bench.clientKey }),
		});
		clearInterval(sampler);
		const answer = await succeeded(response);
		// Against a rate limit a method may fail; its run is looked up as the newest execution.
		if (answer === undefined && !config.rateLimit) {
			throw new Error(`${method.name}: the run failed (HTTP ${response.status})`);
		}
		const executionId = answer
			? (JSON.parse(answer) as { executionId: string }).executionId
			: await newestExecution(bench);
		run = {
			...(await underTestRun(bench, executionId)),
			peakRssMb: peak,
			rssGrowthMb: peak - before,
			failed: answer === undefined,
		};
	}

	const requests = service.requests.slice(firstRequest);
	const durations = requests.map((request) => (request.repliedAt ?? NaN) - request.receivedAt);
	service.settings.rateLimit = undefined;
	return {
		...run,
		requests: requests.length,
		p50Ms: percentile(durations, 0.5),
		p99Ms: percentile(durations, 0.99),
	};
}

async function newestExecution(bench: Bench): Promise<string> {
	const response = await bench.rest('/rest/executions?limit=1');
	const { data } = (await response.json()) as { data: { results: Array<{ id: string }> } };
	return data.results[0].id;
}

/** The execution time n8n recorded for the node under test, and how many items it put out. */
async function underTestRun(bench: Bench, executionId: string) {
	for (let attempt = 0; attempt < 50; attempt++) {
		const response = await bench.rest(`/rest/executions/${executionId}`);
		if (response.ok) {
			const { data } = (await response.json()) as { data: { data: string } };
			const { runData } = (
				bench.parseFlatted(data.data) as {
					resultData: {
						runData: Record<
							string,
							Array<{ executionTime: number; data?: { main: Array<unknown[] | null> } }>
						>;
					};
				}
			).resultData;
			const underTest = runData['Under Test']?.[0];
			if (underTest) {
				return {
					timeMs: underTest.executionTime,
					outputs: underTest.data?.main[0]?.length ?? 0,
				};
			}
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`no run data for execution ${executionId}`);
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const percentile = (values: number[], fraction: number) => {
	if (!values.length) return 0;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
};

function describeConfig(config: Config): string {
	const batching = config.batching
		? `Batching ${config.batching.size}/${config.batching.intervalMs} ms`
		: 'Batching off';
	return `${config.items.toLocaleString('en')} items, latency ${config.latencyMs} ms, ${batching}`;
}

/** Pauses between batches plus the last batch's latency: the least Batching can take. */
const schedule = (config: Config) =>
	config.batching
		? (Math.ceil(config.items / config.batching.size) - 1) * config.batching.intervalMs +
			config.latencyMs
		: 0;

interface Row {
	config: Config;
	results: Map<Method, Measurement[]>;
}

const timeOf = (row: Row, name: string) => {
	const method = METHODS.find((entry) => entry.name === name)!;
	return median(row.results.get(method)!.map((entry) => entry.timeMs));
};

function table(rows: Row[]): string[] {
	const lines = [
		'| Configuration | Method | Time (median, ms) | ms/item | Items/s | Requests | Stand-in p50 / p99 (ms) | n8n peak RSS / growth (MB) | ÷ raw loop | ÷ HTTP Request, same values |',
		'|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const row of rows) {
		for (const method of METHODS) {
			const entries = row.results.get(method)!;
			const time = timeOf(row, method.name);
			const memory = method.node
				? `${Math.round(Math.max(...entries.map((entry) => entry.peakRssMb!)))} / ${Math.round(
						Math.max(...entries.map((entry) => entry.rssGrowthMb!)),
					)}`
				: '–';
			lines.push(
				[
					'',
					describeConfig(row.config),
					method.name,
					Math.round(time).toLocaleString('en'),
					(time / row.config.items).toFixed(2),
					Math.round((row.config.items / time) * 1000).toLocaleString('en'),
					Math.max(...entries.map((entry) => entry.requests)),
					`${median(entries.map((entry) => entry.p50Ms))} / ${median(entries.map((entry) => entry.p99Ms))}`,
					memory,
					method.node ? (time / timeOf(row, RAW_LOOP)).toFixed(2) : '–',
					method.peer ? (time / timeOf(row, method.peer)).toFixed(2) : '–',
					'',
				]
					.join(' | ')
					.trim(),
			);
		}
	}
	return lines;
}

const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The speed rows of Batching off at a latency; the targets are read from them. */
const speedRow = (rows: Row[], latencyMs: number, batched = false) =>
	rows.find(
		(row) => row.config.latencyMs === latencyMs && Boolean(row.config.batching) === batched,
	)!;

/**
 * The targets: this node against the HTTP Request node given the same values, in this run; and
 * this node's outcome in each run against a limit.
 */
function targets(rows: Row[], limited: LimitedOutcome[]): string[] {
	const lines: string[] = [];
	const ratio = (row: Row, method: string, other: string, limit: number, what: string) => {
		const value = timeOf(row, method) / timeOf(row, other);
		lines.push(
			`- ${what}, ${row.config.items.toLocaleString('en')} items, ${row.config.latencyMs} ms latency: ${method} ÷ ${other} = ${value.toFixed(3)} (at most ${limit} ×): ${verdict(value <= limit)}`,
		);
	};
	for (const latencyMs of [0, 20]) {
		ratio(speedRow(rows, latencyMs), NODE_MAPPED, HTTP_MAPPED, 1.3, '2 mapped fields');
		ratio(speedRow(rows, latencyMs), NODE_CONSTANT, HTTP_CONSTANT, 0.6, 'Constant fields');
	}
	for (const entry of limited.filter(({ method }) => method === NODE_MAPPED)) {
		lines.push(
			`- ${entry.run}, ${entry.method}: every record once, no execution failed, within 1.5 × ideal (${seconds(1.5 * entry.idealMs)}): ${verdict(entry.holds)}`,
		);
	}
	lines.push(
		"- Live heap per item at most the HTTP Request node's: measured by `npm run bench:engine`, not here.",
	);
	return lines;
}

/** How closely each method kept Batching's schedule (no target; the schedule is n8n's own). */
function batchingLines(rows: Row[]): string[] {
	const lines: string[] = [];
	for (const latencyMs of [0, 20]) {
		const row = speedRow(rows, latencyMs, true);
		if (row.config.items <= BATCHED.size) {
			lines.push(
				`- Batching ${BATCHED.size}/${BATCHED.intervalMs} ms, ${latencyMs} ms latency: ${row.config.items} items are one batch, no schedule to keep`,
			);
			continue;
		}
		const planned = schedule(row.config);
		const percent = (method: string) =>
			`${Math.round(Math.abs(timeOf(row, method) / planned - 1) * 100)} %`;
		lines.push(
			`- Batching ${BATCHED.size}/${BATCHED.intervalMs} ms, ${latencyMs} ms latency, against a schedule of ${planned.toLocaleString('en')} ms: ${[NODE_MAPPED, HTTP_MAPPED, NODE_CONSTANT, HTTP_CONSTANT].map((method) => `${method} off by ${percent(method)}`).join(', ')}`,
		);
	}
	return lines;
}

function forAUser(large: Row): string {
	const took = (name: string) => seconds(timeOf(large, name));
	return `For a user: ${large.config.items.toLocaleString('en')} contacts at ${large.config.latencyMs} ms latency take ${took(NODE_MAPPED)} with this node and two mapped fields, ${took(NODE_CONSTANT)} with constant fields; the HTTP Request node takes ${took(HTTP_MAPPED)} and ${took(HTTP_CONSTANT)}, the raw loop ${took(RAW_LOOP)}.`;
}

/** This node's largest growth of n8n's RSS in the large run. */
function largestGrowth(large: Row): number {
	return Math.max(
		...METHODS.filter((method) => method.name.startsWith('this node')).map(
			(method) => large.results.get(method)![0].rssGrowthMb!,
		),
	);
}

/** Every item created exactly one contract: counted at the stand-in, and by name where names differ. */
function completeness(service: StandIn, method: Method, firstContract: number, run: Measurement) {
	const created = service.contracts().slice(firstContract);
	const names = new Set(created.map((contract) => contract.name)).size;
	const expected = LARGE;
	const distinct = method.values !== 'constant';
	const complete =
		run.requests === expected &&
		created.length === expected &&
		(run.outputs ?? expected) === expected &&
		(!distinct || names === expected);
	return `${method.name}: ${run.requests} requests, ${created.length} contracts created${
		distinct ? `, ${names} distinct names` : ' (one name for all)'
	}${run.outputs === undefined ? '' : `, ${run.outputs} items out`}: ${complete ? 'complete' : 'NOT complete'}`;
}

async function main() {
	const log = (line: string) => process.stdout.write(`• ${line}\n`);
	const loadAtStart = loadavg();
	log('building and packing the package…');
	await buildPackage();
	const tarball = await packPackage();
	const runtime = await ensureN8n({ log });
	const service = await startStandIn();
	const clientKey = (await seedClient(service)).clientKey;
	const parseFlatted = (
		createRequire(join(runtime.root, 'node_modules', 'n8n', 'package.json'))('flatted') as {
			parse: (text: string) => unknown;
		}
	).parse;

	let home: N8nHome | undefined;
	let n8n: RunningN8n | undefined;
	const rawLoop = startRawLoop(runtime, service, clientKey);
	try {
		home = await createN8nHome(runtime, tarball);
		if (ENGINE) home.env.N8N_EXPRESSION_ENGINE = ENGINE;
		if (AGAINST) await installBefore(home, AGAINST);
		installRoutingAlone(home);
		await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
		const workflows = METHODS.filter((method) => method.node).flatMap((method) =>
			[undefined, BATCHED].map((batching) => benchWorkflow(service, clientKey, method, batching)),
		);
		await importWorkflows(home, workflows);
		for (const workflow of workflows) await publishWorkflow(home, workflow.id);
		log('starting n8n…');
		n8n = await startN8n(home);
		const rest = await ownerSession(n8n.url);
		const bench: Bench = { service, n8n, rest, rawLoop, clientKey, parseFlatted };
		await webhooksRegistered(bench);

		// Full-size runs: the paths a 1,000-item run takes are compiled before anything is timed.
		log('warming up…');
		for (const method of METHODS) await measure(bench, method, { items: ITEMS, latencyMs: 0 });

		const rows: Row[] = [];
		for (const config of [
			{ items: ITEMS, latencyMs: 0 },
			{ items: ITEMS, latencyMs: 20 },
			{ items: ITEMS, latencyMs: 0, batching: BATCHED },
			{ items: ITEMS, latencyMs: 20, batching: BATCHED },
		]) {
			const results = new Map(METHODS.map((method) => [method, [] as Measurement[]]));
			for (let round = 0; round < REPEAT; round++) {
				for (const method of METHODS)
					results.get(method)!.push(await measure(bench, method, config));
			}
			rows.push({ config, results });
			log(`measured ${describeConfig(config)}`);
		}

		const large: Row = {
			config: { items: LARGE, latencyMs: LARGE_LATENCY_MS },
			results: new Map(),
		};
		log(`measuring ${describeConfig(large.config)} once per method…`);
		const largeChecks: string[] = [];
		for (const method of METHODS) {
			const firstContract = service.contracts().length;
			const result = await measure(bench, method, large.config);
			large.results.set(method, [result]);
			largeChecks.push(completeness(service, method, firstContract, result));
			log(largeChecks[largeChecks.length - 1]);
		}

		log(
			`measuring ${describeConfig(RATE_LIMITED)}, at most ${RATE_LIMITED.rateLimit.perSecond} requests per second, once per method…`,
		);
		const rateLimited = await rateLimitedRun(bench);
		log(
			`${STORM.executions} one-contact executions at once, at most ${STORM.perSecond} requests per second, once per method…`,
		);
		const storm = await stormRun(bench);
		const noLimit = await stormWithoutLimit(bench);

		const command = `npm run bench -- --items ${ITEMS} --repeat ${REPEAT} --large ${LARGE} --storm ${STORM.executions} --rate-limited ${RATE_LIMITED.items}${AGAINST ? ` --against ${AGAINST}` : ''}${ENGINE ? ` --engine ${ENGINE}` : ''}`;
		const targetsApply = runtime.version === TARGET_N8N && ENGINE === undefined;
		const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
		process.stdout.write(
			[
				'',
				`Command: ${command}`,
				`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; n8n ${runtime.version} on Node.js 24, expression engine ${ENGINE ?? "n8n's default"}; ${REPEAT} rounds, methods interleaved; load average ${load(loadAtStart)} at the start, ${load(loadavg())} at the end.`,
				'',
				...table([...rows, large]),
				'',
				`Batching ${BATCHED.size}/${BATCHED.intervalMs} ms for ${ITEMS.toLocaleString('en')} items, how far each time is from n8n's schedule (no target):`,
				...batchingLines(rows),
				'',
				`${LARGE.toLocaleString('en')} items:`,
				...largeChecks.map((line) => `- ${line}`),
				`- this node's largest growth of n8n's RSS: ${Math.round(largestGrowth(large))} MB`,
				'',
				`Rate-limited: ${RATE_LIMITED.items} contacts in one execution, the stand-in allowing ${RATE_LIMITED.rateLimit.perSecond} requests per second; the node's time in n8n's run data:`,
				'',
				...limitedTable(rateLimited),
				'',
				`Storm: ${STORM.executions} executions of one contact each, posted at the same moment, the stand-in allowing ${STORM.perSecond} requests per second; the time until every execution had answered:`,
				'',
				...limitedTable(storm),
				'',
				noLimit,
				'',
				targetsApply
					? 'Targets:'
					: `Targets (set for n8n ${TARGET_N8N} with its default expression engine; this run: n8n ${runtime.version}, expression engine ${ENGINE ?? "n8n's default"}):`,
				...targets(rows, [...rateLimited, ...storm]),
				'',
				forAUser(large),
				'',
			].join('\n'),
		);
	} finally {
		rawLoop.stop();
		await n8n?.stop();
		await service.close();
		removeN8nHome(home);
	}
}

/** The other version's packed files as a second community package, under a name of its own. */
async function installBefore(home: N8nHome, checkout: string) {
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', home.userFolder],
		{ cwd: checkout },
	);
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	const folder = join(home.userFolder, '.n8n', 'nodes', 'node_modules', BEFORE_PACKAGE);
	mkdirSync(folder, { recursive: true });
	await execFileAsync('tar', [
		'-xzf',
		join(home.userFolder, filename),
		'-C',
		folder,
		'--strip-components=1',
	]);
	const manifest = join(folder, 'package.json');
	writeFileSync(
		manifest,
		JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), name: BEFORE_PACKAGE }),
	);
}

/** The routing-alone node as a community package of its own: one node file, no code of its own. */
function installRoutingAlone(home: N8nHome) {
	const folder = join(home.userFolder, '.n8n', 'nodes', 'node_modules', ROUTING_ALONE_PACKAGE);
	mkdirSync(join(folder, 'dist'), { recursive: true });
	const description = { ...routingAloneNode.description, name: 'routingAlone' };
	writeFileSync(
		join(folder, 'package.json'),
		JSON.stringify({
			name: ROUTING_ALONE_PACKAGE,
			version: '1.0.0',
			n8n: { n8nNodesApiVersion: 1, nodes: ['dist/RoutingAlone.node.js'] },
		}),
	);
	writeFileSync(
		join(folder, 'dist', 'RoutingAlone.node.js'),
		`class RoutingAlone { description = ${JSON.stringify(description)}; }\nmodule.exports = { RoutingAlone };\n`,
	);
}

/** One method's run against a limit, and whether it met "every record once, no execution failed, within 1.5 × ideal". */
interface LimitedOutcome {
	/** Which run: the rate-limited one or the storm. */
	run: string;
	method: string;
	timeMs: number;
	requests: number;
	refused: number;
	/** Contracts the stand-in made in this run. */
	records: number;
	/** Contacts with exactly one contract, of `contacts`. */
	once: number;
	contacts: number;
	failedExecutions: number;
	executions: number;
	/** N / R: the contacts at the service's rate, were nothing refused. */
	idealMs: number;
	holds: boolean;
}

/**
 * What a run against a limit left at the service: its requests since `firstRequest`, and its
 * records since `firstContract`, each contact ('Contract <index>') counted by name.
 */
function outcome(
	bench: Bench,
	entry: Pick<
		LimitedOutcome,
		'run' | 'method' | 'timeMs' | 'contacts' | 'failedExecutions' | 'executions'
	> & { perSecond: number; firstRequest: number; firstContract: number },
): LimitedOutcome {
	const { service } = bench;
	const requests = service.requests.slice(entry.firstRequest);
	const records = service.contracts().slice(entry.firstContract);
	const perName = new Map<string, number>();
	for (const { name } of records) perName.set(name, (perName.get(name) ?? 0) + 1);
	const once = Array.from({ length: entry.contacts }, (_, index) => `Contract ${index}`).filter(
		(name) => perName.get(name) === 1,
	).length;
	const idealMs = (1000 * entry.contacts) / entry.perSecond;
	return {
		run: entry.run,
		method: entry.method,
		timeMs: entry.timeMs,
		requests: requests.length,
		refused: requests.filter((request) => request.limited).length,
		records: records.length,
		once,
		contacts: entry.contacts,
		failedExecutions: entry.failedExecutions,
		executions: entry.executions,
		idealMs,
		holds:
			records.length === entry.contacts &&
			once === entry.contacts &&
			entry.failedExecutions === 0 &&
			entry.timeMs <= 1.5 * idealMs,
	};
}

function limitedTable(outcomes: LimitedOutcome[]): string[] {
	return [
		'| Method | Time | Requests | Refused (429) | Records made | Each record once | Executions failed | Ideal N / R | 1.5 × ideal | Every record once, no execution failed, within 1.5 × ideal |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...outcomes.map((entry) =>
			[
				'',
				entry.method,
				seconds(entry.timeMs),
				entry.requests,
				`${entry.refused} (${((100 * entry.refused) / Math.max(1, entry.requests)).toFixed(1)} %)`,
				entry.records,
				entry.once === entry.contacts && entry.records === entry.contacts
					? 'yes'
					: `no: ${entry.once} of ${entry.contacts} once`,
				`${entry.failedExecutions} of ${entry.executions}`,
				seconds(entry.idealMs),
				seconds(1.5 * entry.idealMs),
				verdict(entry.holds),
				'',
			]
				.join(' | ')
				.trim(),
		),
	];
}

/** Each method once: every contact in one execution, against the rate limit. */
async function rateLimitedRun(bench: Bench): Promise<LimitedOutcome[]> {
	const outcomes: LimitedOutcome[] = [];
	for (const method of LIMITED_METHODS) {
		const firstRequest = bench.service.requests.length;
		const firstContract = bench.service.contracts().length;
		const run = await measure(bench, method, RATE_LIMITED);
		outcomes.push(
			outcome(bench, {
				run: `Rate-limited, ${RATE_LIMITED.items} contacts at ${RATE_LIMITED.rateLimit.perSecond}/s`,
				method: method.name,
				timeMs: run.timeMs,
				contacts: RATE_LIMITED.items,
				failedExecutions: run.failed ? 1 : 0,
				executions: 1,
				perSecond: RATE_LIMITED.rateLimit.perSecond,
				firstRequest,
				firstContract,
			}),
		);
	}
	return outcomes;
}

/**
 * Posts one contact to each of `STORM.executions` executions of `method` at the same moment, and
 * waits until every one has answered: the time that took, and how many failed.
 */
async function postStorm(bench: Bench, method: Method) {
	const startedAt = performance.now();
	const answered = await Promise.all(
		Array.from({ length: STORM.executions }, async (_, index) => {
			try {
				const response = await fetch(`${bench.n8n.url}/webhook/${workflowPath(method)}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify({ count: 1, clientKey: bench.clientKey, first: index }),
				});
				return (await succeeded(response)) !== undefined;
			} catch {
				return false;
			}
		}),
	);
	return {
		timeMs: performance.now() - startedAt,
		failedExecutions: answered.filter((ok) => !ok).length,
	};
}

/** Each method once in a storm against the rate limit. */
async function stormRun(bench: Bench): Promise<LimitedOutcome[]> {
	const { service } = bench;
	const outcomes: LimitedOutcome[] = [];
	for (const method of LIMITED_METHODS) {
		service.settings.latencyMs = 0;
		service.settings.rateLimit = { perSecond: STORM.perSecond };
		const firstRequest = service.requests.length;
		const firstContract = service.contracts().length;
		const { timeMs, failedExecutions } = await postStorm(bench, method);
		service.settings.rateLimit = undefined;
		outcomes.push(
			outcome(bench, {
				run: `Storm, ${STORM.executions} executions at ${STORM.perSecond}/s`,
				method: method.name,
				timeMs,
				contacts: STORM.executions,
				failedExecutions,
				executions: STORM.executions,
				perSecond: STORM.perSecond,
				firstRequest,
				firstContract,
			}),
		);
	}
	return outcomes;
}

/**
 * This node's storm once more without a limit at the service: the rate n8n drives requests at
 * here, which must be well above the limit for the limit to be what the storm measures.
 */
async function stormWithoutLimit(bench: Bench): Promise<string> {
	const { service } = bench;
	service.settings.latencyMs = 0;
	service.settings.rateLimit = undefined;
	const firstRequest = service.requests.length;
	const { timeMs, failedExecutions } = await postStorm(
		bench,
		LIMITED_METHODS.find((method) => method.name === NODE_MAPPED)!,
	);
	const requests = service.requests.length - firstRequest;
	return `The same storm through ${NODE_MAPPED}, no limit at the service: ${requests} requests in ${seconds(timeMs)}, ${((1000 * requests) / timeMs).toFixed(1)} per second (the rate n8n drives here), ${failedExecutions} executions failed.`;
}

/** n8n registers published webhooks shortly after it reports ready. */
async function webhooksRegistered(bench: Bench) {
	const method = METHODS.find((entry) => entry.node)!;
	for (let attempt = 0; attempt < 120; attempt++) {
		const response = await fetch(`${bench.n8n.url}/webhook/${workflowPath(method)}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ count: 1, clientKey: bench.clientKey }),
		});
		await response.arrayBuffer();
		if (response.status !== 404) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error('the benchmark webhooks were not registered within a minute');
}

main().catch((error: unknown) => {
	process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exitCode = 1;
});
