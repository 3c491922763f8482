/**
 * One run of many contacts to an account n8n has not talked to yet, in a real n8n: how many
 * requests were under way at once, how many the service refused, and how long the node took.
 * Each run is its own `n8n execute` process, so each starts on a new account's pace, as a
 * workflow's first run after n8n starts does. The workflow: Manual Trigger → the contacts → one
 * item each → Client → Create (nothing configured).
 *
 *   npm run bench:first-burst -- [--repeat 3] [--against ../before] [--only "<text in the run's name>"]
 *     [--timeline]
 *
 * - 400 contacts into a service allowing 40 requests per second (429 + Retry-After: 1 beyond);
 * - 2,000 contacts into a service that keeps up, answering each request after 20 ms;
 * - 2,000 contacts into a slow service, answering each request after 2 s: more than the ceiling
 *   of requests under way would be needed to keep up, so the run shows what the window's start
 *   and its groups at the ceiling cost (how many were under way on average); and the same with
 *   Max Requests at Once set to 1,000 (the most the field takes), which the run starts from.
 * With --against <built checkout>, that checkout's package runs the same, interleaved. With
 * --timeline, each run also prints how many requests were under way every half second, and how
 * many had arrived by then, from the stand-in's log.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { CREATE_CLIENT, tally } from '../test/scenarios/contacts.mts';
import { startStandIn } from '../test/service/stand-in.mts';
import { contactsWorkflow } from '../test/e2e/contacts-workflow.mts';
import {
	buildPackage,
	createN8nHome,
	executeWorkflow,
	importCredential,
	importWorkflows,
	packPackage,
	removeN8nHome,
	type N8nHome,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n } from '../test/e2e/n8n-runtime.mts';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : undefined;
}

const REPEAT = Number(option('repeat') ?? 3);
const AGAINST = option('against') ? resolve(option('against')!) : undefined;
const NODE = 'Create Clients';

interface Scenario {
	name: string;
	contacts: number;
	latencyMs: number;
	perSecond?: number;
	/** Options → Max Requests at Once, if the run sets it. */
	maxAtOnce?: number;
}

const ALL_SCENARIOS: Scenario[] = [
	{ name: '400 contacts, 40 requests/s allowed', contacts: 400, latencyMs: 0, perSecond: 40 },
	{ name: '2,000 contacts, 20 ms a reply, no limit', contacts: 2000, latencyMs: 20 },
	{ name: '2,000 contacts, 2 s a reply, no limit', contacts: 2000, latencyMs: 2000 },
	{
		name: '2,000 contacts, 2 s a reply, Max Requests at Once 1,000',
		contacts: 2000,
		latencyMs: 2000,
		maxAtOnce: 1000,
	},
];
const TIMELINE = process.argv.includes('--timeline');
/** Only the runs whose name holds this text, e.g. --only "20 ms". */
const ONLY = option('only');
const SCENARIOS = ALL_SCENARIOS.filter(({ name }) => !ONLY || name.includes(ONLY));

interface Figures {
	nodeMs: number;
	requests: number;
	refused: number;
	mostUnderWay: number;
	meanUnderWay: number;
	createdOnce: boolean;
	status: string;
}

const workflowId = (scenario: Scenario) =>
	`csFirstBurst${scenario.contacts}at${scenario.latencyMs}${scenario.maxAtOnce ? `cap${scenario.maxAtOnce}` : ''}`;

async function packCheckout(checkout: string): Promise<string> {
	const destination = mkdtempSync(join(tmpdir(), 'contract-signing-pack-'));
	const { stdout } = await promisify(execFile)(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
		{ cwd: checkout },
	);
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	return join(destination, filename);
}

/** Every half second from the first arrival: requests under way, and how many had arrived. */
function timeline(requests: Array<{ receivedAt: number; closedAt?: number }>): string {
	const closed = requests.filter((request) => request.closedAt !== undefined);
	const first = Math.min(...closed.map((request) => request.receivedAt));
	const last = Math.max(...closed.map((request) => request.closedAt!));
	const points: string[] = [];
	for (let at = first; at <= last; at += 500) {
		const arrived = closed.filter((request) => request.receivedAt <= at);
		const underWay = arrived.filter((request) => request.closedAt! > at).length;
		points.push(`${((at - first) / 1000).toFixed(1)} s ${underWay}/${arrived.length}`);
	}
	return points.join(', ');
}

async function main() {
	const log = (line: string) => process.stdout.write(`• ${line}\n`);
	const loadAtStart = loadavg();
	await buildPackage();
	const runtime = await ensureN8n({ log });
	const service = await startStandIn();
	const packages: Array<{ label: string; tarball: string; home?: N8nHome }> = [
		{ label: 'this checkout', tarball: await packPackage() },
		...(AGAINST ? [{ label: `before (${AGAINST})`, tarball: await packCheckout(AGAINST) }] : []),
	];
	const results = new Map<string, Figures[]>();
	try {
		for (const entry of packages) {
			entry.home = await createN8nHome(runtime, entry.tarball);
			await importCredential(entry.home, { baseUrl: service.url, apiKey: service.apiKey });
			await importWorkflows(
				entry.home,
				SCENARIOS.map((scenario) =>
					contactsWorkflow({
						id: workflowId(scenario),
						node: NODE,
						contacts: Array.from({ length: scenario.contacts }, (_, index) => ({
							name: `Contact ${index + 1}`,
							email: `contact${index + 1}@example.com`,
							crmId: `crm-${index + 1}`,
						})),
						parameters: scenario.maxAtOnce
							? { ...CREATE_CLIENT, options: { maxAtOnce: scenario.maxAtOnce } }
							: CREATE_CLIENT,
						onError: 'stopWorkflow',
					}),
				),
			);
		}
		for (let round = 0; round < REPEAT; round++) {
			for (const scenario of SCENARIOS) {
				for (const entry of round % 2 ? [...packages].reverse() : packages) {
					service.reset();
					service.settings.latencyMs = scenario.latencyMs;
					service.settings.rateLimit = scenario.perSecond
						? { perSecond: scenario.perSecond }
						: undefined;
					const run = await executeWorkflow(entry.home!, workflowId(scenario));
					const runData = run.run.data.resultData.runData as unknown as Record<
						string,
						Array<{ executionTime?: number }> | undefined
					>;
					const { requests, created } = tally(service);
					const counts = Object.values(created);
					const figures: Figures = {
						nodeMs: runData[NODE]?.[0]?.executionTime ?? NaN,
						requests,
						refused: service.requests.filter((request) => request.limited).length,
						mostUnderWay: service.mostUnderWay(),
						meanUnderWay: service.meanUnderWay(),
						createdOnce:
							counts.length === scenario.contacts && counts.every((count) => count === 1),
						status: run.status,
					};
					if (TIMELINE) log(`under way / arrived: ${timeline(service.requests)}`);
					const key = `${scenario.name}|${entry.label}`;
					results.set(key, [...(results.get(key) ?? []), figures]);
					log(
						`${entry.label}, ${scenario.name}: ${(figures.nodeMs / 1000).toFixed(1)} s, ${figures.requests} requests, ${figures.refused} refused, ${figures.mostUnderWay} under way at most, ${figures.meanUnderWay.toFixed(0)} on average, ${figures.createdOnce ? 'each created once' : 'NOT each created once'}, run ${figures.status}`,
					);
				}
			}
		}
	} finally {
		await service.close();
		for (const entry of packages) removeN8nHome(entry.home);
	}

	const median = (values: number[]) =>
		[...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
	const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
	const lines = [
		'',
		`Command: npm run bench:first-burst -- --repeat ${REPEAT}${AGAINST ? ` --against ${AGAINST}` : ''}${ONLY ? ` --only "${ONLY}"` : ''}`,
		`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; n8n ${runtime.version}; load average ${load(loadAtStart)} at the start, ${load(loadavg())} at the end. Medians of ${REPEAT} runs, each its own \`n8n execute\`.`,
		'',
		'| Run | Package | Node time (s) | Requests | Refused (share of the contacts) | Most under way at once | Under way on average | Each created once, run succeeded |',
		'|---|---|---|---|---|---|---|---|',
	];
	for (const scenario of SCENARIOS) {
		for (const { label } of packages) {
			const runs = results.get(`${scenario.name}|${label}`)!;
			const refused = median(runs.map((run) => run.refused));
			const allGood = runs.every((run) => run.createdOnce && run.status === 'success');
			lines.push(
				`| ${scenario.name} | ${label} | ${(median(runs.map((run) => run.nodeMs)) / 1000).toFixed(1)} | ${median(runs.map((run) => run.requests))} | ${refused} (${((100 * refused) / scenario.contacts).toFixed(1)} %) | ${median(runs.map((run) => run.mostUnderWay))} | ${median(runs.map((run) => run.meanUnderWay)).toFixed(0)} | ${allGood ? 'yes' : 'no'} |`,
			);
		}
	}
	const [limited, keepingUp] = ALL_SCENARIOS;
	lines.push(
		'',
		`Targets: ${limited.name}: at most 1.5 × N / R = ${((1.5 * limited.contacts) / limited.perSecond!).toFixed(1)} s and refused at most 25 % of the contacts; ${keepingUp.name}: at most 256 under way at once, no slower than before.`,
		'',
	);
	process.stdout.write(lines.join('\n'));
}

main().catch((error: unknown) => {
	process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exitCode = 1;
});
