/**
 * n8n's UX guidelines, where text can be checked: the words of every message, the jargon of the
 * panel and the credential, how actions are written, the order of optional fields, Simplify.
 * n8n's own description rules run over the same panel in n8n-lint.test.mts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ContractSigningApi } from '../../../credentials/ContractSigningApi.credentials';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';

const ROOT = new URL('../../../', import.meta.url).pathname;
const { description } = new ContractSigning();
const credential = new ContractSigningApi();

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every piece of text the node's and the credential's code hold, but module paths. */
function textsOf(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const texts: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node)) return;
		if (ts.isStringLiteral(node) || ts.isTemplateLiteralToken(node)) texts.push(node.text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return texts;
}

/** Each field of the panel and the credential, with the fields inside its collections. */
function fieldsOf(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const inner = (property.options ?? []).flatMap((option) =>
			'values' in option
				? fieldsOf((option as INodePropertyCollection).values)
				: 'type' in option
					? fieldsOf([option as INodeProperties])
					: [],
		);
		return [property, ...inner];
	});
}

const fields = fieldsOf([...description.properties, ...credential.properties]);

/** What the user reads on the panel: labels, descriptions, hints, placeholders, option texts. */
const panelTexts = fields.flatMap((field) => [
	field.displayName,
	field.description,
	field.hint,
	field.placeholder,
	...(field.options ?? []).flatMap((option) => [
		(option as INodePropertyOptions).description,
		(option as INodePropertyOptions).action,
	]),
]);

const operations = description.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) => property.options as INodePropertyOptions[]);

describe('n8n’s UX guidelines', () => {
	it('no message of the node or the credential speaks of an error, a problem, a failure or a mistake', () => {
		const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
		const offending = files.flatMap((file) =>
			textsOf(file)
				.filter((text) => /\b(errors?|problems?|failures?|mistakes?)\b/i.test(text))
				.map((text) => `${file.slice(ROOT.length)}: ${text}`),
		);
		expect(offending).toEqual([]);
	});

	it('no status codes, header names or HTTP in labels, descriptions, hints and placeholders', () => {
		const jargon = panelTexts.filter(
			(text) => text !== undefined && /\b([45]\d\d|HTTP|headers?|X-[A-Za-z-]+)\b/i.test(text),
		);
		expect(jargon).toEqual([]);
	});

	it('the placeholder of every text field but a secret starts with "e.g."', () => {
		const texts = fields.filter(
			(field) => (field.type === 'string' || field.type === 'json') && !field.typeOptions?.password,
		);
		const without = texts.filter((field) => !field.placeholder?.startsWith('e.g. '));
		expect(without.map((field) => field.displayName)).toEqual([]);
	});

	it('actions are in sentence case and name their resource with its article, as n8n’s own nodes do ("Create a user")', () => {
		const actions = operations.map(({ action }) => action);
		expect(actions).toEqual(['Create a client', 'Create a contract', 'Get a user']);
	});

	it('the options of every collection are in alphabetical order', () => {
		const collections = fields.filter((field) => field.type === 'collection');
		expect(collections.length).toBeGreaterThan(0);
		for (const { displayName, options } of collections) {
			const names = (options as INodeProperties[]).map((option) => option.displayName);
			expect(names, displayName).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	it('optional fields of Contract → Create are in its Additional Fields', () => {
		const shown = description.properties.filter(
			(property) =>
				property.displayOptions?.show?.resource?.includes('contract') &&
				property.displayOptions.show.operation?.includes('create'),
		);
		const topLevel = shown.filter((property) => property.type !== 'collection');
		expect(topLevel.every((property) => property.required)).toBe(true);
		const additional = shown.find((property) => property.name === 'additionalFields');
		expect((additional?.options as INodeProperties[]).map((option) => option.displayName)).toEqual([
			'Template Key',
			'User Key',
		]);
	});

	it('Simplify is named and worded as n8n’s own', () => {
		expect(fields.find((field) => field.displayName === 'Simplify')).toMatchObject({
			name: 'simple',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
		});
	});
});

describe('texts a non-developer reads at a glance', () => {
	/** The service's names for its fields, as they stand in the requests and replies. */
	const API_IDENTIFIER = /\b[a-z]+[A-Z][A-Za-z]*\b/;

	it('every description and hint of the panel is one or two short sentences', () => {
		const texts = fields.flatMap((field) => [
			field.description,
			field.hint,
			...(field.options ?? []).map((option) => (option as INodePropertyOptions).description),
		]);
		const long = texts.filter(
			(text): text is string =>
				text !== undefined &&
				(text.length > 160 || text.split(/[.!?](\s|$)/).filter((part) => part?.trim()).length > 2),
		);
		expect(long).toEqual([]);
	});

	it('actions and operation descriptions are in the user’s words, not the API’s field names', () => {
		const texts = operations.flatMap(({ action, description }) => [action, description]);
		expect(texts.filter((text) => text !== undefined && API_IDENTIFIER.test(text))).toEqual([]);
	});

	it('messages name the fields of the panel in single quotes', () => {
		const labels = [...new Set(fields.map((field) => field.displayName))].filter(
			(label) => label.length > 1 && !label.includes(' → ') && label.split(' ').length <= 3,
		);
		const files = [
			...sourceFiles(join(ROOT, 'nodes', 'ContractSigning', 'resources')),
			...sourceFiles(join(ROOT, 'nodes', 'ContractSigning', 'shared')),
			join(ROOT, 'credentials', 'ContractSigningApi.credentials.ts'),
		];
		const messages = files
			.flatMap(textsOf)
			.filter((text) => /(^|\. )(Fill in|Check|Enter|Paste|There is|No user)\b/.test(text));
		expect(messages.length).toBeGreaterThan(3);
		const unquoted = messages.filter((text) =>
			labels.some((label) =>
				new RegExp(`(^|[^'\\w])${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^'\\w]|$)`).test(
					text,
				),
			),
		);
		expect(unquoted).toEqual([]);
	});
});
