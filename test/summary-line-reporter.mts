import { basename } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface Tally {
	passed: number;
	failed: number;
	skipped: number;
}

/**
 * Prints `<label>: N passed, M failed` alone on a line once a run ends, and one such line for
 * each file named in `parts` (file name → label), then how long the run took. Under CI=true a
 * skipped test counts as failed and fails the run: a part that did not run must not look like a
 * part that passed.
 */
export class SummaryLineReporter implements Reporter {
	private readonly startedAt = Date.now();

	constructor(
		private readonly label: string,
		private readonly parts: Record<string, string> = {},
	) {}

	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		const strict = process.env.CI === 'true';
		const total: Tally = { passed: 0, failed: 0, skipped: 0 };
		const lines: string[] = [];
		for (const testModule of testModules) {
			const tally: Tally = { passed: 0, failed: 0, skipped: 0 };
			for (const test of testModule.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') tally.passed += 1;
				else if (state === 'failed') tally.failed += 1;
				else tally.skipped += 1;
			}
			// A failed setup (beforeAll) leaves its tests skipped: count the file as one failure.
			if (testModule.state() === 'failed' && tally.failed === 0) {
				tally.failed = 1;
				tally.skipped = 0;
			}
			if (strict) {
				tally.failed += tally.skipped;
				tally.skipped = 0;
			}
			total.passed += tally.passed;
			total.failed += tally.failed;
			total.skipped += tally.skipped;
			const part = this.parts[basename(testModule.moduleId)];
			if (part) lines.push(summaryLine(part, tally));
		}
		lines.push(summaryLine(this.label, total));
		lines.push(`${this.label} took ${phaseTime(Date.now() - this.startedAt)}`);
		if (total.failed > 0) process.exitCode = 1;
		process.stdout.write(`\n${lines.join('\n')}\n`);
	}
}

function summaryLine(label: string, tally: Tally): string {
	const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : '';
	return `${label}: ${tally.passed} passed, ${tally.failed} failed${skipped}`;
}

/** A phase's time as a contributor reads it: seconds, or minutes and seconds. */
export function phaseTime(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
