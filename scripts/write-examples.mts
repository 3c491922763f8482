/**
 * Writes the won-deal examples (examples/deal-won-*.json) from scripts/deal-examples.mts.
 *
 *   npm run examples
 */
import { writeFileSync } from 'node:fs';
import { dealExampleFiles, exampleText } from './deal-examples.mts';

for (const { file, workflow } of dealExampleFiles()) {
	writeFileSync(new URL(`../examples/${file}`, import.meta.url), exampleText(workflow));
	process.stdout.write(`wrote examples/${file}\n`);
}
