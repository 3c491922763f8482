/**
 * What users install: the packed tarball holds only the built node, credential, icons and docs,
 * and passes n8n's community package scanner, run offline on the tarball and on the sources.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packPackage } from './e2e/n8n-instance.mts';
import { installAsReadmeSays, readmeInstallLines } from './e2e/readme-install.mts';

const run = promisify(execFile);

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
	rules: string[];
}

/**
 * Runs n8n's community package scanner (its exported analyzePackage, offline) on a folder.
 * It runs in a child process without NODE_ENV: n8n's lint plugin treats every file as a test
 * fixture named "Test.node.ts" when NODE_ENV is "test", as it is under vitest.
 */
async function scan(folder: string, scope: 'tarball' | 'sources'): Promise<ScanResult> {
	const script = `
		import { analyzePackage, buildScanConfig, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';
		const config = await buildScanConfig();
		const rules = Object.keys(Object.assign({}, ...config.map((entry) => entry.rules ?? {})));
		const result = await (${JSON.stringify(scope)} === 'sources'
			? analyzePackage(${JSON.stringify(folder)}, SOURCE_FILE_PATTERNS)
			: analyzePackage(${JSON.stringify(folder)}));
		process.stdout.write(JSON.stringify({ ...result, rules }));
	`;
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV'),
	);
	const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
		cwd: PACKAGE_ROOT,
		env,
		maxBuffer: 10_000_000,
	});
	return JSON.parse(stdout) as ScanResult;
}

let tarball: string;
let unpacked: string;
let files: string[];

beforeAll(async () => {
	tarball = await packPackage();
	unpacked = mkdtempSync(join(tmpdir(), 'contract-signing-unpacked-'));
	await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const { stdout } = await run('tar', ['-tzf', tarball]);
	files = stdout
		.trim()
		.split('\n')
		.map((path) => path.replace(/^package\//, ''))
		.sort();
}, 60_000);

describe('the packed package', () => {
	it('is declarative (n8nNodesApiVersion 1) and has no runtime dependencies, as docs/reference.md says', () => {
		const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
		expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(readFileSync(join(PACKAGE_ROOT, 'docs', 'reference.md'), 'utf8')).toMatch(
			/\(`n8nNodesApiVersion` 1\) and has no runtime\s+dependencies/,
		);
	});

	it("runs on n8n 2.0.x the files docs/reference.md's compatibility table says, of those 1.x runs", () => {
		const { scripts } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
		const files = (script: string): string[] => script.match(/test\/e2e\/[\w-]+\.e2e\.mts/g) ?? [];
		const older = files(scripts['test:e2e:1x']);
		const compat = files(scripts['test:compat']);
		expect(compat.every((file) => older.includes(file))).toBe(true);
		const words = [
			'zero',
			'one',
			'two',
			'three',
			'four',
			'five',
			'six',
			'seven',
			'eight',
			'nine',
			'ten',
			'eleven',
			'twelve',
			'thirteen',
			'fourteen',
		];
		expect(readFileSync(join(PACKAGE_ROOT, 'docs', 'reference.md'), 'utf8')).toContain(
			`${words[compat.length]} of the ${words[older.length]} files 1.123.81 runs`,
		);
	});

	it('holds only what users need', () => {
		process.stdout.write(
			`tarball ${tarball.split('/').pop()}: ${statSync(tarball).size} bytes, ${files.length} files\n${files.join('\n')}\n`,
		);
		const needed =
			/^(package\.json|README\.md|LICENSE\.md|dist\/.+\.(js|svg|node\.json)|dist\/nodes\/.+\/__schema__\/.+\.json)$/;
		expect(files.filter((path) => !needed.test(path))).toEqual([]);
		expect(files).toEqual(
			expect.arrayContaining([
				'package.json',
				'README.md',
				'LICENSE.md',
				'dist/nodes/ContractSigning/ContractSigning.node.js',
				'dist/nodes/ContractSigning/ContractSigning.node.json',
				'dist/credentials/ContractSigningApi.credentials.js',
				'dist/icons/contract-signing.svg',
				'dist/icons/contract-signing.dark.svg',
				'dist/nodes/ContractSigning/__schema__/v1.0.0/client/create.json',
				'dist/nodes/ContractSigning/__schema__/v1.0.0/user/get.json',
				'dist/nodes/ContractSigning/__schema__/v1.0.0/contract/create.json',
			]),
		);
	});

	it('passes n8n’s community package scanner on the tarball', async () => {
		const result = await scan(unpacked, 'tarball');
		expect(result.details ?? result.message ?? '').toBe('');
		expect(result.passed).toBe(true);
	}, 60_000);

	it('passes n8n’s community package scanner on the sources, as n8n scans the attested source', async () => {
		const result = await scan(PACKAGE_ROOT, 'sources');
		process.stdout.write(`scanner rules (${result.rules.length}): ${result.rules.join(', ')}\n`);
		expect(result.rules.length).toBeGreaterThan(50);
		expect(result.details ?? result.message ?? '').toBe('');
		expect(result.passed).toBe(true);
	}, 60_000);
});

describe("the README's install lines", () => {
	// Here with this process's Node.js and npm; test/e2e/readme-install.e2e.mts runs them with the
	// Node.js and npm of n8n's Docker images, and every n8n the end-to-end suite starts is filled so.
	it.each(['npm', 'docker'] as const)(
		'the %s line, run as written, puts the package alone in an empty nodes folder',
		async (line) => {
			const home = mkdtempSync(join(tmpdir(), 'contract-signing-home-'));
			const installed = await installAsReadmeSays(home, tarball, process.execPath, line);
			expect(installed.filter((name) => !name.startsWith('.'))).toEqual([
				'n8n-nodes-contract-signing',
			]);
		},
		120_000,
	);
});

describe('the package file of a release', () => {
	const publish = readFileSync(join(PACKAGE_ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
	/** The release workflow's lines that name the file and write its checksum, as it runs them. */
	const checksumLines = publish
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line.startsWith('file=') || line.startsWith('sha256sum '));

	it('passes the README’s check against the checksum the release workflow writes, and a changed file fails it', async () => {
		const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
			version: string;
		};
		const { checksum, file } = readmeInstallLines();
		expect(checksumLines).toHaveLength(2);
		const folder = mkdtempSync(join(tmpdir(), 'contract-signing-release-'));
		copyFileSync(tarball, join(folder, file));
		await run('sh', ['-c', checksumLines.join('\n')], {
			cwd: folder,
			env: { ...process.env, GITHUB_REF_NAME: version },
		});
		const { stdout } = await run('sh', ['-c', checksum], { cwd: folder });
		expect(stdout.trim()).toBe(`${file}: OK`);

		const bytes = readFileSync(join(folder, file));
		bytes[bytes.length - 1] ^= 1;
		writeFileSync(join(folder, file), bytes);
		await expect(run('sh', ['-c', checksum], { cwd: folder })).rejects.toMatchObject({
			stdout: expect.stringContaining(`${file}: FAILED`),
		});
	});
});

describe("the README's Docker Compose lines", () => {
	it('run inside the container what the Docker lines run', () => {
		const { docker, compose } = readmeInstallLines();
		expect(compose).toBe(docker);
	});
});

describe('the lockfile', () => {
	it('records every platform’s optional packages, so that npm ci installs on Linux, macOS and Windows', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'contract-signing-lock-'));
		for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
			copyFileSync(join(PACKAGE_ROOT, file), join(folder, file));
		}
		// npm ci refuses a lockfile that misses a package the manifest needs on any platform.
		const { stdout } = await run('npm', ['ci', '--dry-run', '--no-audit', '--no-fund'], {
			cwd: folder,
		});
		expect(stdout).toMatch(/added \d+ packages/);
	}, 120_000);
});
