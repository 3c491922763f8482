/**
 * The defaults the texts give for the busy-service options are the node's: in the README and
 * CHANGELOG as "**Max Retries When Busy** (20)", in docs/reference.md's table of Options, and in
 * docs/scaling.md as "up to 20 times and 300 s per item".
 */
import { readFileSync } from 'node:fs';
import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../nodes/ContractSigning/ContractSigning.node';

const read = (file: string) =>
	readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const options = new ContractSigning().description.properties.find(({ name }) => name === 'options')!
	.options as INodeProperties[];
const byName = Object.fromEntries(options.map((option) => [option.displayName, option.default]));
const RETRIES = byName['Max Retries When Busy'];
const WAIT = byName['Max Wait When Busy (Seconds)'];

describe('the busy-service defaults the texts give', () => {
	it('are the node’s own', () => {
		expect([RETRIES, WAIT]).toEqual([20, 300]);
		for (const file of ['README.md', 'CHANGELOG.md']) {
			const text = read(file);
			const given = [
				...text.matchAll(
					/Max Retries When Busy\*\* \((\d+)\) and \*\*Max Wait When Busy \(Seconds\)\*\* \((\d+)\)/g,
				),
			];
			expect(given.length, file).toBeGreaterThan(0);
			for (const [, retries, wait] of given)
				expect([Number(retries), Number(wait)], file).toEqual([RETRIES, WAIT]);
		}
		const reference = read('docs/reference.md');
		expect(reference).toMatch(
			new RegExp(`\\| Max Retries When Busy +\\| [^|]+\\| ${RETRIES} +\\|`),
		);
		expect(reference).toMatch(
			new RegExp(`\\| Max Wait When Busy \\(Seconds\\) \\| [^|]+\\| ${WAIT} +\\|`),
		);
		expect(read('docs/scaling.md')).toContain(`up to ${RETRIES} times and ${WAIT} s per item`);
	});
});

describe('how long a won deal goes unfinished before a person is told, as the texts give it', () => {
	it('is the examples’ own', async () => {
		const { TELL_AFTER_HOURS } = await import('../../scripts/deal-examples.mts');
		const given = ['README.md', 'CHANGELOG.md', 'docs/examples.md'].flatMap((file) =>
			[...read(file).matchAll(/(\d+) hours (later|after it was recorded)/g)].map(([, hours]) => [
				file,
				Number(hours),
			]),
		);
		expect(given.map(([file]) => file)).toEqual(
			expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/examples.md']),
		);
		for (const [file, hours] of given) expect(hours, String(file)).toBe(TELL_AFTER_HOURS);
	});
});
