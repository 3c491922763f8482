/**
 * The won-deal examples are written from scripts/deal-examples.mts (npm run examples): each file in
 * examples/ is what that writes, so that a change made in one file and not in the script, or the
 * other way round, shows here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dealExampleFiles, exampleText } from '../scripts/deal-examples.mts';

describe('the won-deal examples', () => {
	for (const { file, workflow } of dealExampleFiles()) {
		it(`examples/${file} is what npm run examples writes`, () => {
			const shipped = readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8');
			expect(shipped).toBe(exampleText(workflow));
		});
	}
});
