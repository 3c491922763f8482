/**
 * CONTRIBUTING's "Where the node leans on n8n" against the installed n8n's own files: each file of
 * n8n-nodes-base it names holds what the text says it does, and
 * what the text says no node of n8n-nodes-base does, none does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureN8n, type N8nRuntime } from './n8n-runtime.mts';

const CONTRIBUTING = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
const SECTION = CONTRIBUTING.slice(
	CONTRIBUTING.indexOf('## Where the node leans on n8n'),
	CONTRIBUTING.indexOf('\n## ', CONTRIBUTING.indexOf('## Where the node leans on n8n') + 3),
);

/** Each file the section names, with what the text says is in it (as n8n builds it, in JavaScript). */
const NAMED: Record<string, string[]> = {
	'nodes/Aws/IAM/descriptions/user/create.operation.ts': ['preSend: [', 'validatePath'],
	'nodes/Microsoft/Entra/GenericFunctions.ts': ['handleErrorPostReceive', 'NodeApiError('],
	'nodes/Okta/Okta.node.ts': ['requestDefaults', '$credentials.url', 'usableAsTool: true'],
	'nodes/Microsoft/Entra/MicrosoftEntra.node.ts': [
		'requestDefaults',
		"'Content-Type': 'application/json'",
	],
	'nodes/Aws/IAM/descriptions/user/User.resource.ts': ['ignoreHttpStatusErrors: true'],
	'nodes/Brandfetch/v2/GenericFunctions.ts': ['disableFollowRedirect: true'],
	'nodes/HighLevel/v2/HighLevelV2.node.ts': ['requestOperations', 'pagination'],
	'nodes/Okta/UserFunctions.ts': ['this.makeRoutingRequest('],
	'nodes/Microsoft/Dataverse/GenericFunctions.ts': [
		'@n8n/utils/sleep',
		'getNetworkErrorCode',
		'429',
	],
	'nodes/SplitInBatches/v3/SplitInBatchesV3.node.ts': ["getContext('node')"],
	'nodes/HttpRequest/V3/HttpRequestV3.node.ts': ["getContext('node')"],
	'nodes/Slack/V2/GenericFunctions.ts': ['getExecutionId()'],
	'nodes/Github/Github.node.ts': ['getWorkflowDataProxy(0)'],
	'nodes/Mailchimp/MailchimpTrigger.node.ts': ['NodeApiError', "'isAxiosError' in error.cause"],
	'nodes/Microsoft/SharePoint/v2/helpers/utils.ts': ['error.description = '],
	'nodes/SeaTable/v2/actions/router.ts': ['error.context.itemIndex = '],
	'nodes/Xml/Xml.node.ts': ['deepCopy)('],
	'nodes/Databricks/actions/helpers.ts': ['getExecutionCancelSignal()', '429'],
	'nodes/Wait/Wait.node.ts': ['onExecutionCancellation('],
	'credentials/OktaApi.credentials.ts': ["type: 'generic'", '$credentials.url'],
	'credentials/ConvertApi.credentials.ts': [
		"type: 'responseSuccessBody'",
		'ignoreHttpStatusErrors: true',
	],
};

let runtime: N8nRuntime;
const built = (file: string) =>
	join(runtime.root, 'node_modules', 'n8n-nodes-base', 'dist', file.replace(/\.ts$/, '.js'));

/** Every built file under a folder of n8n-nodes-base. */
function filesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return filesUnder(path);
		return name.endsWith('.js') ? [path] : [];
	});
}

/** The files of n8n-nodes-base whose text matches. */
function nodesBaseFilesWith(under: 'nodes' | 'credentials', pattern: RegExp): string[] {
	const base = join(runtime.root, 'node_modules', 'n8n-nodes-base', 'dist', under);
	return filesUnder(base)
		.filter((path) => pattern.test(readFileSync(path, 'utf8')))
		.map((path) => path.slice(base.length + 1));
}

beforeAll(async () => {
	runtime = await ensureN8n({ log: (line) => process.stdout.write(`${line}\n`) });
}, 600_000);

describe("CONTRIBUTING's files of n8n, in the installed n8n", () => {
	it('names only files this test checks', () => {
		const named = new Set(
			[...SECTION.matchAll(/`((?:nodes|credentials)\/[\w/.-]+\.ts)`/g)].map((match) => match[1]),
		);
		expect([...named].sort()).toEqual(Object.keys(NAMED).sort());
	});

	for (const [file, needles] of Object.entries(NAMED)) {
		it(`${file} holds ${needles.join(', ')}`, () => {
			const text = readFileSync(built(file), 'utf8');
			for (const needle of needles) expect(text, `${needle} in ${file}`).toContain(needle);
		});
	}

	it("no node of n8n-nodes-base reads $runIndex or retryOnFail or sleeps with n8n-workflow's sleep, which is @n8n/utils'; no credential disables redirects", () => {
		const words = SECTION.replace(/\s+/g, ' ');
		expect(words).toContain('No node of n8n-nodes-base keys its own state by `$runIndex`');
		expect(nodesBaseFilesWith('nodes', /\$runIndex/)).toEqual([]);
		expect(words).toContain('No node of n8n-nodes-base reads it');
		expect(nodesBaseFilesWith('nodes', /retryOnFail/)).toEqual([]);
		expect(words).toContain('no node of n8n-nodes-base takes `sleep` from n8n-workflow');
		expect(nodesBaseFilesWith('nodes', /n8n_workflow_1\.sleep\b/)).toEqual([]);
		expect(words).toContain('n8n-workflow exports that same function');
		const workflowUtils = join(runtime.root, 'node_modules/n8n-workflow/dist/cjs/utils.js');
		expect(readFileSync(workflowUtils, 'utf8')).toMatch(
			/sleep_1 = require\("@n8n\/utils\/sleep"\)[\s\S]*"sleep", \{[^}]*sleep_1\.sleep/,
		);
		expect(words).toContain('which no credential of n8n-nodes-base does');
		expect(nodesBaseFilesWith('credentials', /disableFollowRedirect/)).toEqual([]);
	});
});
