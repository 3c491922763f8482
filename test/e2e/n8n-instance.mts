/**
 * A real n8n with this package installed the way the README installs it: its npm line, run as
 * written with the `npm pack` file, in n8n's folder for community nodes.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
	copyMigratedDatabase,
	ensureN8n,
	freePort,
	N8N_LINE_UNDER_TEST,
	n8nEnv,
	parseJsonAfterLogs,
	runN8nCli,
	type N8nRuntime,
} from './n8n-runtime.mts';
import { CRM_SECRET, SMTP } from '../../scripts/deal-examples.mts';
import type { SmtpStandIn } from '../service/smtp.mts';
import { installAsReadmeSays } from './readme-install.mts';
import { toolchainForN8n } from './toolchains.mts';

const run = promisify(execFile);

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PACKAGE_NAME = 'n8n-nodes-contract-signing';
export const NODE_TYPE = `${PACKAGE_NAME}.contractSigning`;
export const CREDENTIAL_TYPE = 'contractSigningApi';
/** The credential id the example workflows refer to. */
export const EXAMPLE_CREDENTIAL_ID = 'csDemoCredential';
export const EXAMPLES_DIR = join(PACKAGE_ROOT, 'examples');

export interface ExampleWorkflow {
	id: string;
	name: string;
	nodes: Array<{
		id: string;
		name: string;
		type: string;
		webhookId?: string;
		position?: [number, number];
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		maxTries?: number;
	}>;
	connections?: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export const readExample = (file: string) =>
	JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;

/** A workflow of the tests' own (test/e2e/workflows), not one users import. */
export const readTestWorkflow = (file: string) =>
	JSON.parse(
		readFileSync(join(PACKAGE_ROOT, 'test', 'e2e', 'workflows', file), 'utf8'),
	) as ExampleWorkflow;

/**
 * The example with its Send Keys to CRM aimed at `crmUrl`, as a user puts their CRM's address in
 * place of crm.example.com; the workflow itself, changed.
 */
export function sendKeysTo<T extends Pick<ExampleWorkflow, 'nodes'>>(
	workflow: T,
	crmUrl: string,
): T {
	for (const node of workflow.nodes) {
		if (node.name === 'Send Keys to CRM') {
			node.parameters.url = String(node.parameters.url).replace('https://crm.example.com', crmUrl);
		}
	}
	return workflow;
}

/**
 * The workflow with its schedules moved to once a year (1 January, 00:00): the tests start a
 * published example's sweep and summary themselves (runFromTrigger). n8n's "every 10 minutes" fires
 * on every tenth minute of the clock, so in a slow run it would take over a deal a case is in the
 * middle of.
 */
export function onTheTestsClock<T extends Pick<ExampleWorkflow, 'nodes'>>(workflow: T): T {
	for (const node of workflow.nodes as Array<{
		type: string;
		parameters: Record<string, unknown>;
	}>) {
		if (node.type === 'n8n-nodes-base.scheduleTrigger') {
			node.parameters = {
				...node.parameters,
				rule: { interval: [{ field: 'cronExpression', expression: '0 0 1 1 *' }] },
			};
		}
	}
	return workflow;
}

/** The path a webhook example answers on, under /webhook/. */
export function webhookPath(example: ExampleWorkflow): string {
	const webhook = example.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')!;
	return String(webhook.parameters.path);
}

export interface N8nHome {
	runtime: N8nRuntime;
	userFolder: string;
	env: NodeJS.ProcessEnv;
}

/** Compiles the package into dist/, as `npm run build` does. */
export async function buildPackage(): Promise<void> {
	await run('npx', ['n8n-node', 'build'], { cwd: PACKAGE_ROOT });
}

/**
 * Packs the built package: the tarball users install. Returns its path, in a temp folder.
 * It does not build: a build empties dist/ first, under the feet of tests that load it.
 */
export async function packPackage(): Promise<string> {
	const destination = mkdtempSync(join(tmpdir(), 'contract-signing-pack-'));
	const { stdout } = await run(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
		{ cwd: PACKAGE_ROOT },
	);
	const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
	return join(destination, filename);
}

/**
 * A fresh n8n user folder with the package installed by the README's npm line, and nothing else,
 * with the Node.js and npm of that n8n line's Docker images.
 */
export async function createN8nHome(runtime: N8nRuntime, tarball: string): Promise<N8nHome> {
	const userFolder = mkdtempSync(join(tmpdir(), 'contract-signing-n8n-'));
	const installed = await installAsReadmeSays(
		userFolder,
		tarball,
		(await toolchainForN8n(runtime.version)).node,
	);
	if (installed.filter((name) => !name.startsWith('.')).join() !== PACKAGE_NAME) {
		throw new Error(
			`The README's install line put more than the package in n8n's nodes folder: ${installed.join(', ')}`,
		);
	}
	return { runtime, userFolder, env: n8nEnv(userFolder) };
}

export function removeN8nHome(home: N8nHome | undefined): void {
	if (home) rmSync(home.userFolder, { recursive: true, force: true });
}

async function cli(home: N8nHome, args: string[], timeoutMs = 180_000) {
	const result = await runN8nCli(home.runtime, args, home.env, { timeoutMs });
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} exited with ${result.code}:\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
		);
	}
	return result;
}

function writeTemp(home: N8nHome, name: string, content: unknown): string {
	const path = join(home.userFolder, 'tmp', name);
	writeFileSync(path, JSON.stringify(content, null, '\t'));
	return path;
}

/** Imports credentials of any type; plain `data` is encrypted on import. */
export async function importCredentials(
	home: N8nHome,
	credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>,
): Promise<void> {
	const file = writeTemp(home, `credentials-${credentials[0].id}.json`, credentials);
	try {
		await cli(home, ['import:credentials', `--input=${file}`]);
	} finally {
		rmSync(file);
	}
}

/** A Contract Signing credential to import; by default the one the example workflows use. */
export function contractSigningCredential(
	data: { baseUrl: string; apiKey: string },
	id = EXAMPLE_CREDENTIAL_ID,
) {
	return { id, name: 'Contract Signing account', type: CREDENTIAL_TYPE, data };
}

/** The secret the Webhook deal example's CRM sends, in the header its credential names. */
export const CRM_SECRET_HEADER = { name: 'X-CRM-Secret', value: 'crm-secret-7d1f0a9e4c' };

/** The Webhook deal example's Header Auth credential, as a user makes it, to import. */
export function crmSecretCredential() {
	return { ...CRM_SECRET.httpHeaderAuth, type: 'httpHeaderAuth', data: CRM_SECRET_HEADER };
}

/**
 * The SMTP credential of the examples' e-mails (Alert by Email, Tell a Person, Daily Summary),
 * aimed at a stand-in mail server without TLS, as a local relay is; users enter their provider's.
 */
export function smtpCredential(smtp: Pick<SmtpStandIn, 'host' | 'port'>) {
	return {
		...SMTP.smtp,
		type: 'smtp',
		data: { user: 'n8n', password: 'secret', host: smtp.host, port: smtp.port, secure: false },
	};
}

/** The Contract Signing credential the example workflows use. */
export async function importCredential(
	home: N8nHome,
	data: { baseUrl: string; apiKey: string },
	id = EXAMPLE_CREDENTIAL_ID,
): Promise<void> {
	await importCredentials(home, [contractSigningCredential(data, id)]);
}

/**
 * What every end-to-end file starts from: the pinned n8n (installed on first use), a fresh user
 * folder with the packed package and n8n's database already migrated, and the Contract Signing
 * credential for the given service.
 */
export async function n8nHomeFor(service: { url: string; apiKey: string }): Promise<N8nHome> {
	const runtime = await ensureN8n({ log: (line) => process.stdout.write(`${line}\n`) });
	const home = await createN8nHome(runtime, await packPackage());
	await copyMigratedDatabase(runtime, home.userFolder);
	await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
	return home;
}

/** Imports the workflow, or array of workflows, in a JSON file such as an example's. */
export async function importWorkflow(home: N8nHome, file: string): Promise<void> {
	const content = JSON.parse(readFileSync(file, 'utf8')) as WorkflowToImport | WorkflowToImport[];
	await importWorkflows(home, Array.isArray(content) ? content : [content]);
}

interface WorkflowToImport {
	id: string;
	versionId?: string;
}

/**
 * Imports several workflows with one call of the CLI (each call starts n8n anew).
 *
 * n8n 2.0.x stores the file's `versionId` as it is, and its column may not be empty, so a workflow
 * without one (an exported file may have none) gets a fresh one. Later lines, and 1.x, replace
 * the file's `versionId` with a new one on import anyway.
 */
export async function importWorkflows(home: N8nHome, workflows: WorkflowToImport[]) {
	const file = writeTemp(
		home,
		`workflows-${workflows[0].id}.json`,
		workflows.map((workflow) => ({ ...workflow, versionId: workflow.versionId ?? randomUUID() })),
	);
	try {
		await cli(home, ['import:workflow', `--input=${file}`]);
	} finally {
		rmSync(file);
	}
}

/**
 * Webhook-triggered workflows answer on the production URL only once published (n8n 1.x: once
 * active; it has no publish command).
 */
export async function publishWorkflow(home: N8nHome, id: string): Promise<void> {
	const args = home.runtime.version.startsWith('1.')
		? ['update:workflow', `--id=${id}`, '--active=true']
		: ['publish:workflow', `--id=${id}`];
	await cli(home, args);
}

/**
 * Publishes an imported workflow in a running n8n, as the editor's Publish (n8n 1.x: its Active
 * switch) does, so that its webhooks answer on the production URL at once.
 */
export async function publishInN8n(rest: RestSession, workflowId: string): Promise<void> {
	const path = `/rest/workflows/${workflowId}`;
	const { versionId } = await restJson<{ versionId: string }>(rest, path);
	if (N8N_LINE_UNDER_TEST?.startsWith('1.')) {
		await restJson(rest, path, {
			method: 'PATCH',
			body: JSON.stringify({ versionId, active: true }),
		});
	} else {
		await restJson(rest, `${path}/activate`, {
			method: 'POST',
			body: JSON.stringify({ versionId }),
		});
		await publicationApplied(rest, workflowId);
	}
}

/**
 * Waits until n8n runs the published version: n8n 2.41 applies a publication in the background
 * (its publication outbox), and until then a sub-workflow call still gets the version before
 * (`getPublishedWorkflowData` in workflow-execute-additional-data.js). An n8n that answers 404 to
 * publication-status is not waited for.
 */
async function publicationApplied(rest: RestSession, workflowId: string): Promise<void> {
	const path = `/rest/workflows/${workflowId}/publication-status`;
	for (const giveUpAt = Date.now() + 60_000; ; ) {
		const response = await rest(path);
		if (response.status === 404) return;
		const text = await response.text();
		if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
		const { pendingVersionId } = (JSON.parse(text) as { data: { pendingVersionId: string | null } })
			.data;
		if (pendingVersionId === null) return;
		if (Date.now() > giveUpAt) throw new Error(`${workflowId} still publishing: ${text}`);
		await sleep(100);
	}
}

/**
 * POSTs to a published workflow's webhook, waiting while n8n answers that it is not registered
 * yet: n8n reports ready before it has registered the webhooks of published workflows (seen on a
 * first start on a slow machine). A 404 of that kind ran nothing, so sending again is safe.
 */
export async function postToWebhook(
	url: string,
	body: unknown,
	options: { withinMs?: number; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
	const giveUpAt = Date.now() + (options.withinMs ?? 60_000);
	for (;;) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...options.headers },
			body: JSON.stringify(body),
			signal: options.signal,
		});
		if (response.status !== 404 || Date.now() > giveUpAt) return response;
		const text = await response.clone().text();
		if (!text.includes('is not registered')) return response;
		await sleep(250);
	}
}

export interface ExecutionResult {
	/** `n8n execute`'s exit code; a run in a started n8n has none. */
	exitCode?: number;
	/**
	 * Everything `n8n execute` printed; for a run in a started n8n, what n8n logged meanwhile and
	 * the run it stored.
	 */
	output: string;
	/** How the run ended: n8n's `run.status`, read as `n8nRunStatus` explains. */
	status: string;
	/** The run as n8n printed it. */
	run: {
		status: string;
		finished?: boolean;
		data: {
			resultData: {
				runData: Record<
					string,
					Array<{
						data?: {
							main: Array<Array<{
								json: Record<string, unknown>;
								pairedItem?: { item: number };
							}> | null>;
						};
					}>
				>;
				error?: { message: string };
			};
		};
	};
}

/** `n8n execute` of an imported workflow; the run as n8n reports it. */
export async function executeWorkflow(home: N8nHome, id: string): Promise<ExecutionResult> {
	const result = await runN8nCli(home.runtime, ['execute', `--id=${id}`, '--rawOutput'], home.env, {
		timeoutMs: 180_000,
	});
	const parsed = parseJsonAfterLogs(result.stdout) as ExecutionResult['run'] | undefined;
	if (!parsed) {
		throw new Error(
			`n8n execute printed no run (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
		);
	}
	return {
		exitCode: result.code,
		output: result.stdout + result.stderr,
		status: n8nRunStatus(home.runtime, result.code, parsed),
		run: parsed,
	};
}

/**
 * The status of a run that `n8n execute` printed. n8n 2.0.x overwrites the engine's status with
 * the one its list of active executions holds, which is still "running" when the run has ended
 * (workflow-runner.js, `fullRunData.status = this.activeExecutions.getStatus(executionId)`; 1.123.81
 * and 2.41.1 keep the engine's). There, and only in that shape, a run that finished, with no error
 * and exit code 0, succeeded; a failed run stays "running", with its error.
 */
function n8nRunStatus(runtime: N8nRuntime, exitCode: number, run: ExecutionResult['run']): string {
	const reportsEndedRunsAsRunning = runtime.version.startsWith('2.0.');
	const succeeded =
		run.status === 'running' &&
		run.finished === true &&
		run.data.resultData.error === undefined &&
		exitCode === 0;
	return reportsEndedRunsAsRunning && succeeded ? 'success' : run.status;
}

/** Items on each output of a node in a run: index 0 is the main output, 1 the error output. */
export function nodeItems(result: ExecutionResult, nodeName: string) {
	const runs = result.run.data.resultData.runData[nodeName] ?? [];
	return (runs[0]?.data?.main ?? []).map((items) => items ?? []);
}

/** The JSON of the items on each output of a node in a run. */
export function nodeOutputs(result: ExecutionResult, nodeName: string) {
	return nodeItems(result, nodeName).map((items) => items.map((item) => item.json));
}

export interface RunningN8n {
	url: string;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

/**
 * `n8n start` on the given or a free loopback port, ready to serve; stop() ends it by its PID. A
 * port found free can be taken by another server of the tests before n8n binds it: n8n then exits
 * saying that its port is already in use, and starts again on other ports.
 */
export async function startN8n(
	home: N8nHome,
	options: { port?: number } = {},
): Promise<RunningN8n> {
	const logFile = join(home.userFolder, 'n8n-start.log');
	for (let attempt = 1; ; attempt++) {
		const port = attempt === 1 && options.port ? options.port : await freePort();
		const log = createWriteStream(logFile);
		const child = spawn(home.runtime.nodeBin, [home.runtime.n8nBin, 'start'], {
			cwd: home.userFolder,
			env: {
				...home.env,
				N8N_PORT: String(port),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout.pipe(log);
		child.stderr.pipe(log);
		try {
			const { pid, stop } = await superviseUntilReady(child, {
				label: 'n8n start',
				readinessUrl: `http://127.0.0.1:${port}/healthz/readiness`,
				logFile,
				readyWithinMs: 120_000,
				graceMs: 15_000,
			});
			return { url: `http://127.0.0.1:${port}`, pid, logFile, stop };
		} catch (error) {
			// The log ends with the process's output; what it holds by then is enough.
			if (!log.writableFinished) {
				await Promise.race([
					new Promise<void>((resolve) => log.once('finish', () => resolve())),
					sleep(2_000),
				]);
			}
			const written = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
			// n8n 2.41.1 logs "n8n's port … is already in use" (its Task Broker's too) for EADDRINUSE.
			if (attempt < 3 && /is already in use|EADDRINUSE/.test(written)) continue;
			const tail = written.trim().split('\n').slice(-20).join('\n');
			throw new Error(`${(error as Error).message}; its last lines:\n${tail}`);
		}
	}
}

export interface SupervisedProcess {
	pid: number;
	/** Resolves when the process has ended, however it ended. */
	exited: Promise<void>;
	/** Ends it by its PID: SIGTERM, then SIGKILL if it is still there after the grace period. */
	stop(): Promise<void>;
}

/**
 * Keeps a spawned n8n process in hand: it ends with the process that started it, stop() ends it
 * by its PID, and this resolves once its readiness URL answers (or stops it and throws).
 */
export async function superviseUntilReady(
	child: ChildProcess,
	options: {
		label: string;
		readinessUrl: string;
		logFile: string;
		readyWithinMs: number;
		graceMs: number;
	},
): Promise<SupervisedProcess> {
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const killOnExit = () => child.kill('SIGKILL');
	process.once('exit', killOnExit);
	void exited.then(() => process.off('exit', killOnExit));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		process.kill(child.pid!, 'SIGTERM');
		const killed = setTimeout(
			() => child.pid && process.kill(child.pid, 'SIGKILL'),
			options.graceMs,
		);
		await exited;
		clearTimeout(killed);
	};
	const startedAt = Date.now();
	while (Date.now() - startedAt < options.readyWithinMs) {
		if (child.exitCode !== null) {
			throw new Error(`${options.label} exited early; see ${options.logFile}`);
		}
		// Bounded: until n8n has bound its port, whatever else holds it may never answer.
		const ready = await fetch(options.readinessUrl, { signal: AbortSignal.timeout(2_000) }).then(
			(response) => response.ok,
			() => false,
		);
		if (ready) return { pid: child.pid!, exited, stop };
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	await stop();
	throw new Error(
		`${options.label} was not ready within ${options.readyWithinMs / 1000} s; see ${options.logFile}`,
	);
}

export const OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Contract-Signing-1',
};

/**
 * n8n 1.x reports ready a few seconds before its REST routes are mounted and answers 404 until
 * then; and while its periodic database check has timed out (seen on a loaded 2-core machine) it
 * answers 503 "Database is not ready!". Neither set anything up, so asking again is safe.
 */
async function ownerSetup(url: string): Promise<Response> {
	const giveUpAt = Date.now() + 60_000;
	for (;;) {
		const setup = await fetch(`${url}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(OWNER),
		});
		if (![404, 503].includes(setup.status) || Date.now() > giveUpAt) return setup;
		await sleep(250);
	}
}

/**
 * Sets up the instance owner, or logs in as the owner where an earlier start of this user folder
 * set it up, and returns a fetch that carries the owner's session cookie.
 */
export async function ownerSession(url: string) {
	let setup = await ownerSetup(url);
	if (setup.status === 400) {
		setup = await fetch(`${url}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		});
	}
	if (!setup.ok) throw new Error(`owner setup failed: ${setup.status} ${await setup.text()}`);
	const cookie = setup.headers
		.getSetCookie()
		.map((entry) => entry.split(';')[0])
		.join('; ');
	return async (path: string, init: RequestInit = {}) =>
		await fetch(`${url}${path}`, {
			...init,
			headers: { 'Content-Type': 'application/json', ...init.headers, cookie },
		});
}

export type RestSession = Awaited<ReturnType<typeof ownerSession>>;

/** The `data` of a REST API answer; any other status than 2xx is an error with n8n's text. */
export async function restJson<T>(
	rest: RestSession,
	path: string,
	init: RequestInit = {},
): Promise<T> {
	const response = await rest(path, init);
	const text = await response.text();
	if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
	return (JSON.parse(text) as { data: T }).data;
}

/** Whether an execution with this status has ended, however it ended. */
export function runHasEnded(status: string): boolean {
	return !['new', 'running', 'waiting', 'unknown'].includes(status);
}

export interface ExecutionSummary {
	id: string;
	status: string;
	/** How it was started: manual, webhook, trigger… */
	mode: string;
	startedAt: string;
}

/**
 * Waits until the workflow has at least `count` executions and none is still going; returns them,
 * newest first (the editor's Executions list, its first 100).
 */
export async function endedRuns(
	rest: RestSession,
	workflowId: string,
	count: number,
	withinMs: number,
): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const giveUpAt = Date.now() + withinMs;
	for (;;) {
		const { results: runs } = await restJson<{ results: ExecutionSummary[] }>(
			rest,
			`/rest/executions?filter=${filter}&limit=100`,
		);
		if (runs.length >= count && runs.every((run) => runHasEnded(run.status))) return runs;
		if (Date.now() > giveUpAt) {
			throw new Error(`expected ${count} ended runs, n8n has: ${JSON.stringify(runs)}`);
		}
		await sleep(100);
	}
}

export interface Execution {
	id: string;
	status: string;
	/** The run data, serialised (see unflatten). */
	data?: string;
}

/**
 * The editor's Execute workflow from one of the workflow's triggers (its pinned data, if it has
 * any); the run, once it has ended. n8n 1.x and 2.0 take the workflow itself in the request, as
 * their editor sends it (2.0.3's `runManually` reads `workflowData.id`); later lines read the
 * saved one.
 */
export async function runFromTrigger(
	rest: RestSession,
	workflowId: string,
	trigger: string,
	withinMs: number,
): Promise<Execution> {
	const workflowData =
		N8N_LINE_UNDER_TEST !== undefined
			? await restJson<unknown>(rest, `/rest/workflows/${workflowId}`)
			: undefined;
	const started = await restJson<{ executionId?: string }>(
		rest,
		`/rest/workflows/${workflowId}/run`,
		{
			method: 'POST',
			body: JSON.stringify({ workflowData, triggerToStartFrom: { name: trigger } }),
		},
	);
	if (!started.executionId) throw new Error(`no run started: ${JSON.stringify(started)}`);
	const giveUpAt = Date.now() + withinMs;
	for (;;) {
		const execution = await restJson<Execution>(rest, `/rest/executions/${started.executionId}`);
		// Ended, and its run stored: in CI of a9b532e, n8n 1.123.81 gave an ended run whose stored
		// data held no run.
		if (runHasEnded(execution.status) && execution.data && unflatten(execution.data)) {
			return execution;
		}
		if (Date.now() > giveUpAt) {
			throw new Error(`run ${started.executionId} did not end with its run stored`);
		}
		await sleep(100);
	}
}

/**
 * The editor's Execute workflow on a workflow that starts with a Manual Trigger, in a started
 * n8n: the run, as `executeWorkflow` gives it, without starting n8n for it.
 */
export async function runManually(
	n8n: RunningN8n,
	rest: RestSession,
	workflowId: string,
): Promise<ExecutionResult> {
	const workflow = await restJson<{ nodes: Array<{ name: string; type: string }> }>(
		rest,
		`/rest/workflows/${workflowId}`,
	);
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`workflow ${workflowId} has no Manual Trigger`);
	const loggedBefore = statSync(n8n.logFile).size;
	const execution = await runFromTrigger(rest, workflowId, trigger.name, 180_000);
	const data = unflatten(execution.data!) as ExecutionResult['run']['data'];
	const run = { status: execution.status, finished: execution.status === 'success', data };
	const logged = readFileSync(n8n.logFile).subarray(loggedBefore).toString('utf8');
	return { output: `${logged}\n${JSON.stringify(run)}`, status: execution.status, run };
}

/** The run's error, if n8n recorded one, for a failure message; stored data without a run is said. */
export function runError(execution: Execution): string | undefined {
	if (!execution.data) return undefined;
	const run = unflatten(execution.data) as
		| { resultData?: { error?: { message?: string; node?: { name?: string } } } }
		| null
		| undefined;
	if (!run) return `no run data stored yet (run ${execution.id}, ${execution.status})`;
	const error = run.resultData?.error;
	return error ? `${error.node?.name ?? 'workflow'}: ${error.message}` : undefined;
}

/**
 * Reads n8n's stored run data, which is serialised with `flatted`: a JSON array whose first
 * element is the root and in which every string inside an object or array is the index of
 * the element holding the real value.
 */
export function unflatten(serialised: string): unknown {
	const table = JSON.parse(serialised) as unknown[];
	const revived = new Map<number, unknown>();
	const revive = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = table[index];
		if (typeof value !== 'object' || value === null) {
			revived.set(index, value);
			return value;
		}
		const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
		revived.set(index, copy);
		for (const [key, field] of Object.entries(value)) {
			(copy as Record<string, unknown>)[key] =
				typeof field === 'string' ? revive(Number(field)) : field;
		}
		return copy;
	};
	return revive(0);
}

/** Files under the user folder (n8n's database, logs, settings) whose bytes contain the text. */
export function filesContaining(home: N8nHome, text: string): string[] {
	const needle = Buffer.from(text);
	const found: string[] = [];
	const visit = (dir: string) => {
		for (const entry of readdirSync(dir)) {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) visit(path);
			else if (readFileSync(path).includes(needle)) found.push(path);
		}
	};
	visit(home.userFolder);
	return found;
}
