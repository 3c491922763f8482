/**
 * The README's install lines, read from its text and run as written: in a shell whose home is the
 * n8n user folder, the packed file in that home, with the Node.js and npm given first on PATH (a
 * toolchain of test/e2e/toolchains.mts, or this process's) and none of `npm test`'s npm settings
 * in the environment (a user's shell has none).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync, readdirSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const README = new URL('../../README.md', import.meta.url);

/**
 * The README's install commands: for n8n installed with npm, inside n8n's Docker container (and the
 * same through Docker Compose), and the check of the file against its checksum.
 */
export function readmeInstallLines(): {
	npm: string;
	docker: string;
	compose: string;
	checksum: string;
	file: string;
} {
	const readme = readFileSync(README, 'utf8');
	const start = readme.indexOf('## Installation');
	const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
	const lines = section.split('\n').map((line) => line.trim());
	const npm = lines.find((line) => line.startsWith('mkdir -p ~/.n8n/nodes'));
	const docker = /^docker exec -u node n8n sh -c '(.+)'$/.exec(
		lines.find((line) => line.startsWith('docker exec')) ?? '',
	)?.[1];
	const compose = /^docker compose exec -u node n8n sh -c '(.+)'$/.exec(
		lines.find((line) => line.startsWith('docker compose exec')) ?? '',
	)?.[1];
	const checksum = lines.find((line) => line.startsWith('sha256sum -c '));
	const file = /~\/(n8n-nodes-contract-signing-[\d.]+\.tgz)/.exec(npm ?? '')?.[1];
	if (!npm || !docker || !compose || !checksum || !file) {
		throw new Error(
			"README.md's Installation lacks its npm, Docker, Docker Compose or checksum line, or the package file name",
		);
	}
	return { npm, docker, compose, checksum, file };
}

/** Runs one README line in `home`; the package file goes where the line expects it. */
export async function installAsReadmeSays(
	home: string,
	tarball: string,
	nodeBin: string,
	line: 'npm' | 'docker' = 'npm',
): Promise<string[]> {
	const lines = readmeInstallLines();
	if (basename(tarball) !== lines.file) {
		throw new Error(`npm pack wrote ${basename(tarball)}, but the README installs ${lines.file}`);
	}
	copyFileSync(tarball, join(home, lines.file));
	await inUserShell(home, nodeBin, lines[line]);
	return readdirSync(join(home, '.n8n', 'nodes', 'node_modules')).sort();
}

/** Runs a command as a user's shell in `home` would, the folder of `nodeBin` first on PATH. */
export async function inUserShell(home: string, nodeBin: string, command: string) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
	);
	env.HOME = home;
	env.PATH = [dirname(nodeBin), env.PATH].join(delimiter);
	return run('sh', ['-c', command], { cwd: home, env, timeout: 120_000 });
}
