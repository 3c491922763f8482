/**
 * The node is small enough to review in an hour: nodes/ and credentials/ hold at most 1,000 lines
 * of code, counted as cloc counts them (n8n-nodes-starter's nodes/ and credentials/: 939).
 * `npx vite-node scripts/code-size.mts` prints the count and the longest files and functions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeLines, sourceFiles } from '../scripts/code-lines.mts';
import { PACKAGE_ROOT } from './e2e/n8n-instance.mts';

describe('the size of the node', () => {
	it('counts neither blank lines nor comments, and a statement over three lines as three', () => {
		const text = [
			'/**',
			' * A doc comment.',
			' */',
			'const a = 1; // a trailing comment',
			'',
			'// a comment',
			'/* a block',
			'   comment */',
			'const b = [',
			'\t`a template',
			'\tover two lines`,',
			'];',
			'',
		].join('\n');
		expect(codeLines(text)).toBe(5);
	});

	it('is at most 1,000 lines of code in nodes/ and credentials/', () => {
		const files = ['nodes', 'credentials'].flatMap((folder) =>
			sourceFiles(join(PACKAGE_ROOT, folder)),
		);
		expect(files.length).toBeGreaterThan(10);
		const lines = files.reduce((sum, path) => sum + codeLines(readFileSync(path, 'utf8')), 0);
		expect(lines).toBeLessThanOrEqual(1000);
	});
});
