/**
 * The node's own cost per item, without a server around it: Contract → Create for many items
 * through n8n's engine (n8n-core's WorkflowExecute, in this process) against the stand-in.
 * With --against <other checkout, built>, that checkout's package is measured too, interleaved,
 * so two versions of the send path are compared on equal terms.
 *
 *   npm run bench:engine -- --items 1000 --repeat 7 [--against ../other-checkout]
 *
 * Prints the median and the fastest time per 1,000 items for each variant.
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

for (let round = 0; round < REPEAT; round++) {
	for (const variant of variants) {
		// Alternate which package goes first, so that neither always runs after the other's garbage.
		for (const { root, runWorkflow } of round % 2 ? [...engines].reverse() : engines) {
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
			if (run.error || run.outputs('Under Test')[0]?.length !== ITEMS) {
				throw new Error(`${root}, ${variant.name}: the run failed: ${run.error?.message ?? ''}`);
			}
			const key = `${variant.name}|${root}`;
			times.set(key, [...(times.get(key) ?? []), elapsed]);
		}
	}
}
await service.close();

const perThousand = (ms: number) => Math.round((ms * 1000) / ITEMS);
process.stdout.write(
	`\n${ITEMS} items, ${REPEAT} rounds, interleaved; ms per 1,000 items through n8n-core in-process\n\n`,
);
process.stdout.write('| Variant | Package | Median | Fastest |\n|---|---|---|---|\n');
for (const variant of variants) {
	for (const { root } of engines) {
		const sorted = [...times.get(`${variant.name}|${root}`)!].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)];
		process.stdout.write(
			`| ${variant.name} | ${root === HERE ? 'this checkout' : root} | ${perThousand(median)} | ${perThousand(sorted[0])} |\n`,
		);
	}
}
process.exit(0);
