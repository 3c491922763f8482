/**
 * CONTRIBUTING's "The node never reads the credential, never sends by any other means, and keeps
 * nothing in the n8n process between executions", held against the node's own code (comments
 * left out): no credential read, no send but n8n's routing (`makeRoutingRequest`), no timer of its
 * own, and no state at module level, where it would outlive an execution.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './engine/n8n-engine.mts';

function sourcesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourcesUnder(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

const withoutComments = (text: string) =>
	text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const SOURCES = ['nodes', 'credentials'].flatMap((folder) =>
	sourcesUnder(join(PACKAGE_ROOT, folder)).map((path) => ({
		file: path.slice(PACKAGE_ROOT.length),
		code: withoutComments(readFileSync(path, 'utf8')),
	})),
);

/** Each file's lines that match. */
const linesMatching = (pattern: RegExp) =>
	SOURCES.flatMap(({ file, code }) =>
		code
			.split('\n')
			.filter((line) => pattern.test(line))
			.map((line) => `${file}: ${line.trim()}`),
	);

describe("the node's code, as CONTRIBUTING says", () => {
	it('says it', () => {
		const contributing = readFileSync(join(PACKAGE_ROOT, 'CONTRIBUTING.md'), 'utf8');
		expect(contributing.replace(/\s+/g, ' ')).toContain(
			'The node never reads the credential, never sends by any other means, and keeps nothing in the n8n process between executions.',
		);
		expect(SOURCES.length).toBeGreaterThan(5);
	});

	it('never reads the credential', () => {
		expect(linesMatching(/getCredentials|\$credentials\.apiKey/)).toEqual([
			expect.stringMatching(/^credentials\/.*X-Service-Key/),
		]);
	});

	it("sends only through n8n's routing", () => {
		expect(linesMatching(/\bhelpers\b|httpRequest|\bfetch\(|node:http|axios/)).toEqual([]);
		expect(linesMatching(/makeRoutingRequest\(/)).toHaveLength(1);
	});

	it('keeps no state at module level, and no timer of its own', () => {
		expect(linesMatching(/^(export )?(let|var) /)).toEqual([]);
		expect(linesMatching(/^(export )?const \w+(: [^=]+)? = new (Map|Set|WeakMap|Array)\b/)).toEqual(
			[],
		);
		expect(linesMatching(/setTimeout|setInterval|setImmediate/)).toEqual([]);
	});
});
