import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './test/summary-line-reporter.mts';

/**
 * The end-to-end suite: the packed package inside a real n8n, against the stand-in service.
 * CONTRACT_SIGNING_N8N=1.x runs it on the newest n8n 1.x instead, CONTRACT_SIGNING_N8N=2.0 on the
 * newest 2.0.x (see test/e2e/n8n-runtime.mts).
 */
const n8nLine = process.env.CONTRACT_SIGNING_N8N;
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.e2e.mts'],
		// Two files at a time, each with its own n8n, service and ports: most of a file's time is spent
		// waiting (for a rate limit, a Retry-After, a delay), and no test bounds elapsed time.
		fileParallelism: true,
		maxWorkers: 2,
		minWorkers: 1,
		testTimeout: 180_000,
		hookTimeout: 900_000,
		reporters: [
			'default',
			new SummaryLineReporter(n8nLine ? `e2e@n8n-${n8nLine}` : 'e2e', {
				'editor.e2e.mts': 'editor',
				'walkthrough.e2e.mts': 'walkthrough',
				'agent.e2e.mts': 'agent',
				'tour.e2e.mts': 'tour',
			}),
		],
	},
});
