/**
 * Redis and PostgreSQL for the queue-mode scenario: private instances on 127.0.0.1, free ports,
 * their data in a temp folder, nothing persisted, each stopped by its PID.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../e2e/n8n-runtime.mts';

export const REDIS_SERVER = '/usr/bin/redis-server';
const POSTGRES_VERSIONS_DIR = '/usr/lib/postgresql';
/** Debian's system account for PostgreSQL, which refuses to run as root. */
const POSTGRES_ACCOUNT = 'postgres';
export const POSTGRES_USER = 'n8n';
export const POSTGRES_DATABASE = 'n8n';

export interface ServiceProcess {
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

/** The bin folder of the newest PostgreSQL from Debian's packages, or undefined. */
export function findPostgresBin(): string | undefined {
	if (!existsSync(POSTGRES_VERSIONS_DIR)) return undefined;
	const versions = readdirSync(POSTGRES_VERSIONS_DIR)
		.filter((name) => /^\d+$/.test(name))
		.sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = join(POSTGRES_VERSIONS_DIR, version, 'bin');
		if (existsSync(join(bin, 'postgres')) && existsSync(join(bin, 'initdb'))) return bin;
	}
	return undefined;
}

export interface Account {
	uid: number;
	gid: number;
}

/** Who runs PostgreSQL: this user, or the postgres account when this is root; or why nobody can. */
export function postgresAccount(): Account | string {
	if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
	const uid = spawnSync('id', ['-u', POSTGRES_ACCOUNT], { encoding: 'utf8' });
	const gid = spawnSync('id', ['-g', POSTGRES_ACCOUNT], { encoding: 'utf8' });
	if (uid.status !== 0 || gid.status !== 0) {
		return `running as root and there is no "${POSTGRES_ACCOUNT}" account to run PostgreSQL as`;
	}
	return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function portAnswers(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ host: '127.0.0.1', port });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

function spawnLogged(
	command: string,
	args: string[],
	logFile: string,
	options: { account?: Account; cwd: string },
): ChildProcess {
	const log = createWriteStream(logFile);
	const child = spawn(command, args, {
		cwd: options.cwd,
		uid: options.account?.uid,
		gid: options.account?.gid,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	child.stdout!.pipe(log);
	child.stderr!.pipe(log);
	const killOnExit = () => child.kill('SIGKILL');
	process.once('exit', killOnExit);
	child.once('exit', () => process.off('exit', killOnExit));
	return child;
}

function stopper(child: ChildProcess, signal: NodeJS.Signals): () => Promise<void> {
	return async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		process.kill(child.pid!, signal);
		const killed = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), 10_000);
		await exited;
		clearTimeout(killed);
	};
}

async function waitForPort(
	child: ChildProcess,
	port: number,
	name: string,
	logFile: string,
): Promise<void> {
	const startedAt = Date.now();
	while (Date.now() - startedAt < 30_000) {
		if (child.exitCode !== null) throw new Error(`${name} exited early; see ${logFile}`);
		if (await portAnswers(port)) return;
		await sleep(100);
	}
	throw new Error(`${name} did not listen on port ${port} within 30 s; see ${logFile}`);
}

/** redis-server on 127.0.0.1 with no snapshots and no append-only file, working in `folder`. */
export async function startRedis(folder: string): Promise<ServiceProcess> {
	mkdirSync(folder, { recursive: true });
	const port = await freePort();
	const logFile = join(folder, 'redis.log');
	const child = spawnLogged(
		REDIS_SERVER,
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(port),
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
			'--daemonize',
			'no',
		],
		logFile,
		{ cwd: folder },
	);
	const stop = stopper(child, 'SIGTERM');
	try {
		await waitForPort(child, port, 'redis-server', logFile);
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, pid: child.pid!, logFile, stop };
}

function runAs(account: Account, command: string, args: string[]): void {
	const result = spawnSync(command, args, {
		uid: account.uid,
		gid: account.gid,
		encoding: 'utf8',
		// initdb reads its working folder; root's may not be readable by the postgres account.
		cwd: '/',
	});
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
	}
}

/**
 * A throwaway PostgreSQL cluster in `folder` on 127.0.0.1: superuser `n8n` with trust
 * authentication, a database `n8n`, no durability (fsync off), no Unix socket outside `folder`.
 */
export async function startPostgres(
	bin: string,
	account: Account,
	folder: string,
): Promise<ServiceProcess> {
	mkdirSync(folder, { recursive: true });
	chownSync(folder, account.uid, account.gid);
	const dataDir = join(folder, 'data');
	runAs(account, join(bin, 'initdb'), [
		'--pgdata',
		dataDir,
		'--username',
		POSTGRES_USER,
		'--auth',
		'trust',
		'--encoding',
		'UTF8',
		'--no-sync',
	]);
	const port = await freePort();
	const logFile = join(folder, 'postgres.log');
	const child = spawnLogged(
		join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'-k',
			folder,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		],
		logFile,
		{ account, cwd: folder },
	);
	// SIGINT is PostgreSQL's fast shutdown: it ends the sessions of the n8n processes at once.
	const stop = stopper(child, 'SIGINT');
	try {
		await waitForPort(child, port, 'postgres', logFile);
		let created = false;
		for (let attempt = 0; attempt < 50 && !created; attempt++) {
			const result = spawnSync(
				join(bin, 'createdb'),
				['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_USER, POSTGRES_DATABASE],
				{ encoding: 'utf8' },
			);
			created = result.status === 0;
			// The port opens a moment before the server accepts sessions ("starting up").
			if (!created) await sleep(200);
		}
		if (!created) throw new Error(`could not create the database; see ${logFile}`);
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, pid: child.pid!, logFile, stop };
}
