import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SummaryLineReporter } from './test/summary-line-reporter.mts';

/**
 * The end-to-end suite: the packed package inside a real n8n, against the stand-in service.
 * CONTRACT_SIGNING_N8N=1.x runs it on the newest n8n 1.x instead, CONTRACT_SIGNING_N8N=2.0 on the
 * newest 2.0.x (see test/e2e/n8n-runtime.mts).
 */
const n8nLine = process.env.CONTRACT_SIGNING_N8N;

/**
 * The files that take longest, longest first (in the CI of 95a4dde: 3.4, 3.2, 2.1, 1.9, 1.5, 1.2
 * and 0.9 min), so that the two files at a time end together. Without durations from an earlier
 * run, as in a fresh clone, vitest starts the largest files first, and tour.e2e, a short file
 * that runs for 2 min, came last, alone.
 */
const LONGEST_FIRST = [
	'won-deals',
	'storm',
	'deal-storm',
	'tour',
	'pacing',
	'walkthrough',
	'exactly-once',
	'editor',
];

class LongestFirst extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const rank = (file: TestSpecification) => {
			const index = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(`/${name}.e2e.mts`));
			return index === -1 ? LONGEST_FIRST.length : index;
		};
		return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
	}
}
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.e2e.mts'],
		globalSetup: ['test/scratch-folder.mts'],
		// Two files at a time, each with its own n8n, service and ports: most of a file's time is spent
		// waiting (for a rate limit, a Retry-After, a delay), and no test bounds elapsed time.
		fileParallelism: true,
		maxWorkers: 2,
		minWorkers: 1,
		sequence: { sequencer: LongestFirst },
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
