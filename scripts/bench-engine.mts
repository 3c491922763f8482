/**
 * The node's own cost per item, without a server around it: Contract → Create for many items
 * through n8n's engine (n8n-core's WorkflowExecute, in this process) against the stand-in (in its own).
 * The same work is done, in the same rounds, by other methods: a declarative node of n8n's
 * routing alone (test/engine/routing-alone-node.mts), the same beside this node's panel (n8n's
 * routing walks every field of a node for every item), and n8n's HTTP Request node (4.2, from the
 * pinned n8n of the end-to-end tests) with this package's credential, given the same values as
 * this node: two mapped by expressions, or constants. With --against <other checkout, built>, that
 * checkout's package is measured too, interleaved, so two versions of the node are compared on
 * equal terms.
 *
 *   npm run bench:engine -- --items 1000 --repeat 7 [--against ../other-checkout] [--profile]
 *     [--only <text in the method's name>] [--live-every <ms>] [--heap-limits <MB,MB,…>] [--cpu-profile]
 *
 * Prints the median and the fastest time per 1,000 items for each variant, and how much the heap
 * grew during a run (sampled every 20 ms) and kept after it, from a garbage-collected start; then,
 * from one more run of each method, the live heap's growth at its peak (see liveHeapPeak). The
 * heap figures mean most with --items 10000. The target: this node's live heap per item at most the
 * HTTP Request node's given the same values, with 2 mapped fields and with constant fields; the
 * verdicts are printed after the live heap's table.
 *
 * With --profile, one more run of each method with 2 mapped fields (this node, routing alone and
 * with this panel, HTTP Request) under V8's sampling heap profiler, whose profile is read whenever
 * the sampled heap is at its highest so far in the run. V8 collects all garbage before it builds a
 * profile, so a profile holds the bytes still reachable, and the heap falls back to them after each
 * read: of the profiles read, the one with the most live bytes is summarised, by where those were
 * allocated.
 *
 * With --cpu-profile, one more run of each of those methods under V8's CPU profiler: where its
 * processor time went, by the script that was running (its package, or this node's file).
 *
 * With --heap-limits, each method of this checkout runs once more for each size, in a Node.js of
 * its own whose heap is limited to it (--max-old-space-size): whether the run completes or the
 * process runs out of memory. Without a limit V8 collects late, when it has room to spare, and
 * the heap's peak says more of V8 than of the method; what a run needs is where it still completes.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IDataObject } from 'n8n-workflow';
import type { Step, WorkflowRun } from '../test/engine/n8n-engine.mts';

// n8n-core writes its config into the user folder: a temporary one, as in the tests, gone at exit.
if (!process.env.N8N_USER_FOLDER) {
	const userFolder = mkdtempSync(join(tmpdir(), 'contract-signing-bench-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.on('exit', () => rmSync(userFolder, { recursive: true, force: true }));
}
process.env.N8N_LOG_LEVEL ??= 'silent';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
}

const ITEMS = Number(option('items') ?? 1000);
const REPEAT = Number(option('repeat') ?? 7);
const PROFILE = process.argv.includes('--profile');
const CPU_PROFILE = process.argv.includes('--cpu-profile');
/** Only the methods whose name holds this text, e.g. --only "routing alone". */
const ONLY = option('only');
/** How often the run that measures the live heap collects all garbage and reads the heap (ms); 0: no such run. */
const LIVE_SAMPLE_MS = Number(option('live-every') ?? 500);
/** With --heap-limits 256,512: each method of this checkout once more in a Node.js whose heap is limited to each size (MB). */
const HEAP_LIMITS = option('heap-limits')?.split(',').map(Number) ?? [];
/** The one method, by its exact name, that a process of --heap-limits runs. */
const METHOD = option('method');
const HERE = fileURLToPath(new URL('..', import.meta.url));
const roots = [HERE, ...(option('against') ? [resolve(option('against')!)] : [])];
const STEP_NAME = 'Under Test';
const MAPPED = { clientKey: '={{ $json.clientKey }}', name: '={{ $json.name }}' };

interface Variant {
	name: string;
	parameters: (clientKey: string) => Record<string, unknown>;
	settings?: Step['settings'];
	/** Also run under the heap profiler with --profile. */
	profiled?: boolean;
	/** Its live heap per item is held to the HTTP Request node's given the same values. */
	heapTarget?: boolean;
}

const variants: Variant[] = [
	{
		name: 'constant fields',
		parameters: (clientKey) => ({ clientKey, name: 'Contract' }),
		heapTarget: true,
	},
	{
		name: '2 mapped fields',
		parameters: () => MAPPED,
		profiled: true,
		heapTarget: true,
	},
	{
		name: '2 mapped fields, Retry On Fail',
		parameters: () => MAPPED,
		settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 },
	},
];

type RunWorkflow = typeof import('../test/engine/n8n-engine.mts').runWorkflow;

/** One row of the table: a way of doing Contract → Create, run by one checkout's harness. */
interface Method {
	name: string;
	package: string;
	runWorkflow: RunWorkflow;
	step: Step;
	profiled: boolean;
	/** The method its live heap per item is held to: the HTTP Request node given the same values. */
	heapPeer?: string;
}

const { seedClient } = await import('../test/service/seed-client.mts');
const {
	routingAloneNode,
	routingAlonePanelNode,
	ROUTING_ALONE_NODE_TYPE,
	ROUTING_ALONE_PANEL_NODE_TYPE,
} = await import('../test/engine/routing-alone-node.mts');
const {
	registerHttpRequestNode,
	httpRequestContractCreate,
	HTTP_REQUEST_NODE_TYPE,
	HTTP_REQUEST_VERSION,
} = await import('../test/engine/http-request-node.mts');
const ownEngine = await import('../test/engine/n8n-engine.mts');
// This checkout's harness by the same specifier as the modules above, so that they share it (and
// the node types registered with it) rather than load a second copy.
const engines = await Promise.all(
	roots.map(async (root) => ({
		root,
		runWorkflow: (root === HERE
			? ownEngine
			: ((await import(
					`${root}/test/engine/n8n-engine.mts`
				)) as typeof import('../test/engine/n8n-engine.mts'))
		).runWorkflow,
	})),
);
ownEngine.registerNodeType(routingAloneNode);
ownEngine.registerNodeType(routingAlonePanelNode);
const nodesBaseVersion = await registerHttpRequestNode();
const n8nCoreVersion = (
	JSON.parse(readFileSync(join(HERE, 'node_modules/n8n-core/package.json'), 'utf8')) as {
		version: string;
	}
).version;

/**
 * The stand-in in a process of its own (test/service/serve.mts). In this one its event loop would
 * wait on n8n's work and on the collections of the live-heap runs, while routing alone and the
 * HTTP Request node open 10,000 connections at once: the listen queue (the kernel's somaxconn,
 * 4096 here) overflowed and connections were reset. Its records stay out of the heap measured.
 */
async function startStandInProcess() {
	const apiKey = 'bench-service-key';
	const child = spawn(
		process.execPath,
		[
			join(HERE, 'node_modules/vite-node/vite-node.mjs'),
			'test/service/serve.mts',
			'--',
			'--api-key',
			apiKey,
			// It ends with this process, even one of --heap-limits that runs out of memory: else it
			// would hold the output pipe that process's parent waits on.
			'--until-stdin-ends',
		],
		{ cwd: HERE, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
	);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	for await (const line of createInterface({ input: child.stdout })) {
		const url = /^stand-in listening on (\S+)$/.exec(line)?.[1];
		if (!url) continue;
		return {
			url,
			apiKey,
			close: async () => {
				child.kill('SIGTERM');
				await exited;
			},
		};
	}
	throw new Error(`the stand-in's process ended before it listened (exit code ${child.exitCode})`);
}

const service = await startStandInProcess();
const { clientKey } = await seedClient(service);
const items = Array.from({ length: ITEMS }, (_, index) => ({
	clientKey,
	name: `Contract ${index}`,
}));

/** The HTTP Request node's row given these values. */
const httpRequestName = (values: string) => `HTTP Request ${HTTP_REQUEST_VERSION}: ${values}`;

/**
 * The methods, in groups run one after the other in each round; within a group, this node of
 * each checkout, in an order that alternates from round to round so that neither always runs
 * after the other's garbage.
 */
const groups: Method[][] = (
	[
		...variants.map((variant) =>
			engines.map(({ root, runWorkflow }) => ({
				name: `this node: ${variant.name}`,
				package: root === HERE ? 'this checkout' : root,
				runWorkflow,
				step: {
					name: STEP_NAME,
					parameters: {
						resource: 'contract',
						operation: 'create',
						...variant.parameters(clientKey),
					},
					settings: variant.settings,
				},
				profiled: root === HERE && variant.profiled === true,
				heapPeer: root === HERE && variant.heapTarget ? httpRequestName(variant.name) : undefined,
			})),
		),
		[
			{
				name: 'routing alone: 2 mapped fields',
				package: `n8n-core ${n8nCoreVersion}, declarative`,
				runWorkflow: ownEngine.runWorkflow,
				step: { name: STEP_NAME, type: ROUTING_ALONE_NODE_TYPE, parameters: MAPPED },
				profiled: true,
			},
		],
		[
			{
				name: 'routing alone: constant fields',
				package: `n8n-core ${n8nCoreVersion}, declarative`,
				runWorkflow: ownEngine.runWorkflow,
				step: {
					name: STEP_NAME,
					type: ROUTING_ALONE_NODE_TYPE,
					parameters: { clientKey, name: 'Contract' },
				},
				profiled: false,
			},
		],
		[
			{
				name: 'routing alone, this node’s panel: 2 mapped fields',
				package: `n8n-core ${n8nCoreVersion}, declarative`,
				runWorkflow: ownEngine.runWorkflow,
				step: {
					name: STEP_NAME,
					type: ROUTING_ALONE_PANEL_NODE_TYPE,
					parameters: { resource: 'contract', operation: 'create', ...MAPPED },
				},
				profiled: true,
			},
		],
		[
			{
				name: httpRequestName('2 mapped fields'),
				package: `n8n-nodes-base ${nodesBaseVersion}`,
				runWorkflow: ownEngine.runWorkflow,
				step: {
					name: STEP_NAME,
					type: HTTP_REQUEST_NODE_TYPE,
					parameters: httpRequestContractCreate(service.url),
					settings: { typeVersion: HTTP_REQUEST_VERSION },
				},
				profiled: true,
			},
		],
		[
			{
				name: httpRequestName('constant fields'),
				package: `n8n-nodes-base ${nodesBaseVersion}`,
				runWorkflow: ownEngine.runWorkflow,
				step: {
					name: STEP_NAME,
					type: HTTP_REQUEST_NODE_TYPE,
					parameters: {
						...httpRequestContractCreate(service.url),
						// Plain text, as this node's constant fields: a body marked as an expression is
						// evaluated for every item even without a {{ }} in it.
						jsonBody: JSON.stringify({
							data: { action: 'create', clientKey, contract: { name: 'Contract' } },
						}),
					},
					settings: { typeVersion: HTTP_REQUEST_VERSION },
				},
				profiled: false,
			},
		],
	] as Method[][]
)
	.map((group) =>
		group.filter(({ name }) => (!ONLY || name.includes(ONLY)) && (!METHOD || name === METHOD)),
	)
	.filter((group) => group.length > 0);
const methods = groups.flat();

/** This node puts contractKey on the item; the other methods keep the service's reply as it is. */
function contractKeyOf(json: IDataObject): unknown {
	return json.contractKey ?? (json.contract as IDataObject | undefined)?.contractKey;
}

function checkRun(method: Method, run: WorkflowRun): void {
	const output = run.outputs(STEP_NAME)[0] ?? [];
	const withKey = output.filter(({ json }) => typeof contractKeyOf(json) === 'string').length;
	if (run.error || output.length !== ITEMS || withKey !== ITEMS) {
		throw new Error(
			`${method.package}, ${method.name}: the run failed: ${output.length} items out, ${withKey} with a contractKey, of ${ITEMS}. ${run.error?.message ?? ''}`,
		);
	}
}

/** Exposed by `node --expose-gc` (the npm script sets it): heap figures then start from a clean heap. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});

interface Measurement {
	elapsed: number;
	heapPeak: number;
	heapKept: number;
}

/**
 * One run of a method from a garbage-collected start, with `sample` called every `everyMs`
 * with the heap's growth so far; fails unless every item came out with its contract.
 */
async function sampledRun(
	method: Method,
	everyMs: number,
	sample: (heapGrowth: () => number) => void,
): Promise<Measurement> {
	await connectionsClosed();
	collectGarbage();
	const heapBefore = process.memoryUsage().heapUsed;
	const heapGrowth = () => process.memoryUsage().heapUsed - heapBefore;
	const sampler = setInterval(() => sample(heapGrowth), everyMs);
	const started = performance.now();
	const run = await method.runWorkflow([method.step], {
		credentials: { baseUrl: service.url, apiKey: service.apiKey },
		items,
	});
	const elapsed = performance.now() - started;
	clearInterval(sampler);
	checkRun(method, run);
	collectGarbage();
	return { elapsed, heapPeak: 0, heapKept: heapGrowth() };
}

/** The files this process has open (Linux), or undefined where that cannot be read. */
function openFiles(): number | undefined {
	try {
		return readdirSync('/proc/self/fd').length;
	} catch {
		return undefined;
	}
}

const filesAtStart = openFiles();

/**
 * Waits, up to 30 s, until the connections the last run kept open are closed. n8n's HTTP Request
 * node keeps each of its 10,000 connections alive for reuse until the stand-in closes it (after 5 s
 * idle): a run started at once would open 10,000 more, beyond this machine's 20,000 open files.
 */
async function connectionsClosed(): Promise<void> {
	for (let waited = 0; waited < 30_000; waited += 100) {
		const open = openFiles();
		if (open === undefined || filesAtStart === undefined || open < filesAtStart + 100) return;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** A timed run; `onHeapPeak` is called whenever the heap, sampled every 20 ms, is above its highest so far. */
async function measure(
	method: Method,
	onHeapPeak: (heapGrowth: number) => void = () => {},
): Promise<Measurement> {
	let heapPeak = 0;
	const measurement = await sampledRun(method, 20, (heapGrowth) => {
		const growth = heapGrowth();
		if (growth > heapPeak) {
			heapPeak = growth;
			onHeapPeak(growth);
		}
	});
	return { ...measurement, heapPeak };
}

/**
 * The live heap's growth at its peak: one more run, in which all garbage is collected every
 * LIVE_SAMPLE_MS before the heap is read. The heap growth of the timed runs counts garbage V8 has
 * not collected yet, which depends on when it happens to collect; this counts what is reachable.
 */
async function liveHeapPeak(method: Method): Promise<{ livePeak: number; samples: number }> {
	let livePeak = 0;
	let samples = 0;
	await sampledRun(method, LIVE_SAMPLE_MS, (heapGrowth) => {
		collectGarbage();
		livePeak = Math.max(livePeak, heapGrowth());
		samples++;
	});
	return { livePeak, samples };
}

const perThousand = (ms: number) => Math.round((ms * 1000) / ITEMS);
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const megabytes = (bytes: number) => Math.round(bytes / 1e6);

const HEAP_LIMIT_RESULT = 'heap-limited run: ';

/**
 * One run of `method` in a Node.js of its own, with its heap limited to `limitMb`: its time and
 * heap peak, or that it ran out of memory. The limit counts all of the process's heap: n8n-core
 * and the harness too.
 */
async function runUnderHeapLimit(
	method: Method,
	limitMb: number,
): Promise<{ cell: string; heapAtStart?: number }> {
	const child = spawn(
		process.execPath,
		[
			'--expose-gc',
			`--max-old-space-size=${limitMb}`,
			join(HERE, 'node_modules/vite-node/vite-node.mjs'),
			'-c',
			'vitest.config.mts',
			'scripts/bench-engine.mts',
			'--',
			...['--items', String(ITEMS), '--repeat', '1', '--method', method.name],
		],
		{ cwd: HERE, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await new Promise((resolve) => child.on('close', resolve));
	if (/heap out of memory/.test(output)) return { cell: 'out of memory' };
	const result = output.split('\n').find((line) => line.startsWith(HEAP_LIMIT_RESULT));
	if (!result) {
		const error =
			output.split('\n').find((line) => /Error/.test(line)) ?? `exit code ${child.exitCode}`;
		return { cell: `failed: ${error.trim()}` };
	}
	const run = JSON.parse(result.slice(HEAP_LIMIT_RESULT.length)) as Measurement & {
		heapAtStart: number;
	};
	return {
		cell: `${perThousand(run.elapsed).toLocaleString('en')} ms per 1,000; peak ${megabytes(run.heapPeak)} MB`,
		heapAtStart: run.heapAtStart,
	};
}

collectGarbage();
/** The process's own heap before the first run: n8n-core and the harness. */
const heapAtStart = process.memoryUsage().heapUsed;
const measurements = new Map<Method, Measurement[]>();
for (let round = 0; round < REPEAT; round++) {
	for (const group of groups) {
		for (const method of round % 2 ? [...group].reverse() : group) {
			measurements.set(method, [...(measurements.get(method) ?? []), await measure(method)]);
		}
	}
}

if (METHOD) {
	// A process of --heap-limits: its one timed run, for the process that started it.
	const [run] = measurements.get(methods[0])!;
	process.stdout.write(`${HEAP_LIMIT_RESULT}${JSON.stringify({ ...run, heapAtStart })}\n`);
	await service.close();
	process.exit(0);
}

process.stdout.write(
	`\n${ITEMS} items, ${REPEAT} rounds, interleaved; ms per 1,000 items through n8n-core in-process\n\n`,
);
process.stdout.write(
	'| Variant | Package | Median | Fastest | Heap growth, peak (MB, median) | Heap kept after the run (MB, median) |\n|---|---|---|---|---|---|\n',
);
for (const method of methods) {
	const runs = measurements.get(method)!;
	const times = runs.map(({ elapsed }) => elapsed);
	process.stdout.write(
		`| ${method.name} | ${method.package} | ${perThousand(median(times))} | ${perThousand(Math.min(...times))} | ${megabytes(median(runs.map(({ heapPeak }) => heapPeak)))} | ${megabytes(median(runs.map(({ heapKept }) => heapKept)))} |\n`,
	);
}

if (LIVE_SAMPLE_MS > 0) {
	process.stdout.write(
		`\nThe live heap's growth at its peak, one more run of each method (all garbage collected every ${LIVE_SAMPLE_MS} ms)\n\n| Variant | Package | MB | KB per item | Samples |\n|---|---|---|---|---|\n`,
	);
	/** KB per item by method name, for the methods whose live heap was read at least once. */
	const perItem = new Map<string, number>();
	for (const method of methods) {
		const row = await liveHeapPeak(method).then(
			({ livePeak, samples }) => {
				if (samples > 0) perItem.set(method.name, livePeak / 1e3 / ITEMS);
				return `${megabytes(livePeak)} | ${(livePeak / 1e3 / ITEMS).toFixed(1)} | ${samples}`;
			},
			// A run that fails under the collections (see BENCHMARKS.md) is a row that says so.
			(error: Error) => `– | – (${error.message}) | –`,
		);
		process.stdout.write(`| ${method.name} | ${method.package} | ${row} |\n`);
	}
	const judged = methods.filter(
		({ heapPeer }) => heapPeer && methods.some(({ name }) => name === heapPeer),
	);
	if (judged.length > 0) {
		process.stdout.write(
			"\nTargets: this node's live heap per item at most the HTTP Request node's given the same values\n",
		);
	}
	for (const { name, heapPeer } of judged) {
		const own = perItem.get(name);
		const peer = perItem.get(heapPeer!);
		const result =
			own === undefined || peer === undefined
				? 'not judged: a run failed or ended before its first sample (lower --live-every, or raise --items)'
				: `${own.toFixed(1)} KB per item against ${peer.toFixed(1)} KB: ${own <= peer ? 'holds' : 'does not hold'}`;
		process.stdout.write(`- ${name} against ${heapPeer}, ${ITEMS} items: ${result}\n`);
	}
}

/** The parts of V8's SamplingHeapProfile read here. */
interface SamplingHeapProfileNode {
	callFrame: { functionName: string; url: string };
	selfSize: number;
	children: SamplingHeapProfileNode[];
}

interface HeapProfileSummary {
	/** The heap's growth since the run started, when the profile was read. */
	heapGrowth: number;
	totalBytes: number;
	/** Live bytes by the innermost frame on the allocation stack that belongs to a known group. */
	byGroup: Map<string, number>;
	/** Live bytes by the innermost frame of this package's own code on the allocation stack. */
	byOwnFrame: Map<string, number>;
}

const NO_OWN_FRAME = '(no frame of this package on the stack)';

function postToInspector<T>(session: Session, method: string, params?: object): Promise<T> {
	return new Promise((resolve, reject) => {
		session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T)));
	});
}

interface ProfiledRun {
	measurement: Measurement;
	/** How many times the profile was read during the run: once per new heap peak. */
	reads: number;
	/** Of the profiles read, the one with the most live bytes. */
	summary: HeapProfileSummary;
}

async function profileRun(session: Session, method: Method): Promise<ProfiledRun> {
	let summary: HeapProfileSummary | undefined;
	let reads = 0;
	let reading: Promise<void> | undefined;
	const readProfile = (heapGrowth: number) =>
		(reading ??= postToInspector<{ profile: { head: SamplingHeapProfileNode } }>(
			session,
			'HeapProfiler.getSamplingProfile',
		)
			// Only the summary is kept: a kept profile would itself be on the heap being measured.
			.then(({ profile }) => {
				const read = summarise(profile.head, heapGrowth);
				if (!summary || read.totalBytes > summary.totalBytes) summary = read;
				reads++;
			})
			.finally(() => (reading = undefined)));
	await postToInspector(session, 'HeapProfiler.enable');
	collectGarbage();
	await postToInspector(session, 'HeapProfiler.startSampling', { samplingInterval: 32768 });
	try {
		const measurement = await measure(method, (heapGrowth) => void readProfile(heapGrowth));
		await reading;
		// A run shorter than one heap sample: its profile at the end.
		if (!summary) await readProfile(measurement.heapPeak);
		return { measurement, reads, summary: summary! };
	} finally {
		await postToInspector(session, 'HeapProfiler.stopSampling');
	}
}

function summarise(head: SamplingHeapProfileNode, heapGrowth: number): HeapProfileSummary {
	const summary: HeapProfileSummary = {
		heapGrowth,
		totalBytes: 0,
		byGroup: new Map(),
		byOwnFrame: new Map(),
	};
	const add = (map: Map<string, number>, key: string, bytes: number) =>
		map.set(key, (map.get(key) ?? 0) + bytes);
	// Depth first, each node with the innermost group and own frame of its callers.
	const pending: Array<{ node: SamplingHeapProfileNode; group?: string; ownFrame?: string }> = [
		{ node: head },
	];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const { node } = next;
		const group = groupOf(node.callFrame.url) ?? next.group;
		const ownFrame = ownFrameOf(node.callFrame) ?? next.ownFrame;
		if (node.selfSize > 0) {
			summary.totalBytes += node.selfSize;
			add(summary.byGroup, group ?? 'other', node.selfSize);
			add(summary.byOwnFrame, ownFrame ?? NO_OWN_FRAME, node.selfSize);
		}
		for (const child of node.children) pending.push({ node: child, group, ownFrame });
	}
	return summary;
}

/** A script's path: CommonJS scripts are named by path, ES modules by file: URL. */
function pathOf(url: string): string {
	return url.startsWith('file://') ? fileURLToPath(url) : url;
}

const OWN_BUILD = join(HERE, 'dist/');
const OWN_NODE = join(OWN_BUILD, 'nodes/ContractSigning/');

/** A script of this package's build, by its path below the node's folder (or the build). */
function ownFile(path: string): string | undefined {
	if (!path.startsWith(OWN_BUILD)) return undefined;
	return path.slice(path.startsWith(OWN_NODE) ? OWN_NODE.length : OWN_BUILD.length);
}

/** The group of a frame's script, or undefined for a script of none (V8's own, or unnamed). */
function groupOf(url: string): string | undefined {
	if (url.startsWith('node:')) return url;
	const path = pathOf(url);
	const own = ownFile(path);
	if (own) return `this node: ${own}`;
	const packagePath = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
	if (packagePath) {
		const [, name, file] = packagePath;
		if (name === 'n8n-core') {
			return file.endsWith('execution-engine/routing-node.js')
				? 'n8n-core routing-node'
				: 'n8n-core other';
		}
		return name;
	}
	if (path.startsWith(join(HERE, 'test/engine/'))) return 'test harness';
	if (path.startsWith(join(HERE, 'scripts/'))) return 'this benchmark';
	return undefined;
}

function ownFrameOf({
	functionName,
	url,
}: SamplingHeapProfileNode['callFrame']): string | undefined {
	const file = ownFile(pathOf(url));
	return file === undefined ? undefined : `${file} ${functionName || '(anonymous)'}`;
}

function printHeapProfile(method: Method, { measurement, reads, summary }: ProfiledRun): void {
	const perItem = (bytes: number) => Math.round(bytes / ITEMS).toLocaleString('en');
	const inMegabytes = (bytes: number) => (bytes / 1e6).toFixed(1);
	const table = (heading: string, bytes: Map<string, number>) => {
		const rows = [...bytes].sort(([, a], [, b]) => b - a).slice(0, 12);
		process.stdout.write(`| ${heading} | MB | Bytes per item |\n|---|---|---|\n`);
		for (const [name, size] of rows) {
			process.stdout.write(`| ${name} | ${inMegabytes(size)} | ${perItem(size)} |\n`);
		}
		process.stdout.write('\n');
	};
	process.stdout.write(
		`\nHeap profile at the heap's peak: ${method.name} (${method.package}), ${ITEMS} items in ` +
			`${Math.round(measurement.elapsed)} ms, profile read ${reads} times; at the read kept the heap ` +
			`had grown ${inMegabytes(summary.heapGrowth)} MB (peak ${inMegabytes(measurement.heapPeak)} MB), ` +
			`sampled live bytes ${inMegabytes(summary.totalBytes)} MB (${perItem(summary.totalBytes)} per item)\n\n`,
	);
	table('Allocated in (innermost frame of a known group)', summary.byGroup);
	table('Innermost frame of this package’s code', summary.byOwnFrame);
}

/** The parts of V8's CPU profile read here. */
interface CpuProfile {
	nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
	samples: number[];
	timeDeltas: number[];
}

/** Processor time by group (V8's own work by its name: the garbage collector, idle) and by own frame. */
function printCpuProfile(method: Method, elapsed: number, profile: CpuProfile): void {
	const frames = new Map(profile.nodes.map(({ id, callFrame }) => [id, callFrame]));
	const byGroup = new Map<string, number>();
	const byOwnFrame = new Map<string, number>();
	const add = (map: Map<string, number>, key: string, micros: number) =>
		map.set(key, (map.get(key) ?? 0) + micros);
	profile.samples.forEach((id, index) => {
		const frame = frames.get(id)!;
		const micros = profile.timeDeltas[index + 1] ?? 0;
		const v8 = frame.functionName.startsWith('(') ? frame.functionName : 'native code';
		const group = groupOf(frame.url) ?? (frame.url ? 'other' : v8);
		add(byGroup, group.startsWith('this node') ? 'this node' : group, micros);
		const own = ownFrameOf(frame);
		if (own) add(byOwnFrame, own, micros);
	});
	const table = (heading: string, micros: Map<string, number>) => {
		process.stdout.write(`| ${heading} | ms per 1,000 items |\n|---|---|\n`);
		for (const [name, time] of [...micros].sort(([, a], [, b]) => b - a).slice(0, 12)) {
			process.stdout.write(`| ${name} | ${perThousand(time / 1000)} |\n`);
		}
		process.stdout.write('\n');
	};
	process.stdout.write(
		`\nCPU profile: ${method.name} (${method.package}), ${ITEMS} items in ${Math.round(elapsed)} ms\n\n`,
	);
	table('Running (the script’s package, or V8’s own work)', byGroup);
	table('Of which this node’s own code, by function', byOwnFrame);
}

if (PROFILE) {
	const session = new Session();
	session.connect();
	for (const method of methods.filter(({ profiled }) => profiled)) {
		printHeapProfile(method, await profileRun(session, method));
	}
	session.disconnect();
}
if (CPU_PROFILE) {
	const session = new Session();
	session.connect();
	await postToInspector(session, 'Profiler.enable');
	for (const method of methods.filter(({ profiled }) => profiled)) {
		await postToInspector(session, 'Profiler.start');
		const { elapsed } = await measure(method);
		const { profile } = await postToInspector<{ profile: CpuProfile }>(session, 'Profiler.stop');
		printCpuProfile(method, elapsed, profile);
	}
	session.disconnect();
}
if (HEAP_LIMITS.length > 0) {
	const ownMethods = methods.filter(({ runWorkflow }) => runWorkflow === ownEngine.runWorkflow);
	process.stdout.write(
		`\nThe same run in a Node.js whose heap is limited (--max-old-space-size, as n8n's docs set it in NODE_OPTIONS), one run each in a process of its own\n\n| Variant | ${HEAP_LIMITS.map((limit) => `${limit} MB`).join(' | ')} |\n|---|${HEAP_LIMITS.map(() => '---|').join('')}\n`,
	);
	const heapsAtStart: number[] = [];
	for (const method of ownMethods) {
		const cells: string[] = [];
		for (const limit of HEAP_LIMITS) {
			const { cell, heapAtStart } = await runUnderHeapLimit(method, limit);
			cells.push(cell);
			if (heapAtStart !== undefined) heapsAtStart.push(heapAtStart);
		}
		process.stdout.write(`| ${method.name} | ${cells.join(' | ')} |\n`);
	}
	const [least, most] = [Math.min(...heapsAtStart), Math.max(...heapsAtStart)].map(megabytes);
	process.stdout.write(
		`\nThe limit is the process's whole heap; before its run, a process held ${least}–${most} MB of it (n8n-core, the harness). "peak" is the heap's growth during the run, as above.\n`,
	);
}

await service.close();
process.exit(0);
