import type { Reporter, TestModule } from 'vitest/node';

/** Prints `<label>: N passed, M failed` alone on a line once a run ends. */
export class SummaryLineReporter implements Reporter {
	constructor(private readonly label: string) {}

	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		let passed = 0;
		let failed = 0;
		for (const testModule of testModules) {
			let failedInModule = 0;
			for (const test of testModule.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') passed += 1;
				if (state === 'failed') failedInModule += 1;
			}
			// A failed setup (beforeAll) leaves its tests skipped: count the file as one failure.
			if (testModule.state() === 'failed' && failedInModule === 0) failedInModule = 1;
			failed += failedInModule;
		}
		process.stdout.write(`\n${this.label}: ${passed} passed, ${failed} failed\n`);
	}
}
