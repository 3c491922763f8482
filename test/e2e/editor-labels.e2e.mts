/**
 * The n8n labels that test/docs/ui-paths.test.mts checks the texts' "A → B" paths against
 * (test/docs/n8n-editor-labels.json) are the installed n8n's own: its editor's English texts by
 * i18n key, the HTTP Request node's Authentication labels, and the Request Options that n8n adds
 * to every declarative node (on the Settings tab, Timeout in milliseconds, 10000 when added).
 * With CONTRACT_SIGNING_N8N=1.x it checks the table's 1.x column against n8n 1.x.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LABEL_TABLE } from '../docs/n8n-editor-labels.mts';
import { ensureN8n, type N8nRuntime } from './n8n-runtime.mts';

const TABLE = LABEL_TABLE;

let runtime: N8nRuntime;

beforeAll(async () => {
	runtime = await ensureN8n({ log: (line) => process.stdout.write(`${line}\n`) });
});

function installed(...path: string[]): string {
	return join(runtime.root, 'node_modules', ...path);
}

/** A JavaScript string literal in double quotes, as the 1.x bundle writes them. */
function stringLiteral(literal: string): string {
	return JSON.parse(
		literal.replace(
			/[\u0000-\u001f]/g,
			(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
		),
	) as string;
}

/**
 * The editor's English texts. n8n 2.x installs them with @n8n/i18n, whose source map carries
 * src/locales/en.json as it is; n8n 1.x bundles them into the editor as `var en_default = {…}`.
 */
function editorTexts(): Record<string, unknown> {
	const map = installed('@n8n', 'i18n', 'dist', 'index.cjs.map');
	if (existsSync(map)) {
		const { sources, sourcesContent } = JSON.parse(readFileSync(map, 'utf8')) as {
			sources: string[];
			sourcesContent: string[];
		};
		const index = sources.findIndex((source) => source.endsWith('src/locales/en.json'));
		expect(index, `${map} holds src/locales/en.json`).toBeGreaterThanOrEqual(0);
		return JSON.parse(sourcesContent[index]) as Record<string, unknown>;
	}
	const assets = installed('n8n-editor-ui', 'dist', 'assets');
	for (const name of readdirSync(assets).filter(
		(file) => file.endsWith('.js') && !file.includes('-legacy-'),
	)) {
		const bundle = readFileSync(join(assets, name), 'utf8');
		const start = bundle.indexOf('var en_default = {');
		if (start < 0) continue;
		const body = bundle.slice(start, bundle.indexOf('\n};', start));
		const texts: Record<string, unknown> = {};
		for (const [, key, value] of body.matchAll(/^\t"([^"]+)": ("(?:[^"\\]|\\.)*"),?$/gm)) {
			texts[key] = stringLiteral(value);
		}
		// Keys the bundler turned into constants, such as `settings,` for `const settings = "Settings";`.
		for (const [, name] of body.matchAll(/^\t([A-Za-z_$][\w$]*),?$/gm)) {
			const constant = new RegExp(`const ${name} = ("(?:[^"\\\\]|\\\\.)*");`).exec(bundle);
			if (constant) texts[name] = stringLiteral(constant[1]);
		}
		return texts;
	}
	throw new Error(`no English texts of the editor in ${assets}`);
}

describe('the n8n labels the texts’ paths are checked against', () => {
	it('are the installed editor’s own, by i18n key', () => {
		const column = runtime.version;
		const texts = editorTexts();
		const keys = Object.keys(TABLE.labels);
		process.stdout.write(`editor labels: ${keys.length} keys checked in n8n ${column}\n`);
		expect(
			keys.every((key) => column in TABLE.labels[key]),
			`n8n-editor-labels.json has a column for n8n ${column}`,
		).toBe(true);
		const differing = keys
			.filter((key) => (texts[key] ?? null) !== TABLE.labels[key][column])
			.map(
				(key) =>
					`${key}: the table says ${JSON.stringify(TABLE.labels[key][column])}, n8n ${column} says ${JSON.stringify(texts[key] ?? null)}`,
			);
		expect(differing).toEqual([]);
	});

	it('has the HTTP Request node’s Authentication as the table says', () => {
		const node = TABLE.httpRequestNode;
		const description = readFileSync(
			installed('n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'V3', 'Description.js'),
			'utf8',
		);
		const at = description.indexOf(`displayName: '${node.authentication}'`);
		expect(at).toBeGreaterThanOrEqual(0);
		const authentication = description.slice(at);
		for (const option of node.authenticationOptions) {
			expect(authentication).toContain(`name: '${option}'`);
		}
		expect(authentication).toContain(`displayName: '${node.credentialType}'`);
	});

	it('adds Request Options to the node’s Settings tab, with Timeout in milliseconds, 10000 when added', () => {
		const constants = readFileSync(
			installed('n8n-core', 'dist', 'nodes-loader', 'constants.js'),
			'utf8',
		);
		const requestOptions =
			/displayName: 'Request Options',[\s\S]*?\n {4}\],\n\};/.exec(constants)?.[0] ?? '';
		expect(requestOptions).toMatch(/isNodeSetting: true/);
		expect(requestOptions).toMatch(/placeholder: 'Add Option'/);
		for (const option of ['Batching', 'Ignore SSL Issues (Insecure)', 'Proxy', 'Timeout']) {
			expect(requestOptions).toContain(`displayName: '${option}'`);
		}
		expect(requestOptions).toMatch(
			/displayName: 'Timeout',[\s\S]*?default: 10000,\s*description: 'Time in ms /,
		);
	});
});
