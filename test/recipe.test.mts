/**
 * CONTRIBUTING.md's "Adding an operation", followed as written for Contract → Read: its code
 * blocks (each opens with a comment naming its file) are written into a copy of the node and
 * compiled with the project's tsconfig; its output schema is added for each version; the route is
 * added to the stand-in; and the node so built runs Contract → Read through n8n's engine.
 */
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { INodeType } from 'n8n-workflow';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, registerNodeType, runWorkflow } from './engine/n8n-engine.mts';
import { credentialsFor, seedClient, useStandIn } from './helpers.mts';
import { ApiError } from './service/routes.mts';
import type { JsonObject, Route } from './service/stand-in.mts';

const RECIPE_NODE_TYPE = 'recipeContractSigning';

/** The section of CONTRIBUTING.md, from its heading to the next. */
function recipe(): string {
	const text = readFileSync(join(PACKAGE_ROOT, 'CONTRIBUTING.md'), 'utf8');
	const start = text.indexOf('## Adding an operation');
	if (start < 0) throw new Error('CONTRIBUTING.md has no section "Adding an operation"');
	const end = text.indexOf('\n## ', start + 1);
	return text.slice(start, end < 0 ? undefined : end);
}

/** The recipe's code blocks, by the file their first line names, without the list's indent. */
function codeBlocks(section: string): Map<string, string> {
	const blocks = new Map<string, string>();
	for (const [, indent, body] of section.matchAll(/^([ \t]*)```ts\n([\s\S]*?)^\1```/gm)) {
		const lines = body.split('\n').map((line) => line.slice(indent.length));
		const file = /^\/\/ (\S+\.ts)$/.exec(lines[0])?.[1];
		if (!file) throw new Error(`a code block of the recipe does not name its file: ${lines[0]}`);
		blocks.set(file, lines.join('\n'));
	}
	return blocks;
}

/** Compiles the copy of the package with its own tsconfig; the compiler's errors, if any. */
function compile(root: string): string[] {
	const configFile = join(root, 'tsconfig.json');
	const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
	const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
	const program = ts.createProgram(parsed.fileNames, { ...parsed.options, incremental: false });
	const emitted = program.emit();
	return ts
		.getPreEmitDiagnostics(program)
		.concat(emitted.diagnostics)
		.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

/** Contract → Read at the stand-in: the contract of that client with that key. */
function contractReadRoute(
	contracts: () => Array<{ contractKey: string; clientKey: string }>,
): Route {
	return {
		path: '/v1/contract',
		action: 'read',
		handle: (data: JsonObject) => {
			const contractKey = (data.contract as JsonObject | undefined)?.contractKey;
			const found = contracts().find(
				(contract) => contract.clientKey === data.clientKey && contract.contractKey === contractKey,
			);
			if (!found) throw new ApiError(404, 'Contract not found');
			return { status: 200, message: 'Contract found', resourceName: 'contract', resource: found };
		},
		success: {
			status: 200,
			message: 'Contract found',
			resourceName: 'contract',
			sample: () => ({ contractKey: 'ctr_sample' }),
		},
	};
}

const service = useStandIn();
let copy: string;
let blocks: Map<string, string>;
let compileErrors: string[];

beforeAll(() => {
	blocks = codeBlocks(recipe());
	copy = mkdtempSync(join(tmpdir(), 'contract-signing-recipe-'));
	for (const entry of ['nodes', 'credentials', 'tsconfig.json', 'package.json']) {
		cpSync(join(PACKAGE_ROOT, entry), join(copy, entry), { recursive: true });
	}
	symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
	for (const [file, code] of blocks) {
		mkdirSync(dirname(join(copy, file)), { recursive: true });
		writeFileSync(join(copy, file), code);
	}
	// Step 3: the output schema.
	const folder = join(copy, 'nodes/ContractSigning/__schema__/v1.0.0/contract');
	writeFileSync(join(folder, 'read.json'), readFileSync(join(folder, 'create.json'), 'utf8'));
	compileErrors = compile(copy);
	if (compileErrors.length === 0) {
		const require = createRequire(join(copy, 'dist/'));
		const { ContractSigning } = require('./nodes/ContractSigning/ContractSigning.node.js') as {
			ContractSigning: new () => INodeType;
		};
		const node = new ContractSigning();
		node.description = { ...node.description, name: RECIPE_NODE_TYPE };
		registerNodeType(node);
	}
}, 60_000);

afterAll(() => {
	if (copy) rmSync(copy, { recursive: true, force: true });
});

async function readContract(parameters: JsonObject) {
	const run = await runWorkflow(
		[
			{
				name: 'Read Contract',
				type: RECIPE_NODE_TYPE,
				parameters: { resource: 'contract', operation: 'read', ...parameters },
			},
		],
		{ credentials: credentialsFor(service()) },
	);
	return { ...run, items: (run.outputs('Read Contract')[0] ?? []).map((item) => item.json) };
}

describe("CONTRIBUTING's recipe for a new operation, followed for Contract → Read", () => {
	it('names the files of its code blocks, which compile into the node as written', () => {
		expect([...blocks.keys()].sort()).toEqual([
			'nodes/ContractSigning/resources/contract/index.ts',
			'nodes/ContractSigning/resources/contract/read.ts',
		]);
		expect(compileErrors).toEqual([]);
	});

	it('reads a contract through n8n’s engine: the envelope on the wire, the contract out', async () => {
		service().addRoute(contractReadRoute(() => service().contracts()));
		const { clientKey } = await seedClient(service());
		const created = await fetch(`${service().url}/v1/contract`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-Service-Key': service().apiKey },
			body: JSON.stringify({ data: { action: 'create', clientKey, contract: { name: 'NDA' } } }),
		});
		const { contract } = (await created.json()) as { contract: { contractKey: string } };
		service().requests.length = 0;

		const { items, error } = await readContract({
			clientKey,
			contractKey: ` ${contract.contractKey} `,
		});

		expect(error).toBeUndefined();
		expect(service().requests.map((request) => request.body)).toEqual([
			{ data: { action: 'read', clientKey, contract: { contractKey: contract.contractKey } } },
		]);
		expect(items).toEqual([
			expect.objectContaining({ contractKey: contract.contractKey, clientKey, name: 'NDA' }),
		]);
	});

	it('refuses a Contract Key that is empty once evaluated, before sending, and gives its 404 hint', async () => {
		service().addRoute(contractReadRoute(() => service().contracts()));
		const { clientKey } = await seedClient(service());

		const empty = await readContract({ clientKey, contractKey: "={{ '' }}" });
		expect(service().requests).toHaveLength(0);
		expect(empty.error?.message).toBe("'Contract Key' is empty");
		expect(empty.error?.description).toBe('Enter the key of the contract to read.');

		const unknown = await readContract({ clientKey, contractKey: 'ctr_unknown' });
		expect(unknown.error?.message).toBe('Contract not found');
		expect(unknown.error?.description).toBe(
			'Check the Client Key and Contract Key: the service does not know one of them.',
		);
	});
});
