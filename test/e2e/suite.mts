/**
 * The set-up every end-to-end file shares, written once: the stand-in service with a distinctive
 * API key, a fresh n8n user folder with the packed package and the credential for that service,
 * a recorder where the file asks for one, what the file prepares (workflows, credentials), and,
 * for a file that drives a running n8n, `n8n start`, the owner's session and what the file needs
 * once n8n runs (tables, published workflows).
 * `useN8n` registers the file's beforeAll and afterAll: after the file everything is stopped and
 * removed, and the figures it collected are printed, so a file is its cases alone.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startRecorder, type Recorder } from '../service/recorder.mts';
import { startStandIn, type StandIn, type StandInOptions } from '../service/stand-in.mts';
import {
	executeWorkflow,
	n8nHomeFor,
	ownerSession,
	removeN8nHome,
	runManually,
	startN8n,
	type ExecutionResult,
	type N8nHome,
	type RestSession,
	type RunningN8n,
} from './n8n-instance.mts';

export interface Suite {
	readonly service: StandIn;
	/** With `recorder: true`, a server that is not the service: the CRM's side, or one the key must never reach. */
	readonly recorder: Recorder;
	readonly home: N8nHome;
	/** The running n8n, with `start: true`. */
	readonly n8n: RunningN8n;
	readonly rest: RestSession;
	/** Lines printed under the file's name once it has run. */
	readonly figures: string[];
	/**
	 * Runs a workflow that starts with a Manual Trigger: in the running n8n with `start: true`
	 * (Execute workflow, as in the editor), with `n8n execute` otherwise.
	 */
	execute(workflowId: string): Promise<ExecutionResult>;
}

export interface SuiteOptions {
	/** The stand-in's options; its API key is a distinctive one unless given. */
	service?: StandInOptions;
	recorder?: boolean;
	/** What the file needs in n8n's user folder before n8n starts: workflows, tables, credentials. */
	prepare?: (suite: Suite) => Promise<void>;
	/** Starts `n8n start` after `prepare`, with the owner's session; without it, `n8n execute` runs. */
	start?: boolean;
	/**
	 * With `start`, what the file needs once n8n runs: data tables (they exist only in a running
	 * n8n), the workflows that name them, the workflows it publishes (`publishInN8n`).
	 */
	started?: (suite: Suite) => Promise<void>;
}

/** A key no other text has, so that finding it anywhere n8n writes is a real finding. */
function distinctiveKey(): string {
	return `sk_e2e_${randomBytes(12).toString('hex')}`;
}

export function useN8n(name: string, options: SuiteOptions = {}): Suite {
	const parts: Partial<Record<keyof Suite, unknown>> = { figures: [] };
	const part = <Key extends keyof Suite>(key: Key): Suite[Key] => {
		const value = parts[key];
		if (value === undefined) throw new Error(`${name}: the suite has no ${key} (see useN8n)`);
		return value as Suite[Key];
	};
	const keys: Array<keyof Suite> = ['service', 'recorder', 'home', 'n8n', 'rest', 'figures'];
	const suite = Object.defineProperties(
		{},
		Object.fromEntries(keys.map((key) => [key, { get: () => part(key) }])),
	) as Suite;
	suite.execute = async (workflowId) =>
		options.start
			? await runManually(suite.n8n, suite.rest, workflowId)
			: await executeWorkflow(suite.home, workflowId);

	beforeAll(async () => {
		parts.service = await startStandIn({ apiKey: distinctiveKey(), ...options.service });
		if (options.recorder) parts.recorder = await startRecorder();
		parts.home = await n8nHomeFor(suite.service);
		process.stdout.write(`${name} on n8n ${suite.home.runtime.version}\n`);
		await options.prepare?.(suite);
		if (options.start) {
			parts.n8n = await startN8n(suite.home);
			parts.rest = await ownerSession(suite.n8n.url);
			await options.started?.(suite);
		}
	});

	afterAll(async () => {
		const { n8n, service, recorder, home, figures } = parts as Partial<Suite>;
		// The service first: that ends any request still unanswered, so that n8n can shut down.
		await service?.close();
		await n8n?.stop();
		await recorder?.close();
		removeN8nHome(home);
		if (figures?.length) process.stdout.write(`${name}:\n${figures.join('\n')}\n`);
	});

	return suite;
}
