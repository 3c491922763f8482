/**
 * The cold start, in-process (n8n's engine in this process, the built package, the stand-in):
 * what talking to a new account costs an unlimited run (its first run against the next one on
 * the same account), and how many requests a storm of 100 one-item executions started at once
 * gets refused from a service allowing 20 per second, the first time the process talks to it.
 *
 *   npx n8n-node build && npx vite-node -c vitest.config.mts scripts/bench-cold-start.mts -- <label>
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'contract-signing-bench-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

const { startStandIn } = await import('../test/service/stand-in.mts');
const { runWorkflow } = await import('../test/engine/n8n-engine.mts');
type StandIn = Awaited<ReturnType<typeof startStandIn>>;

const LABEL = process.argv[process.argv.length - 1];
const CREATE_CLIENT = {
	resource: 'client',
	operation: 'create',
	fullname: 'Contact',
	email: 'contact@example.com',
	customKey: 'crm-1',
};

async function timedRun(service: StandIn, items: number): Promise<number> {
	const startedAt = Date.now();
	const run = await runWorkflow([{ name: 'Create Client', parameters: CREATE_CLIENT }], {
		credentials: { baseUrl: service.url, apiKey: service.apiKey },
		items: Array.from({ length: items }, () => ({})),
	});
	if (run.error) throw new Error(run.error.message);
	return Date.now() - startedAt;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const [items, latencyMs, rounds] of [
	[1000, 20, 5],
	[10_000, 20, 3],
]) {
	const first: number[] = [];
	const next: number[] = [];
	for (let round = 0; round < rounds; round++) {
		const service = await startStandIn({ latencyMs });
		first.push(await timedRun(service, items));
		next.push(await timedRun(service, items));
		await service.close();
	}
	process.stdout.write(
		`${LABEL}: ${items} items at ${latencyMs} ms, no limit: first run on a new account ${median(first)} ms, ` +
			`next run ${median(next)} ms (medians of ${rounds}; first ${first.join(', ')}; next ${next.join(', ')})\n`,
	);
}

const refused: number[] = [];
for (let round = 0; round < 3; round++) {
	const service = await startStandIn({ rateLimit: { perSecond: 20 } });
	await Promise.all(
		Array.from({ length: 100 }, async (_, index) => {
			const run = await runWorkflow(
				[{ name: 'Create Client', parameters: { ...CREATE_CLIENT, customKey: `crm-${index}` } }],
				{ credentials: { baseUrl: service.url, apiKey: service.apiKey }, items: [{}] },
			);
			if (run.error) throw new Error(run.error.message);
		}),
	);
	refused.push(service.requests.filter((request) => request.limited).length);
	await service.close();
}
process.stdout.write(
	`${LABEL}: 100 one-item executions at once, 20/s allowed: ${refused.join(', ')} requests refused (100 needed)\n`,
);
process.exit(0);
