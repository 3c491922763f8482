/**
 * The won-deal examples are written from scripts/deal-examples.mts (npm run examples): each file in
 * examples/ is what that writes, so that a change made in one file and not in the script, or the
 * other way round, shows here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	dealExampleFiles,
	exampleText,
	intakeFiles,
	SMTP,
	WON_DEALS_TABLE,
} from '../scripts/deal-examples.mts';

describe('the won-deal examples', () => {
	for (const { file, workflow } of [...dealExampleFiles(), ...intakeFiles()]) {
		it(`examples/${file} is what npm run examples writes`, () => {
			const shipped = readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8');
			expect(shipped).toBe(exampleText(workflow));
		});
	}

	it('give each step of a workflow an id of its own, as n8n requires to import it', () => {
		for (const { file, workflow } of [...dealExampleFiles(), ...intakeFiles()]) {
			const ids = workflow.nodes.map((node) => node.id);
			expect(new Set(ids).size, file).toBe(ids.length);
		}
	});

	// n8n's Retry resumes a failed run at its failed step: a write that found the deal moved on by
	// another run would make or send a second time (test/e2e/deal-stops.e2e.mts).
	it("write a deal's row only while its status is one the step expects", () => {
		for (const { file, workflow } of dealExampleFiles()) {
			const writes = workflow.nodes.filter(
				({ type, parameters }) =>
					type === 'n8n-nodes-base.dataTable' &&
					['update', 'deleteRows'].includes(String(parameters.operation)) &&
					JSON.stringify(parameters.dataTableId).includes(WON_DEALS_TABLE.name),
			);
			expect(writes.length, file).toBeGreaterThan(5);
			for (const { name, parameters } of writes) {
				const { matchType, filters } = parameters as {
					matchType: string;
					filters: { conditions: Array<{ keyName: string; condition: string }> };
				};
				expect(matchType, `${file}: ${name}`).toBe('allConditions');
				const keys = filters.conditions.map(({ keyName }) => keyName);
				expect(keys, `${file}: ${name}`).toContain('id');
				expect(keys, `${file}: ${name}`).toContain('status');
			}
		}
	});

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

describe('the engine finishes one deal per run', () => {
	const [{ workflow: engine }] = dealExampleFiles();
	const step = (name: string) => engine.nodes.find((node) => node.name === name)!;
	const into = (name: string) =>
		Object.entries(engine.connections)
			.filter(([, { main }]) => main.some((output) => output?.some(({ node }) => node === name)))
			.map(([from]) => from)
			.sort();

	it('calls every other workflow once with all its items: n8n 2.x marks "Run once for each item" as deprecated', () => {
		for (const { file, workflow } of [...dealExampleFiles(), ...intakeFiles()]) {
			const calls = workflow.nodes.filter(({ type }) => type === 'n8n-nodes-base.executeWorkflow');
			expect(calls.length, file).toBeGreaterThan(0);
			for (const { name, parameters } of calls)
				expect(parameters.mode, `${file}: ${name}`).toBe('once');
		}
	});

	// Read Details and Send Keys call the intake the first item names: with one deal in the run,
	// the deal's own intake.
	it('starts a run for each deal recorded or taken over, and reaches Deal only from such a run', () => {
		expect(into('One Run per Deal')).toEqual(['Finish Later', 'Record Deal']);
		expect(into('Retry One by One')).toEqual(['Finish Now', 'Take Over']);
		for (const [loop, call] of [
			['One Run per Deal', 'Finish Later'],
			['Retry One by One', 'Finish Now'],
		]) {
			expect(step(loop).parameters, loop).toMatchObject({ batchSize: 1 });
			expect(engine.connections[loop].main[1], loop).toEqual([
				{ node: call, type: 'main', index: 0 },
			]);
			expect(step(call).parameters, call).toMatchObject({
				workflowId: { value: '={{ $workflow.id }}' },
			});
		}
		// The intake has its answer at once; the sweep tells of the deals its runs failed.
		expect(step('Finish Later').parameters.options).toEqual({ waitForSubWorkflow: false });
		expect(step('Finish Now').parameters.options).toEqual({});
		expect(into('Deal')).toEqual(['Recorded?', 'Save Details']);
		expect(into('Save Details')).toEqual(['Has Ids?']);
	});
});
