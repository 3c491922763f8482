/**
 * CONTRIBUTING.md's "Adding an operation", followed as written for Contract → Read: its code
 * blocks (each opens with a comment naming its file) are written into a copy of the node, a `ts`
 * block as the whole file, a `diff` block as lines added to the file, and the copy is compiled
 * with the project's tsconfig; its output schema is added for each version; the route is added to
 * the stand-in; and the node so built runs Contract → Read through n8n's engine.
 */
import {
	cpSync,
	existsSync,
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

interface CodeBlock {
	/** `ts`: the whole file; `diff`: lines to add to it. */
	kind: 'ts' | 'diff';
	code: string;
}

/** The recipe's code blocks, by the file their first line names, without the list's indent. */
function codeBlocks(section: string): Map<string, CodeBlock> {
	const blocks = new Map<string, CodeBlock>();
	for (const [, indent, kind, body] of section.matchAll(
		/^([ \t]*)```(ts|diff)\n([\s\S]*?)^\1```/gm,
	)) {
		const lines = body.split('\n').map((line) => line.slice(indent.length));
		const file = /^\/\/ (\S+\.ts)$/.exec(lines[0])?.[1];
		if (!file) throw new Error(`a code block of the recipe does not name its file: ${lines[0]}`);
		const code = kind === 'ts' ? lines.join('\n') : lines.slice(1).join('\n');
		blocks.set(file, { kind: kind as CodeBlock['kind'], code });
	}
	return blocks;
}

/**
 * The file with a diff block's lines added: each ` ` line must be the file's next line of that
 * text (it says where), each `+` line is added after the line before it.
 */
function applyDiff(file: string, diff: string): string {
	const lines = file.split('\n');
	let at = -1;
	for (const line of diff.split('\n').filter((text) => text.trim() !== '')) {
		const text = line.slice(1);
		if (line.startsWith('+')) {
			lines.splice(++at, 0, text);
		} else if (line.startsWith(' ')) {
			const found = lines.indexOf(text, at + 1);
			if (found < 0)
				throw new Error(`the recipe's diff names a line the file does not have: ${text}`);
			at = found;
		} else {
			throw new Error(`a line of the recipe's diff is neither " " nor "+": ${line}`);
		}
	}
	return lines.join('\n');
}

/** The lines of `file` that `whole`, a new version of it, does not keep in their order. */
function linesLost(file: string, whole: string): string[] {
	const kept = whole.split('\n');
	let at = 0;
	return file.split('\n').filter((line) => {
		const found = kept.indexOf(line, at);
		if (found < 0) return true;
		at = found + 1;
		return false;
	});
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
let blocks: Map<string, CodeBlock>;
let compileErrors: string[];

beforeAll(() => {
	blocks = codeBlocks(recipe());
	copy = mkdtempSync(join(tmpdir(), 'contract-signing-recipe-'));
	for (const entry of ['nodes', 'credentials', 'tsconfig.json', 'package.json']) {
		cpSync(join(PACKAGE_ROOT, entry), join(copy, entry), { recursive: true });
	}
	symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
	for (const [file, { kind, code }] of blocks) {
		const path = join(copy, file);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, kind === 'ts' ? code : applyDiff(readFileSync(path, 'utf8'), code));
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
		expect([...blocks].map(([file, { kind }]) => `${kind} ${file}`).sort()).toEqual([
			'diff nodes/ContractSigning/ContractSigning.node.ts',
			'ts nodes/ContractSigning/resources/contract/index.ts',
			'ts nodes/ContractSigning/resources/contract/read.ts',
		]);
		expect(compileErrors).toEqual([]);
	});

	it('writes a file the node has as the node has it, only adding to it', () => {
		for (const [file, { kind, code }] of blocks) {
			if (kind !== 'ts' || !existsSync(join(PACKAGE_ROOT, file))) continue;
			expect(linesLost(readFileSync(join(PACKAGE_ROOT, file), 'utf8'), code), file).toEqual([]);
		}
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
			"Check 'Client Key' and 'Contract Key': the service does not know one of them.",
		);
	});
});
