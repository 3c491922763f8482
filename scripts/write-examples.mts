/**
 * Writes the won-deal examples, the contract engine and its intakes, from
 * scripts/deal-examples.mts.
 *
 *   npm run examples
 */
import { writeFileSync } from 'node:fs';
import { dealExampleFiles, exampleText, intakeFiles } from './deal-examples.mts';

for (const { file, workflow } of [...dealExampleFiles(), ...intakeFiles()]) {
	writeFileSync(new URL(`../examples/${file}`, import.meta.url), exampleText(workflow));
	process.stdout.write(`wrote examples/${file}\n`);
}
