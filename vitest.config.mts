import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './test/summary-line-reporter.mts';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		// n8n-core loads the CommonJS build of n8n-workflow; tests must share that one copy,
		// or the engine's `instanceof NodeApiError` checks fail on errors the node throws.
		alias: { 'n8n-workflow': require.resolve('n8n-workflow') },
	},
	test: {
		include: ['test/**/*.test.mts'],
		globalSetup: ['test/scratch-folder.mts'],
		env: {
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_LOG_LEVEL: 'silent',
		},
		testTimeout: 20_000,
		// Most of the suite waits on a service (its pace, its Retry-After), not on the processor: two
		// files at once even on a 2-core machine, where Vitest's default would run one at a time.
		maxWorkers: Math.max(2, availableParallelism() - 1),
		// Loaded through Vite: the workflow parser imports JSON without the attribute Node.js 20 wants.
		server: { deps: { inline: ['@actions/workflow-parser'] } },
		reporters: ['default', new SummaryLineReporter('in-process')],
	},
});
