/**
 * The README's install lines (npm, and the one run inside n8n's Docker container), read from its
 * text and run as written into an empty nodes folder, with the Node.js and npm of n8n 1.x's Docker
 * images (22 with npm 10) and of 2.x's (24 with npm 11), installed from the npm registry. Every
 * n8n the end-to-end suite starts, 2.41.1 and 1.123.81, starts from a folder the npm line filled
 * with its line's toolchain (createN8nHome).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackage } from './n8n-instance.mts';
import { inUserShell, installAsReadmeSays } from './readme-install.mts';
import { TOOLCHAINS, installToolchain } from './toolchains.mts';

let tarball: string;
const homes: string[] = [];

beforeAll(async () => {
	tarball = await packPackage();
}, 120_000);

afterAll(() => {
	for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe.each(TOOLCHAINS)("the README's install lines with %s", (name) => {
	it.each(['npm', 'docker'] as const)(
		'the %s line puts the package alone in an empty nodes folder',
		async (line) => {
			const { node, nodeMajor, npmMajor } = await installToolchain(name);
			const home = mkdtempSync(join(tmpdir(), 'contract-signing-home-'));
			homes.push(home);
			const { stdout } = await inUserShell(home, node, 'node --version && npm --version');
			const [nodeVersion, npmVersion] = stdout.trim().split('\n');
			expect(nodeVersion).toMatch(new RegExp(`^v${nodeMajor}\\.`));
			expect(npmVersion).toMatch(new RegExp(`^${npmMajor}\\.`));

			const installed = await installAsReadmeSays(home, tarball, node, line);

			const nodes = join(home, '.n8n', 'nodes');
			process.stdout.write(
				`${name} (node ${nodeVersion}, npm ${npmVersion}), ${line} line: nodes folder holds ${readdirSync(nodes).join(', ')}; node_modules holds ${installed.join(', ')}\n`,
			);
			expect(installed.filter((entry) => !entry.startsWith('.'))).toEqual([
				'n8n-nodes-contract-signing',
			]);
			const lock = JSON.parse(readFileSync(join(nodes, 'package-lock.json'), 'utf8')) as {
				packages: Record<string, unknown>;
			};
			expect(Object.keys(lock.packages).filter(Boolean)).toEqual([
				'node_modules/n8n-nodes-contract-signing',
			]);
		},
		180_000,
	);
});
