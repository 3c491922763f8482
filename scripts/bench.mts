/**
 * Throughput of Contract → Create in a real n8n, against three ways of making the same calls:
 * a raw Node.js HTTP loop (the limit), n8n's HTTP Request node with this credential (the peer),
 * and this node (with the user's two field expressions, and with constant fields).
 *
 *   npm run bench                          # 1,000 items, latency 0 and 20 ms, Batching off and 50/100 ms
 *   npm run bench -- --items 1000 --repeat 3 --large 10000
 *
 * One n8n process serves every run; the methods are interleaved and each configuration is
 * repeated, and the table gives medians, so the ratios hold on a noisy machine.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { seedClient } from '../test/service/seed-client.mts';
import { startStandIn, type StandIn } from '../test/service/stand-in.mts';
import {
	createN8nHome,
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	importCredential,
	importWorkflow,
	NODE_TYPE,
	ownerSession,
	buildPackage,
	packPackage,
	publishWorkflow,
	removeN8nHome,
	startN8n,
	type N8nHome,
	type RunningN8n,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n, type N8nRuntime } from '../test/e2e/n8n-runtime.mts';

const run = promisify(execFile);

type Method =
	| 'raw loop'
	| 'HTTP Request node'
	| 'this node'
	| 'this node, constant fields'
	| 'this node, Retry On Fail';
const METHODS: Method[] = [
	'raw loop',
	'HTTP Request node',
	'this node',
	'this node, constant fields',
	'this node, Retry On Fail',
];

interface Batching {
	size: number;
	intervalMs: number;
}

interface Config {
	items: number;
	latencyMs: number;
	batching?: Batching;
}

interface Measurement {
	/** The node's execution time from n8n's run data; the whole loop for the raw loop. */
	timeMs: number;
	requests: number;
	p50Ms: number;
	p99Ms: number;
	peakRssMb?: number;
	rssGrowthMb?: number;
}

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

const ITEMS = option('items', 1000);
const REPEAT = option('repeat', 3);
const LARGE = option('large', 10_000);

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

const workflowPath = (method: Method, batching?: Batching) =>
	`bench-${method.replace(/[^a-z]+/gi, '-').toLowerCase()}${batching ? '-batched' : ''}`;

/** Webhook → items from the request → the method under test → answer with the execution id. */
function benchWorkflow(service: StandIn, clientKey: string, method: Method, batching?: Batching) {
	const path = workflowPath(method, batching);
	const batchingOption = batching
		? { batching: { batch: { batchSize: batching.size, batchInterval: batching.intervalMs } } }
		: {};
	const credentials = {
		[CREDENTIAL_TYPE]: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
	};
	const underTest =
		method === 'HTTP Request node'
			? {
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.5,
					credentials,
					parameters: {
						method: 'POST',
						url: `${service.url}/v1/contract`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: CREDENTIAL_TYPE,
						sendBody: true,
						specifyBody: 'json',
						jsonBody:
							'={ "data": { "action": "create", "clientKey": "{{ $json.clientKey }}", "contract": { "name": "{{ $json.name }}" } } }',
						options: batchingOption,
					},
				}
			: {
					type: NODE_TYPE,
					typeVersion: 1,
					credentials,
					parameters: {
						resource: 'contract',
						operation: 'create',
						clientKey:
							method === 'this node, constant fields' ? clientKey : '={{ $json.clientKey }}',
						name: method === 'this node, constant fields' ? 'Contract' : '={{ $json.name }}',
						requestOptions: batchingOption,
					},
					// Remembers each item's result for the retries: what that costs, nothing failing.
					...(method === 'this node, Retry On Fail'
						? { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 }
						: {}),
				};
	const id = `bench${path.replace(/-/g, '')}`.slice(0, 40);
	return {
		id,
		path,
		workflow: {
			id,
			name: `Benchmark: ${method}${batching ? ', batched' : ''}`,
			nodes: [
				{
					id: `${id}-1`,
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2.1,
					position: [0, 0],
					webhookId: `${id}-hook`,
					parameters: { httpMethod: 'POST', path, responseMode: 'responseNode', options: {} },
				},
				{
					id: `${id}-2`,
					name: 'Items',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [200, 0],
					parameters: {
						mode: 'raw',
						jsonOutput:
							"={{ JSON.stringify({ items: Array.from({ length: $json.body.count }, (_, i) => ({ clientKey: $json.body.clientKey, name: 'Contract ' + i })) }) }}",
						options: {},
					},
				},
				{
					id: `${id}-3`,
					name: 'One Item Each',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [400, 0],
					parameters: { fieldToSplitOut: 'items', options: {} },
				},
				{ id: `${id}-4`, name: 'Under Test', position: [600, 0], ...underTest },
				{
					id: `${id}-5`,
					name: 'Answer',
					type: 'n8n-nodes-base.respondToWebhook',
					typeVersion: 1.5,
					position: [800, 0],
					parameters: {
						respondWith: 'json',
						responseBody: '={{ { executionId: $execution.id } }}',
						options: {},
					},
				},
			],
			connections: {
				Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
				Items: { main: [[{ node: 'One Item Each', type: 'main', index: 0 }]] },
				'One Item Each': { main: [[{ node: 'Under Test', type: 'main', index: 0 }]] },
				'Under Test': { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
			active: false,
			pinData: {},
		},
	};
}

/** The same calls from a plain Node.js process (n8n's Node 24), with the same schedule. */
const RAW_LOOP = `
const [url, apiKey, clientKey, count, batchSize, intervalMs] = process.argv.slice(1);
const send = (index) => fetch(url, {
	method: 'POST',
	headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Service-Key': apiKey },
	body: JSON.stringify({ data: { action: 'create', clientKey, contract: { name: 'Contract ' + index } } }),
}).then((response) => response.json());
const started = performance.now();
const pending = [];
for (let index = 0; index < Number(count); index++) {
	if (index > 0 && Number(batchSize) > 0 && index % Number(batchSize) === 0) {
		await new Promise((resolve) => setTimeout(resolve, Number(intervalMs)));
	}
	pending.push(send(index));
}
await Promise.all(pending);
process.stdout.write(String(performance.now() - started));
`;

function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
	return kb / 1024;
}

interface Bench {
	runtime: N8nRuntime;
	service: StandIn;
	n8n: RunningN8n;
	rest: Awaited<ReturnType<typeof ownerSession>>;
	clientKey: string;
	parseFlatted: (text: string) => unknown;
}

async function measure(bench: Bench, method: Method, config: Config): Promise<Measurement> {
	const { service, n8n } = bench;
	service.settings.latencyMs = config.latencyMs;
	const firstRequest = service.requests.length;
	const batchSize = config.batching?.size ?? 0;
	const intervalMs = config.batching?.intervalMs ?? 0;
	let timeMs: number;
	let peakRssMb: number | undefined;
	let rssGrowthMb: number | undefined;

	if (method === 'raw loop') {
		const { stdout } = await run(
			bench.runtime.nodeBin,
			[
				'--input-type=module',
				'-e',
				RAW_LOOP,
				`${service.url}/v1/contract`,
				service.apiKey,
				bench.clientKey,
				String(config.items),
				String(batchSize),
				String(intervalMs),
			],
			{ maxBuffer: 1_000_000 },
		);
		timeMs = Number(stdout);
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
		const { executionId } = (await response.json()) as { executionId: string };
		peakRssMb = peak;
		rssGrowthMb = peak - before;
		timeMs = await nodeExecutionTime(bench, executionId);
	}

	const requests = service.requests.slice(firstRequest);
	const durations = requests.map((request) => (request.repliedAt ?? NaN) - request.receivedAt);
	return {
		timeMs,
		requests: requests.length,
		p50Ms: percentile(durations, 0.5),
		p99Ms: percentile(durations, 0.99),
		peakRssMb,
		rssGrowthMb,
	};
}

/** The execution time n8n recorded for the node under test. */
async function nodeExecutionTime(bench: Bench, executionId: string): Promise<number> {
	for (let attempt = 0; attempt < 50; attempt++) {
		const response = await bench.rest(`/rest/executions/${executionId}`);
		if (response.ok) {
			const { data } = (await response.json()) as { data: { data: string; finished: boolean } };
			const runData = (
				bench.parseFlatted(data.data) as {
					resultData: { runData: Record<string, Array<{ executionTime: number }>> };
				}
			).resultData.runData;
			const underTest = runData['Under Test']?.[0];
			if (underTest) return underTest.executionTime;
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`no run data for execution ${executionId}`);
}

function describeConfig(config: Config): string {
	const batching = config.batching
		? `Batching ${config.batching.size}/${config.batching.intervalMs} ms`
		: 'Batching off';
	return `${config.items.toLocaleString('en')} items, latency ${config.latencyMs} ms, ${batching}`;
}

async function main() {
	const log = (line: string) => process.stdout.write(`• ${line}\n`);
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
	try {
		home = await createN8nHome(runtime, tarball);
		await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
		for (const method of METHODS.filter((entry) => entry !== 'raw loop')) {
			for (const batching of [undefined, { size: 50, intervalMs: 100 }]) {
				const { id, workflow } = benchWorkflow(service, clientKey, method, batching);
				const file = join(home.userFolder, 'tmp', `${id}.json`);
				writeFileSync(file, JSON.stringify(workflow));
				await importWorkflow(home, file);
				await publishWorkflow(home, id);
			}
		}
		log('starting n8n…');
		n8n = await startN8n(home);
		const rest = await ownerSession(n8n.url);
		const bench: Bench = { runtime, service, n8n, rest, clientKey, parseFlatted };

		const batched = { size: 50, intervalMs: 100 };
		const configs: Config[] = [
			{ items: ITEMS, latencyMs: 0 },
			{ items: ITEMS, latencyMs: 20 },
			{ items: ITEMS, latencyMs: 0, batching: batched },
			{ items: ITEMS, latencyMs: 20, batching: batched },
		];
		log('warming up…');
		for (const method of METHODS) await measure(bench, method, { items: 100, latencyMs: 0 });

		const rows: string[] = [];
		const summary: Record<string, Record<Method, Measurement[]>> = {};
		for (const config of configs) {
			const results = Object.fromEntries(
				METHODS.map((method) => [method, []]),
			) as unknown as Record<Method, Measurement[]>;
			for (let round = 0; round < REPEAT; round++) {
				for (const method of METHODS) results[method].push(await measure(bench, method, config));
			}
			summary[describeConfig(config)] = results;
			log(`measured ${describeConfig(config)}`);
		}

		log(`measuring ${LARGE.toLocaleString('en')} items once per method…`);
		const large: Config = { items: LARGE, latencyMs: 0 };
		const largeResults = Object.fromEntries(
			METHODS.map((method) => [method, [] as Measurement[]]),
		) as Record<Method, Measurement[]>;
		for (const method of METHODS) {
			const contractsBefore = service.contracts().length;
			const result = await measure(bench, method, large);
			const created = service.contracts().slice(contractsBefore);
			const names = new Set(created.map((contract) => contract.name));
			largeResults[method].push(result);
			log(
				`${method}: ${result.requests} requests, ${created.length} contracts created${
					method === 'this node, constant fields' ? '' : `, ${names.size} distinct names`
				}`,
			);
		}
		summary[describeConfig(large)] = largeResults;

		rows.push(
			'| Configuration | Method | Items/s | Time (median, ms) | Requests | Stand-in p50 / p99 (ms) | n8n peak RSS / growth (MB) | ÷ raw loop | ÷ HTTP Request |',
			'|---|---|---|---|---|---|---|---|---|',
		);
		for (const [label, results] of Object.entries(summary)) {
			const time = (method: Method) => median(results[method].map((entry) => entry.timeMs));
			for (const method of METHODS) {
				const entries = results[method];
				const t = time(method);
				const last = entries[entries.length - 1];
				const memory =
					last.peakRssMb === undefined
						? '–'
						: `${Math.round(Math.max(...entries.map((entry) => entry.peakRssMb ?? 0)))} / ${Math.round(
								Math.max(...entries.map((entry) => entry.rssGrowthMb ?? 0)),
							)}`;
				const ratio = (other: Method) =>
					method === other || method === 'raw loop' ? '–' : (t / time(other)).toFixed(2);
				const items = Number(/^([\d,]+)/.exec(label)?.[1].replace(/,/g, ''));
				rows.push(
					`| ${label} | ${method} | ${Math.round((items / t) * 1000).toLocaleString('en')} | ${Math.round(t)} | ${
						last.requests
					} | ${median(entries.map((entry) => entry.p50Ms))} / ${median(
						entries.map((entry) => entry.p99Ms),
					)} | ${memory} | ${ratio('raw loop')} | ${method === 'HTTP Request node' ? '–' : ratio('HTTP Request node')} |`,
				);
			}
		}
		const batchedTheory = (latencyMs: number) =>
			(Math.ceil(ITEMS / batched.size) - 1) * batched.intervalMs + latencyMs;
		process.stdout.write(
			[
				'',
				`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; n8n ${runtime.version} on Node.js 24; ${REPEAT} rounds, methods interleaved.`,
				'',
				...rows,
				'',
				`Batching 50/100 ms, theoretical schedule for ${ITEMS} items: ${batchedTheory(0)} ms at 0 ms latency, ${batchedTheory(20)} ms at 20 ms.`,
				'',
			].join('\n'),
		);
	} finally {
		await n8n?.stop();
		await service.close();
		removeN8nHome(home);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exitCode = 1;
});
