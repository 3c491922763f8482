/**
 * Every link between the project's own documents leads somewhere: the file exists, and a
 * `#section` names a heading of it, as GitHub makes a heading's anchor.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	'BENCHMARKS.md',
	'CHANGELOG.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');
}

function anchorsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
	return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]));
}

describe('links between the documents', () => {
	it('makes anchors as GitHub does', () => {
		expect(anchorOf('Installing in Docker, in queue mode, and for n8n 3.0')).toBe(
			'installing-in-docker-in-queue-mode-and-for-n8n-30',
		);
		expect(anchorOf('On n8n 1.x')).toBe('on-n8n-1x');
	});

	for (const document of DOCUMENTS) {
		it(`${document}: each link to a file of the project finds the file and its section`, () => {
			const text = readFileSync(join(ROOT, document), 'utf8');
			const broken: string[] = [];
			const targets = Array.from(
				text.matchAll(/\]\(([^)\s]+)\)|src="([^"]+)"/g),
				(match) => match[1] ?? match[2],
			);
			for (const target of targets) {
				if (/^[a-z]+:/.test(target)) continue;
				const [path, anchor] = target.split('#');
				const file = path ? relative(ROOT, join(ROOT, dirname(document), path)) : document;
				if (!existsSync(join(ROOT, file))) broken.push(`${target}: no file ${file}`);
				else if (anchor && file.endsWith('.md') && !anchorsOf(file).includes(anchor)) {
					broken.push(`${target}: no heading in ${file} has the anchor #${anchor}`);
				}
			}
			expect(broken).toEqual([]);
		});
	}
});
