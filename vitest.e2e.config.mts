import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './test/e2e/summary-line-reporter.mts';

/** The end-to-end suite: the packed package inside a real n8n, against the stand-in service. */
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.e2e.mts'],
		// One n8n at a time: the suite starts real processes on a 2-core machine.
		fileParallelism: false,
		testTimeout: 180_000,
		hookTimeout: 900_000,
		reporters: ['default', new SummaryLineReporter('e2e')],
	},
});
