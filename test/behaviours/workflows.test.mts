/**
 * The GitHub workflows: valid by GitHub's own workflow parser, and the publish workflow does what
 * n8n's verification needs (a tag, provenance through OIDC, Node 24 with npm 11.5.1 or later,
 * tests before the project's own release path, never a bare npm publish).
 */
import {
	convertWorkflowTemplate,
	NoOperationTraceWriter,
	parseWorkflow,
} from '@actions/workflow-parser';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../e2e/n8n-instance.mts';

const FOLDER = join(PACKAGE_ROOT, '.github', 'workflows');

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}

async function problemsOf(name: string, content: string): Promise<string[]> {
	const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
	const problems = parsed.context.errors.getErrors().map((error) => error.message);
	if (parsed.value) {
		const template = await convertWorkflowTemplate(parsed.context, parsed.value);
		problems.push(...(template.errors ?? []).map((error) => error.Message));
	}
	// Parsing and converting share one list of errors.
	return [...new Set(problems)];
}

describe('GitHub workflows', () => {
	const files = readdirSync(FOLDER).filter((file) => /\.ya?ml$/.test(file));

	it.each(files)('%s is valid for GitHub', async (file) => {
		expect(await problemsOf(file, readFileSync(join(FOLDER, file), 'utf8'))).toEqual([]);
	});

	it('the parser finds what GitHub would refuse', async () => {
		const broken = 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    stepz: []\n';
		expect(await problemsOf('broken.yml', broken)).toEqual([
			"broken.yml (Line: 5, Col: 5): Unexpected value 'stepz'",
		]);
	});

	it('publish.yml publishes from a tag, with provenance, after the tests, through npm run release', () => {
		const workflow = parse(readFileSync(join(FOLDER, 'publish.yml'), 'utf8')) as {
			on: { push: { tags: string[] } };
			jobs: { publish: { permissions: Record<string, string>; steps: Step[] } };
		};
		const { permissions, steps } = workflow.jobs.publish;
		const runs = steps.map((step) => step.run ?? '');
		const at = (pattern: RegExp) => runs.findIndex((run) => pattern.test(run));

		expect(workflow.on.push.tags).toEqual(['*.*.*']);
		expect(permissions['id-token']).toBe('write');
		expect(steps.find((step) => step.uses?.startsWith('actions/setup-node'))?.with).toMatchObject({
			'node-version': 24,
		});
		const npmVersion = /npm install --global npm@(\d+)\.(\d+)\.(\d+)/.exec(runs.join('\n'));
		expect(npmVersion && [1, 2, 3].map((index) => Number(npmVersion[index]))).toSatisfy(
			([major, minor, patch]: number[]) =>
				major > 11 || (major === 11 && (minor > 5 || (minor === 5 && patch >= 1))),
		);
		expect(at(/^npm ci\b/)).toBeGreaterThan(-1);
		expect(at(/\bnpm test\b/)).toBeGreaterThan(at(/^npm ci\b/));
		expect(at(/\bnpm run release\b/)).toBeGreaterThan(at(/\bnpm test\b/));
		expect(runs.some((run) => /\bnpm publish\b/.test(run))).toBe(false);
		// The project's .npmrc skips scripts; the release must run prepublishOnly.
		expect(steps[at(/\bnpm run release\b/)].env).toMatchObject({
			npm_config_ignore_scripts: 'false',
		});
	});

	it('ci.yml installs with npm ci and runs .ci/run', () => {
		const text = readFileSync(join(FOLDER, 'ci.yml'), 'utf8');
		expect(text).toMatch(/npm ci\b/);
		expect(text).not.toMatch(/npm install\b/);
		expect(text).toMatch(/\.\/\.ci\/run/);
	});
});
