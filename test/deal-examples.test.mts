/**
 * The won-deal examples are written from scripts/deal-examples.mts (npm run examples): each file in
 * examples/ is what that writes, so that a change made in one file and not in the script, or the
 * other way round, shows here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dealExampleFiles, exampleText, SMTP } from '../scripts/deal-examples.mts';

describe('the won-deal examples', () => {
	for (const { file, workflow } of dealExampleFiles()) {
		it(`examples/${file} is what npm run examples writes`, () => {
			const shipped = readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8');
			expect(shipped).toBe(exampleText(workflow));
		});
	}

	it('e-mail with the SMTP credential of examples/alert-by-email.json, so that one credential serves all', () => {
		const alert = JSON.parse(
			readFileSync(new URL('../examples/alert-by-email.json', import.meta.url), 'utf8'),
		) as { nodes: Array<{ type: string; credentials?: unknown }> };
		const mailing = [alert, ...dealExampleFiles().map(({ workflow }) => workflow)].flatMap(
			({ nodes }) => nodes.filter((node) => node.type === 'n8n-nodes-base.emailSend'),
		);
		expect(mailing).toHaveLength(1 + 2 * dealExampleFiles().length);
		for (const step of mailing) expect(step.credentials).toEqual(SMTP);
	});
});
