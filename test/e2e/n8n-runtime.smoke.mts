/**
 * Proves the pinned n8n runs headless: imports a Manual Trigger → Set workflow into a fresh
 * user folder, executes it with `n8n execute` and checks the field the Set node produces.
 *
 * Run with: npx vite-node test/e2e/n8n-runtime.smoke.mts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	ensureN8n,
	n8nEnv,
	parseJsonAfterLogs,
	runN8nCli,
	type N8nRuntime,
} from './n8n-runtime.mts';

const WORKFLOW_ID = 'runtimeSmoke0001';
const EXPECTED_FIELD = 'greeting';
const EXPECTED_VALUE = 'hello from n8n';

const smokeWorkflow = {
	id: WORKFLOW_ID,
	name: 'n8n runtime smoke test',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: '7a2f6a52-0c1e-4a53-9a43-2f0d3c7e0001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '7a2f6a52-0c1e-4a53-9a43-2f0d3c7e0002',
			name: 'Set Greeting',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: [
						{
							id: '7a2f6a52-0c1e-4a53-9a43-2f0d3c7e0003',
							name: EXPECTED_FIELD,
							value: EXPECTED_VALUE,
							type: 'string',
						},
					],
				},
				options: {},
			},
		},
	],
	connections: {
		Start: { main: [[{ node: 'Set Greeting', type: 'main', index: 0 }]] },
	},
};

interface RunData {
	data?: {
		resultData?: {
			error?: { message?: string };
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: unknown }>> } }>>;
		};
	};
}

async function runSmokeTest(runtime: N8nRuntime, userFolder: string): Promise<boolean> {
	const env = n8nEnv(userFolder);
	const workflowFile = join(userFolder, 'smoke-workflow.json');
	writeFileSync(workflowFile, JSON.stringify(smokeWorkflow, null, '\t'));

	let startedAt = Date.now();
	const imported = await runN8nCli(runtime, ['import:workflow', `--input=${workflowFile}`], env);
	console.log(`import:workflow exited ${imported.code} (${Date.now() - startedAt} ms)`);
	if (imported.code !== 0) {
		console.log(imported.stdout, imported.stderr);
		return false;
	}

	startedAt = Date.now();
	const executed = await runN8nCli(runtime, ['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], env);
	console.log(`execute exited ${executed.code} (${Date.now() - startedAt} ms)`);
	if (executed.code !== 0) {
		console.log(executed.stdout, executed.stderr);
		return false;
	}

	const run = parseJsonAfterLogs(executed.stdout) as RunData;
	const resultData = run.data?.resultData;
	if (resultData?.error) {
		console.log(`the workflow failed: ${resultData.error.message}`);
		return false;
	}
	const items = resultData?.runData?.['Set Greeting']?.[0]?.data?.main?.[0] ?? [];
	const fields = items[0]?.json as Record<string, unknown> | undefined;
	console.log(`Set Greeting output: ${JSON.stringify(items.map((item) => item.json))}`);
	return fields?.[EXPECTED_FIELD] === EXPECTED_VALUE;
}

const runtime = await ensureN8n({ log: (line) => console.log(`[n8n-runtime] ${line}`) });
const userFolder = mkdtempSync(join(tmpdir(), 'n8n-runtime-smoke-'));
try {
	const passed = await runSmokeTest(runtime, userFolder);
	console.log(
		passed
			? `PASS: n8n ${runtime.version} produced ${EXPECTED_FIELD} = ${JSON.stringify(EXPECTED_VALUE)}`
			: `FAIL: n8n ${runtime.version} did not produce ${EXPECTED_FIELD} = ${JSON.stringify(EXPECTED_VALUE)}`,
	);
	process.exitCode = passed ? 0 : 1;
} finally {
	rmSync(userFolder, { recursive: true, force: true });
}
