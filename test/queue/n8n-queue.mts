/**
 * n8n in queue mode: the settings every process shares (Redis, the database), `n8n worker`
 * processes, reading the JSON log lines n8n writes with N8N_LOG_FORMAT=json, and what became of
 * an execution of a CRM webhook example.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	restJson,
	superviseUntilReady,
	unflatten,
	type N8nHome,
	type RestSession,
} from '../e2e/n8n-instance.mts';
import { freePort } from '../e2e/n8n-runtime.mts';
import { POSTGRES_DATABASE, POSTGRES_USER } from './services.mts';

export type Database = { kind: 'postgres'; port: number } | { kind: 'sqlite' };

/** The settings main and workers must share: queue mode, the Redis queue, one database. */
export function queueModeEnv(redisPort: number, database: Database): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		// As docs/scaling.md asks on n8n 1.x, whose workers otherwise run a crashed worker's
		// executions once more (2.x never does, whatever it is set to).
		QUEUE_WORKER_MAX_STALLED_COUNT: '0',
		N8N_LOG_FORMAT: 'json',
		N8N_LOG_LEVEL: 'info',
		...(database.kind === 'postgres'
			? {
					DB_TYPE: 'postgresdb',
					DB_POSTGRESDB_HOST: '127.0.0.1',
					DB_POSTGRESDB_PORT: String(database.port),
					DB_POSTGRESDB_DATABASE: POSTGRES_DATABASE,
					DB_POSTGRESDB_USER: POSTGRES_USER,
					DB_POSTGRESDB_PASSWORD: '',
				}
			: { DB_TYPE: 'sqlite' }),
	};
}

export function withEnv(home: N8nHome, extra: Record<string, string>): N8nHome {
	return { ...home, env: { ...home.env, ...extra } };
}

export interface LogEntry {
	level?: string;
	message?: string;
	metadata?: Record<string, unknown>;
	/** The line as printed; lines that are not JSON have only this. */
	text: string;
}

export function parseLogLine(line: string): LogEntry | undefined {
	const trimmed = line.trim();
	if (trimmed === '') return undefined;
	if (trimmed.startsWith('{')) {
		try {
			const parsed = JSON.parse(trimmed) as Omit<LogEntry, 'text'>;
			return { ...parsed, text: trimmed };
		} catch {
			// A line that only looks like JSON.
		}
	}
	return { text: trimmed };
}

export function readLogFile(file: string): LogEntry[] {
	return readFileSync(file, 'utf8')
		.split('\n')
		.map(parseLogLine)
		.filter((entry): entry is LogEntry => entry !== undefined);
}

export interface RunningWorker {
	name: string;
	pid: number;
	logFile: string;
	/** Log lines so far, parsed as they arrive. */
	entries: LogEntry[];
	/** Resolves when the process has ended, however it ended. */
	exited: Promise<void>;
	stop(): Promise<void>;
}

/** `n8n worker --concurrency=N` with its own broker and health ports; ready when it says so. */
export async function startWorker(
	home: N8nHome,
	name: string,
	concurrency: number,
): Promise<RunningWorker> {
	const healthPort = await freePort();
	const logFile = join(home.userFolder, `${name}.log`);
	const log = createWriteStream(logFile);
	const child = spawn(
		home.runtime.nodeBin,
		[home.runtime.n8nBin, 'worker', `--concurrency=${concurrency}`],
		{
			cwd: home.userFolder,
			env: {
				...home.env,
				N8N_PORT: String(await freePort()),
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	const entries: LogEntry[] = [];
	let partialLine = '';
	child.stdout.on('data', (chunk: Buffer) => {
		log.write(chunk);
		const lines = (partialLine + chunk.toString('utf8')).split('\n');
		partialLine = lines.pop() ?? '';
		for (const line of lines) {
			const entry = parseLogLine(line);
			if (entry) entries.push(entry);
		}
	});
	child.stderr.pipe(log);
	const { pid, exited, stop } = await superviseUntilReady(child, {
		label: name,
		readinessUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
		logFile,
		readyWithinMs: 180_000,
		graceMs: 40_000,
	});
	return { name, pid, logFile, entries, exited, stop };
}

/** The PIDs of a process's children, grandchildren and so on (Linux /proc). */
export function descendantPids(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The parent PID is the second field after the command name, which is in parentheses.
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
		} catch {
			// The process ended while the list was read.
		}
	}
	const found: number[] = [];
	const visit = (parent: number) => {
		for (const child of children.get(parent) ?? []) {
			found.push(child);
			visit(child);
		}
	};
	visit(pid);
	return found;
}

export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export interface ExecutionDetail {
	id: string;
	status: string;
	crmId?: string;
	error?: string;
	lastNodeExecuted?: string;
}

export async function executionDetail(rest: RestSession, id: string): Promise<ExecutionDetail> {
	const execution = await restJson<{ id: string; status: string; data: string }>(
		rest,
		`/rest/executions/${id}`,
	);
	const data = unflatten(execution.data) as {
		resultData?: {
			error?: { message?: string };
			lastNodeExecuted?: string;
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json?: unknown }>> } }>>;
		};
		executionData?: {
			nodeExecutionStack?: Array<{ data?: { main?: Array<Array<{ json?: unknown }>> } }>;
		};
	};
	// The contact is the webhook's output: in the run data once the trigger ran, or still on the
	// execution stack of an execution no worker started.
	const webhookItem =
		data.resultData?.runData?.['CRM Contact']?.[0]?.data?.main?.[0]?.[0]?.json ??
		data.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json;
	const crmId = (webhookItem as { body?: { crmId?: string } } | undefined)?.body?.crmId;
	return {
		id: execution.id,
		status: execution.status,
		crmId,
		error: data.resultData?.error?.message,
		lastNodeExecuted: data.resultData?.lastNodeExecuted,
	};
}

export interface WorkerExecutions {
	started: Set<string>;
	succeeded: Set<string>;
	failed: Set<string>;
	finishedAt: Map<string, number>;
}

/** What a worker's log says it ran: "Worker started/finished execution N (job M)". */
export function workerExecutions(entries: LogEntry[]): WorkerExecutions {
	const result: WorkerExecutions = {
		started: new Set(),
		succeeded: new Set(),
		failed: new Set(),
		finishedAt: new Map(),
	};
	for (const entry of entries) {
		const match = /^Worker (started|finished) execution (\S+) \(job/.exec(entry.message ?? '');
		if (!match) continue;
		const [, event, executionId] = match;
		if (event === 'started') {
			result.started.add(executionId);
			continue;
		}
		const success = entry.metadata?.success !== false;
		(success ? result.succeeded : result.failed).add(executionId);
		const timestamp = Date.parse(String(entry.metadata?.timestamp ?? ''));
		if (Number.isFinite(timestamp)) result.finishedAt.set(executionId, timestamp);
	}
	return result;
}
