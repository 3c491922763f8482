/**
 * The node's own cost per item, without a server around it: Contract → Create for many items
 * through n8n's engine (n8n-core's WorkflowExecute, in this process) against the stand-in.
 * With --against <other checkout, built>, that checkout's package is measured too, interleaved,
 * so two versions of the send path are compared on equal terms.
 *
 *   npm run bench:engine -- --items 1000 --repeat 7 [--against ../other-checkout]
 *
 * Prints the median and the fastest time per 1,000 items for each variant, and how much the heap
 * grew during a run (sampled every 20 ms) and kept after it, from a garbage-collected start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// n8n-core writes its config into the user folder: a temporary one, as in the tests.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'contract-signing-bench-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
}

const ITEMS = Number(option('items') ?? 1000);
const REPEAT = Number(option('repeat') ?? 7);
const HERE = fileURLToPath(new URL('..', import.meta.url));
const roots = [HERE, ...(option('against') ? [resolve(option('against')!)] : [])];

interface Variant {
	name: string;
	parameters: (clientKey: string) => Record<string, unknown>;
	settings?: Record<string, unknown>;
}

const variants: Variant[] = [
	{
		name: 'constant fields',
		parameters: (clientKey) => ({ clientKey, name: 'Contract' }),
	},
	{
		name: '2 mapped fields',
		parameters: () => ({ clientKey: '={{ $json.clientKey }}', name: '={{ $json.name }}' }),
	},
	{
		name: '2 mapped fields, Retry On Fail',
		parameters: () => ({ clientKey: '={{ $json.clientKey }}', name: '={{ $json.name }}' }),
		settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 },
	},
];

const { startStandIn } = await import('../test/service/stand-in.mts');
const { seedClient } = await import('../test/service/seed-client.mts');
const engines = await Promise.all(
	roots.map(async (root) => ({
		root,
		runWorkflow: (
			(await import(
				`${root}/test/engine/n8n-engine.mts`
			)) as typeof import('../test/engine/n8n-engine.mts')
		).runWorkflow,
	})),
);

const service = await startStandIn();
const { clientKey } = await seedClient(service);
const items = Array.from({ length: ITEMS }, (_, index) => ({
	clientKey,
	name: `Contract ${index}`,
}));
const times = new Map<string, number[]>();
const heapPeaks = new Map<string, number[]>();
const heapRetained = new Map<string, number[]>();
/** Exposed by `node --expose-gc` (the npm script sets it): heap figures then start from a clean heap. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => {});
const record = (map: Map<string, number[]>, key: string, value: number) =>
	map.set(key, [...(map.get(key) ?? []), value]);

for (let round = 0; round < REPEAT; round++) {
	for (const variant of variants) {
		// Alternate which package goes first, so that neither always runs after the other's garbage.
		for (const { root, runWorkflow } of round % 2 ? [...engines].reverse() : engines) {
			collectGarbage();
			const heapBefore = process.memoryUsage().heapUsed;
			let heapPeak = heapBefore;
			const sampler = setInterval(() => {
				heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
			}, 20);
			const started = performance.now();
			const run = await runWorkflow(
				[
					{
						name: 'Under Test',
						parameters: {
							resource: 'contract',
							operation: 'create',
							...variant.parameters(clientKey),
						},
						settings: variant.settings,
					},
				],
				{ credentials: { baseUrl: service.url, apiKey: service.apiKey }, items },
			);
			const elapsed = performance.now() - started;
			clearInterval(sampler);
			collectGarbage();
			if (run.error || run.outputs('Under Test')[0]?.length !== ITEMS) {
				throw new Error(`${root}, ${variant.name}: the run failed: ${run.error?.message ?? ''}`);
			}
			const key = `${variant.name}|${root}`;
			record(times, key, elapsed);
			record(heapPeaks, key, heapPeak - heapBefore);
			record(heapRetained, key, process.memoryUsage().heapUsed - heapBefore);
		}
	}
}
await service.close();

const perThousand = (ms: number) => Math.round((ms * 1000) / ITEMS);
process.stdout.write(
	`\n${ITEMS} items, ${REPEAT} rounds, interleaved; ms per 1,000 items through n8n-core in-process\n\n`,
);
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const megabytes = (bytes: number) => Math.round(bytes / 1e6);
process.stdout.write(
	'| Variant | Package | Median | Fastest | Heap growth, peak (MB, median) | Heap kept after the run (MB, median) |\n|---|---|---|---|---|---|\n',
);
for (const variant of variants) {
	for (const { root } of engines) {
		const key = `${variant.name}|${root}`;
		const fastest = Math.min(...times.get(key)!);
		process.stdout.write(
			`| ${variant.name} | ${root === HERE ? 'this checkout' : root} | ${perThousand(median(times.get(key)!))} | ${perThousand(fastest)} | ${megabytes(median(heapPeaks.get(key)!))} | ${megabytes(median(heapRetained.get(key)!))} |\n`,
		);
	}
}
process.exit(0);
