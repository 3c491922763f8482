/** The README stays one a user reads through: at most 250 lines, the details in docs/. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('the README is at most 250 lines', () => {
	const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
	expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(250);
});
