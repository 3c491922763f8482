/**
 * docs/examples.md's "Setting up a CRM intake" against the installed n8n's own sources: each label
 * it has the user fill in or pick for Pipedrive, HubSpot and Salesforce is in the CRM's part of the
 * text, in bold, and is a field (or an option of one) of the credential or trigger the text names,
 * as n8n-nodes-base defines them (a credential with the fields of the one it extends), or one of
 * the editor's English texts. The text gives every scope the credential asks the CRM for.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ICredentialType, INodeProperties, INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureN8n, type N8nRuntime } from './n8n-runtime.mts';

const EXAMPLES = readFileSync(new URL('../../docs/examples.md', import.meta.url), 'utf8');

/** The bullet of one CRM under "Setting up a CRM intake", from `- **Name**` to the next bullet. */
function partOf(crm: string): string {
	const setUp = EXAMPLES.slice(EXAMPLES.indexOf('### Setting up a CRM intake'));
	const start = setUp.indexOf(`- **${crm}**`);
	if (start < 0) throw new Error(`docs/examples.md sets up no ${crm}`);
	const next = setUp.slice(start + 1).search(/\n- \*\*|\n[A-Z]/);
	return setUp.slice(start, next < 0 ? undefined : start + 1 + next).replace(/\s+/g, ' ');
}

/** What the text has the user fill in or pick: a label, in the part, and where n8n defines it. */
interface Label {
	label: string;
	/** A credential type's name, a trigger's file under nodes/, or the editor's texts. */
	in: { credential: string } | { trigger: string } | 'editor';
	/** The option of that field the text picks. */
	option?: string;
}

const CRMS: Array<{
	crm: string;
	labels: Label[];
	/** The credential whose Scope the text gives in full. */
	scopes?: string;
}> = [
	{
		crm: 'Pipedrive',
		labels: [
			{ label: 'Pipedrive API', in: { credential: 'pipedriveApi' } },
			{ label: 'API Token', in: { credential: 'pipedriveApi' } },
			{ label: 'Basic Auth', in: { credential: 'httpBasicAuth' } },
			{ label: 'User', in: { credential: 'httpBasicAuth' } },
			{ label: 'Password', in: { credential: 'httpBasicAuth' } },
			{
				label: 'Authentication',
				option: 'API Token',
				in: { trigger: 'Pipedrive/PipedriveTrigger' },
			},
			{
				label: 'Incoming Authentication',
				option: 'Basic Auth',
				in: { trigger: 'Pipedrive/PipedriveTrigger' },
			},
			{ label: 'Action', option: 'All', in: { trigger: 'Pipedrive/PipedriveTrigger' } },
			{ label: 'Entity', option: 'Deal', in: { trigger: 'Pipedrive/PipedriveTrigger' } },
			{ label: 'Production URL', in: 'editor' },
		],
	},
	{
		crm: 'HubSpot',
		labels: [
			{ label: 'HubSpot Developer API', in: { credential: 'hubspotDeveloperApi' } },
			{ label: 'Client ID', in: { credential: 'hubspotDeveloperApi' } },
			{ label: 'Client Secret', in: { credential: 'hubspotDeveloperApi' } },
			{ label: 'APP ID', in: { credential: 'hubspotDeveloperApi' } },
			{ label: 'Developer API Key', in: { credential: 'hubspotDeveloperApi' } },
			{ label: 'HubSpot Service Key', in: { credential: 'hubspotAppToken' } },
			{ label: 'Service Key', in: { credential: 'hubspotAppToken' } },
			{ label: 'OAuth Redirect URL', in: 'editor' },
			{ label: 'Connect my account', in: 'editor' },
		],
		scopes: 'hubspotDeveloperApi',
	},
	{
		crm: 'Salesforce',
		labels: [
			{ label: 'Salesforce OAuth2 API', in: { credential: 'salesforceOAuth2Api' } },
			{
				label: 'Environment Type',
				option: 'Production',
				in: { credential: 'salesforceOAuth2Api' },
			},
			{ label: 'Environment Type', option: 'Sandbox', in: { credential: 'salesforceOAuth2Api' } },
			{ label: 'Client ID', in: { credential: 'salesforceOAuth2Api' } },
			{ label: 'Client Secret', in: { credential: 'salesforceOAuth2Api' } },
			{ label: 'OAuth Redirect URL', in: 'editor' },
			{ label: 'Connect my account', in: 'editor' },
		],
		scopes: 'salesforceOAuth2Api',
	},
];

let runtime: N8nRuntime;
let load: NodeJS.Require;
/** Each credential type of n8n-nodes-base by its name. */
const credentials = new Map<string, ICredentialType>();
let editorTexts: string;

beforeAll(async () => {
	runtime = await ensureN8n({ log: (line) => process.stdout.write(`${line}\n`) });
	const base = join(runtime.root, 'node_modules', 'n8n-nodes-base', 'dist');
	load = createRequire(join(base, 'index.js'));
	for (const file of readdirSync(join(base, 'credentials'))) {
		if (!file.endsWith('.credentials.js')) continue;
		for (const Type of Object.values(load(join(base, 'credentials', file)) as object)) {
			// A credential file exports its class, and some a helper beside it.
			if (typeof Type !== 'function' || !/^class\b/.test(String(Type))) continue;
			const type = new (Type as new () => ICredentialType)();
			if (type.name) credentials.set(type.name, type);
		}
	}
	// n8n 2.x: @n8n/i18n's English texts; n8n 1.x: bundled into the editor.
	const i18n = join(runtime.root, 'node_modules', '@n8n', 'i18n', 'dist');
	const editor = join(runtime.root, 'node_modules', 'n8n-editor-ui', 'dist', 'assets');
	const files = [i18n, editor].flatMap((folder) => {
		try {
			return readdirSync(folder)
				.filter((file) => /\.(c?js|mjs)$/.test(file))
				.map((file) => join(folder, file));
		} catch {
			return [];
		}
	});
	editorTexts = files.map((file) => readFileSync(file, 'utf8')).join('\n');
});

/** A credential type's fields, with those of the types it extends. */
function fieldsOf(name: string): INodeProperties[] {
	const type = credentials.get(name);
	if (!type) throw new Error(`n8n has no credential type ${name}`);
	return [...(type.extends ?? []).flatMap(fieldsOf), ...type.properties];
}

function triggerFields(file: string): INodeProperties[] {
	const base = join(runtime.root, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
	const exported = Object.values(load(join(base, `${file}.node.js`)) as object);
	const node = new (exported[0] as new () => INodeType)();
	return node.description.properties;
}

/** Whether n8n shows the label where the text says, with the option it picks. */
function definedBy({ label, in: where, option }: Label): boolean {
	if (where === 'editor') return editorTexts.includes(label);
	const fields = 'credential' in where ? fieldsOf(where.credential) : triggerFields(where.trigger);
	if ('credential' in where && !option && credentials.get(where.credential)?.displayName === label)
		return true;
	return fields.some(
		(field) =>
			field.displayName === label &&
			(!option || (field.options ?? []).some((each) => 'name' in each && each.name === option)),
	);
}

describe.each(CRMS)("docs/examples.md's $crm set-up", ({ crm, labels, scopes }) => {
	it.each(labels)('names $label as n8n shows it', (label) => {
		const part = partOf(crm);
		expect(part).toContain(`**${label.label}**`);
		if (label.option) expect(part).toContain(label.option);
		expect(definedBy(label), JSON.stringify(label)).toBe(true);
	});

	if (scopes) {
		it(`gives each scope the credential asks ${crm} for`, () => {
			// The credential's own Scope, which stands for the one of the type it extends.
			const scope = fieldsOf(scopes).findLast((field) => field.name === 'scope');
			const asked = String(scope?.default ?? '').split(/\s+/);
			expect(asked.length).toBeGreaterThan(1);
			const given = [...partOf(crm).matchAll(/`([a-z_.]+)`/g)].map((match) => match[1]);
			for (const each of asked) expect(given).toContain(each);
		});
	}
});
