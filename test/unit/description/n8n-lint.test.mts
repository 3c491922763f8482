import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';

const { description } = new ContractSigning();

// The plugin and parser `n8n-node lint` itself loads, resolved from @n8n/node-cli.
const cliRequire = createRequire(createRequire(import.meta.url).resolve('@n8n/node-cli/eslint'));
// With NODE_ENV "test", as under vitest, the plugin takes every file for a trigger node file
// named Test.node.ts: load a fresh copy without it.
for (const id of Object.keys(cliRequire.cache)) {
	if (id.includes('eslint-plugin-n8n-nodes-base')) delete cliRequire.cache[id];
}
const nodeEnv = process.env.NODE_ENV;
process.env.NODE_ENV = 'lint';
const plugin: ESLint.Plugin & { configs: { nodes: Linter.Config } } = cliRequire(
	'eslint-plugin-n8n-nodes-base',
);
process.env.NODE_ENV = nodeEnv;
const parser: Linter.Parser = cliRequire('typescript-eslint').parser;

const excluded = [
	// Turned off for nodes by @n8n/node-cli's own config.
	'node-class-description-inputs-wrong-regular-node',
	'node-class-description-outputs-wrong',
	'node-param-type-options-max-value-present',
	// About the real files' names and folders, not the description.
	'node-dirname-against-convention',
	'node-filename-against-convention',
	'node-resource-description-filename-against-convention',
	// About the source's shape (an execute() body, `as INodeProperties[]`): none in the generated file.
	'node-execute-block-double-assertion-for-items',
	'node-execute-block-error-missing-item-index',
	'node-execute-block-missing-continue-on-fail',
	'node-execute-block-wrong-error-thrown',
	'node-param-array-type-assertion',
].map((rule) => `n8n-nodes-base/${rule}`);
const rules = Object.fromEntries(
	Object.keys(plugin.configs.nodes.rules!)
		.filter((rule) => !excluded.includes(rule))
		.map((rule): [string, Linter.RuleEntry] => [rule, 'error']),
);

// The rules only recognise unquoted keys (`name: 'x'`, not `"name": 'x'`), so not JSON.stringify.
function literal(value: unknown, indent = ''): string {
	const inner = `${indent}\t`;
	if (typeof value === 'function') return JSON.stringify('[function]');
	if (Array.isArray(value)) {
		return `[${value.map((item) => `\n${inner}${literal(item, inner)},`).join('')}\n${indent}]`;
	}
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value).filter(([, item]) => item !== undefined);
		const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
		return `{${entries.map(([name, item]) => `\n${inner}${key(name)}: ${literal(item, inner)},`).join('')}\n${indent}}`;
	}
	return JSON.stringify(value);
}

/** The `displayName`/`name` lines of the object literal a message points into. */
function ownerOf(lines: string[], line: number): string {
	const depth = (text: string) => text.search(/\S/);
	const at = lines[line - 1];
	const keyDepth = depth(at) + (at.trimEnd().endsWith('{') ? 1 : 0);
	let [first, last] = [line - 1, line - 1];
	while (first > 0 && depth(lines[first - 1]) >= keyDepth) first--;
	while (last < lines.length - 1 && depth(lines[last + 1]) >= keyDepth) last++;
	return lines
		.slice(first, last + 1)
		.filter((text) => depth(text) === keyDepth && /^\s*(displayName|name): /.test(text))
		.map((text) => text.trim())
		.join(' ');
}

const root = mkdtempSync(join(tmpdir(), 'contract-signing-n8n-lint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function lint(built: INodeTypeDescription): Promise<string[]> {
	const source = `import type { INodeType, INodeTypeDescription } from 'n8n-workflow';\n\nexport class Generated implements INodeType {\n\tdescription: INodeTypeDescription = ${literal(built, '\t')};\n}\n`;
	const file = join(root, 'nodes', 'Generated', 'Generated.node.ts');
	mkdirSync(join(root, 'nodes', 'Generated'), { recursive: true });
	writeFileSync(file, source);
	const eslint = new ESLint({
		cwd: root,
		overrideConfigFile: true,
		overrideConfig: [
			{
				files: ['nodes/**/*.ts'],
				plugins: { 'n8n-nodes-base': plugin },
				languageOptions: { parser },
				rules,
			},
		],
	});
	const [result] = await eslint.lintFiles([file]);
	const lines = source.split('\n');
	return result.messages.map(({ ruleId, message, line, endLine }) => {
		const text = lines.slice(line - 1, Math.min(endLine ?? line, line + 2)).map((l) => l.trim());
		return `${ruleId}: ${message}\n    in { ${ownerOf(lines, line)} }\n    at ${text.join(' ')}`;
	});
}

describe("n8n's node lint rules, on the built description", () => {
	it('report nothing', async () => {
		const messages = await lint(description);
		expect(messages.join('\n'), `${messages.length} lint messages`).toBe('');
	});

	it('report an action not in sentence case (the harness can fail)', async () => {
		const selector = description.properties.find((property) => property.name === 'operation')!;
		const [first, ...others] = selector.options as INodePropertyOptions[];
		const miscased = {
			...selector,
			options: [{ ...first, action: 'Create New Client' }, ...others],
		};
		const properties = description.properties.map((p) => (p === selector ? miscased : p));
		const messages = await lint({ ...description, properties });
		expect(messages.join('\n')).toMatch(
			/^n8n-nodes-base\/node-param-operation-option-action-miscased: .*\n.*\n.*Create New Client/m,
		);
	});
});
