/**
 * Installs the n8n lines `npm test` runs (the pinned n8n and n8n 1.x) at the same time, before
 * the end-to-end phases, so that their downloads overlap; sqlite3 is still built once for both
 * (n8n-runtime.mts). Each line is installed by `test/e2e/n8n-runtime.mts` in a process of its
 * own, as CONTRACT_SIGNING_N8N selects it there. Installed lines are found ready at once. So are
 * the toolchains the README's install lines run with (test/e2e/toolchains.mts).
 *
 *   npx vite-node test/e2e/install-n8n-lines.mts
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { phaseTime } from '../summary-line-reporter.mts';
import { installToolchain, TOOLCHAINS } from './toolchains.mts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The lines of `npm test`: '' is the pinned n8n. */
const LINES = ['', '1.x'];

function installLine(line: string): Promise<boolean> {
	const name = line ? `n8n ${line}` : 'the pinned n8n';
	return new Promise((resolve) => {
		const child = spawn(
			`${REPO_ROOT}node_modules/.bin/vite-node`,
			[`${REPO_ROOT}test/e2e/n8n-runtime.mts`],
			{
				cwd: REPO_ROOT,
				env: { ...process.env, CONTRACT_SIGNING_N8N: line },
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		const prefix = (chunk: Buffer) =>
			chunk
				.toString('utf8')
				.split('\n')
				.filter((text) => text !== '')
				.map((text) => `${name}: ${text}\n`)
				.join('');
		child.stdout.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
		child.stderr.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
		child.on('error', (error) => {
			process.stderr.write(`${name}: could not start its install: ${error.message}\n`);
			resolve(false);
		});
		child.on('close', (code) => resolve(code === 0));
	});
}

const startedAt = Date.now();
async function installToolchainLogged(name: (typeof TOOLCHAINS)[number]): Promise<boolean> {
	try {
		const { binDir } = await installToolchain(name);
		process.stdout.write(`toolchain ${name}: ${binDir}\n`);
		return true;
	} catch (error) {
		process.stderr.write(`toolchain ${name}: ${(error as Error).message}\n`);
		return false;
	}
}

const installed = await Promise.all([
	...LINES.map(installLine),
	...TOOLCHAINS.map(installToolchainLogged),
]);
const failed = installed.filter((ok) => !ok).length;
process.stdout.write(
	`\nn8n and toolchain installs: ${installed.length - failed} ready, ${failed} failed\n` +
		`n8n installs took ${phaseTime(Date.now() - startedAt)}\n`,
);
if (failed > 0) process.exitCode = 1;
