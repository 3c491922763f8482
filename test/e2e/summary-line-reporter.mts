import type { Reporter, TestModule } from 'vitest/node';

/** Prints `<label>: N passed, M failed` alone on a line once a run ends. */
export class SummaryLineReporter implements Reporter {
	constructor(private readonly label: string) {}

	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		let passed = 0;
		let failed = 0;
		for (const testModule of testModules) {
			for (const test of testModule.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') passed += 1;
				if (state === 'failed') failed += 1;
			}
			if (testModule.state() === 'failed' && !testModule.children.size) failed += 1;
		}
		process.stdout.write(`\n${this.label}: ${passed} passed, ${failed} failed\n`);
	}
}
