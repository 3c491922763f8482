/**
 * Every "A → B" path that the README, docs/*.md, the example workflows' notes and the node's own
 * messages give a user to click exists where it says: in the node's panel as n8n shows a node
 * added today (its parameters, and its Settings tab with the Request Options n8n adds to every
 * declarative node), in the Contract Signing API credential, in n8n's main menu and a workflow's
 * menu, in the HTTP Request node, and in the example workflows' steps. n8n's own labels come from
 * n8n-editor-labels.json, by their i18n key in n8n 2.41.1 (test/e2e/editor-labels.e2e.mts checks
 * that table against the installed n8n); the node's come from its build, loaded as n8n loads it.
 *
 * How a path is found: in markdown, a bold span (`**…**`) with an arrow is one path, whole;
 * outside code, any other arrow starts a path of the longest labels the places know on either
 * side (so "allow more under Options → Max Retries When Busy now" reads as the path "Options →
 * Max Retries When Busy"). Each step must name a place inside the one before; the first may be
 * any place. Labels match as n8n writes them, letter case included. An arrow that is not a path
 * is in ALLOWED below, with its reason.
 * Code (fenced and inline), HTML comments and the workflows' names are not read.
 *
 * And a text that tells the user to raise the Timeout gives a value that raises it: Timeout
 * counts milliseconds and is 10000 as soon as it is added, while without it the node waits
 * 300000 ms.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
	ICredentialType,
	IDisplayOptions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPE, loadPackage, PACKAGE_ROOT } from '../engine/n8n-engine.mts';
import { LABEL_TABLE } from './n8n-editor-labels.mts';

/** The n8n whose editor the texts describe; the table's other column is for the e2e check. */
const N8N = '2.41.1';
/** How long the node waits for a reply when Settings → Request Options → Timeout is not set. */
const WAIT_WITHOUT_TIMEOUT_MS = 300_000;
const TIMEOUT_PLACE = 'node/settings/requestOptions/timeout';
/** The labels on the way there: the node's Settings tab, n8n's Request Options, its Timeout. */
const TIMEOUT_LABELS = ['Settings', 'Request Options', 'Timeout'];

/** Arrows that are not a path to click, each with why. `text` is the arrow in its words. */
const ALLOWED: { file: string; text: string; reason: string }[] = [];

// ---------------------------------------------------------------------------------------------
// The places a path can name
// ---------------------------------------------------------------------------------------------

interface Place {
	id: string;
	label: string;
	aliases: string[];
	children: Place[];
}

function place(id: string, label: string, children: Place[] = [], aliases: string[] = []): Place {
	return { id, label, children, aliases };
}

const TABLE = LABEL_TABLE;

/** n8n's label for an i18n key, as n8n 2.41.1 shows it. */
function n8nLabel(key: string): string {
	const label = TABLE.labels[key]?.[N8N];
	if (!label) throw new Error(`n8n-editor-labels.json has no label for ${key} in n8n ${N8N}`);
	return label;
}

/** Whether a property shows on a node of this version (`displayOptions` on `@version`). */
function shownAt(displayOptions: IDisplayOptions | undefined, version: number): boolean {
	const matches = (condition: unknown): boolean => {
		if (typeof condition === 'number') return condition === version;
		const test = (condition as { _cnd?: Record<string, unknown> } | null)?._cnd ?? {};
		return Object.entries(test).every(([operator, value]) => {
			const bounds = value as { from: number; to: number };
			return {
				eq: version === value,
				not: version !== value,
				gte: version >= (value as number),
				lte: version <= (value as number),
				gt: version > (value as number),
				lt: version < (value as number),
				between: version >= bounds.from && version <= bounds.to,
			}[operator];
		});
	};
	const show = displayOptions?.show?.['@version'];
	const hide = displayOptions?.hide?.['@version'];
	return (!show || show.some(matches)) && !(hide ?? []).some(matches);
}

/** A collection's options, also behind its "Add …" button: both are how users name them. */
function behindButton(id: string, button: string | undefined, children: Place[]): Place[] {
	return button ? [place(`${id}/+`, button, children), ...children] : children;
}

function propertyPlaces(parentId: string, properties: INodeProperties[], version: number): Place[] {
	return properties
		.filter((property) => property.type !== 'notice' && property.type !== 'hidden')
		.filter((property) => shownAt(property.displayOptions, version))
		.map((property) => propertyPlace(parentId, property, version));
}

function propertyPlace(parentId: string, property: INodeProperties, version: number): Place {
	const id = `${parentId}/${property.name}`;
	const options = property.options ?? [];
	let children: Place[] = [];
	if (property.type === 'options' || property.type === 'multiOptions') {
		children = (options as INodePropertyOptions[]).map((option) =>
			place(`${id}/${String(option.value)}`, option.name),
		);
	} else if (property.type === 'collection') {
		children = behindButton(
			id,
			property.placeholder,
			propertyPlaces(id, options as INodeProperties[], version),
		);
	} else if (property.type === 'fixedCollection') {
		const groups = (options as INodePropertyCollection[]).map((group) =>
			place(
				`${id}/${group.name}`,
				group.displayName,
				propertyPlaces(`${id}/${group.name}`, group.values, version),
			),
		);
		children = behindButton(id, property.placeholder, [
			...groups,
			...groups.flatMap((group) => group.children),
		]);
	}
	return place(id, property.displayName, children);
}

/** The settings n8n gives every node, on its Settings tab. */
function n8nNodeSettings(): Place[] {
	const id = 'node/settings';
	return [
		place(`${id}/alwaysOutputData`, n8nLabel('nodeSettings.alwaysOutputData.displayName')),
		place(`${id}/executeOnce`, n8nLabel('nodeSettings.executeOnce.displayName')),
		place(`${id}/retryOnFail`, n8nLabel('nodeSettings.retryOnFail.displayName'), [
			place(`${id}/maxTries`, n8nLabel('nodeSettings.maxTries.displayName')),
			place(`${id}/waitBetweenTries`, n8nLabel('nodeSettings.waitBetweenTries.displayName')),
		]),
		place(
			`${id}/onError`,
			n8nLabel('nodeSettings.onError.displayName'),
			['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'].map((option) =>
				place(
					`${id}/onError/${option}`,
					n8nLabel(`nodeSettings.onError.options.${option}.displayName`),
				),
			),
		),
		place(`${id}/notes`, n8nLabel('nodeSettings.notes.displayName')),
		place(`${id}/notesInFlow`, n8nLabel('nodeSettings.notesInFlow.displayName')),
	];
}

/** The node's panel at a version: its Parameters and Settings tabs, each resource with its operations. */
function nodePanel(description: INodeTypeDescription, version: number): Place[] {
	const properties = description.properties.filter((property) =>
		shownAt(property.displayOptions, version),
	);
	const parameters = place(
		'node/parameters',
		n8nLabel('nodeSettings.parameters'),
		propertyPlaces(
			'node',
			properties.filter((property) => !property.isNodeSetting),
			version,
		),
	);
	const settings = place('node/settings', n8nLabel('nodeSettings.settings'), [
		...propertyPlaces(
			'node/settings',
			properties.filter((property) => property.isNodeSetting),
			version,
		),
		...n8nNodeSettings(),
	]);
	const resource = properties.find((property) => property.name === 'resource');
	const operations = properties.filter((property) => property.name === 'operation');
	const resources = ((resource?.options ?? []) as INodePropertyOptions[]).map((option) =>
		place(
			`node/resource/${String(option.value)}`,
			option.name,
			operations
				.filter((operation) =>
					(operation.displayOptions?.show?.resource ?? []).includes(option.value),
				)
				.flatMap((operation) => operation.options as INodePropertyOptions[])
				.map((operation) =>
					place(`node/resource/${String(option.value)}/${String(operation.value)}`, operation.name),
				),
			// "Contract Signing: Client → Create", as the nodes panel names the node's actions.
			[`${description.displayName}: ${option.name}`],
		),
	);
	return [parameters, settings, ...resources];
}

/** n8n 2.41.1's main menu (the "+" menu, Overview, Personal, Settings, Help), a workflow's menu and Publish. */
function n8nMenus(credential: Place): Place[] {
	const createWorkflow = place('menu/createWorkflow', n8nLabel('projects.header.create.workflow'));
	const createCredential = place(
		'menu/createCredential',
		n8nLabel('projects.header.create.credential'),
		[
			credential,
			place('menu/createCredential/continue', n8nLabel('credentialSelectModal.continue')),
		],
	);
	const createDataTable = place('menu/createDataTable', n8nLabel('dataTable.add.button.label'));
	const project = (id: string, key: string) =>
		place(id, n8nLabel(key), [
			place(`${id}/workflows`, n8nLabel('mainSidebar.workflows'), [createWorkflow]),
			place(`${id}/credentials`, n8nLabel('mainSidebar.credentials'), [createCredential]),
			place(`${id}/executions`, n8nLabel('mainSidebar.executions')),
			place(`${id}/variables`, n8nLabel('mainSidebar.variables')),
			place(`${id}/dataTables`, n8nLabel('dataTable.dataTables'), [createDataTable]),
			// The header's button, whose menu holds the other "Create …" of every tab.
			createWorkflow,
			createCredential,
			createDataTable,
		]);
	// The "+" at the top of the sidebar (an icon; "Add new item" to screen readers).
	const add = place(
		'menu/add',
		'+',
		[
			place('menu/add/workflow', n8nLabel('projects.menu.create.workflow')),
			place('menu/add/credential', n8nLabel('projects.menu.create.credential'), [credential]),
			place('menu/add/dataTable', n8nLabel('projects.menu.create.dataTable')),
		],
		['Add new item'],
	);
	const settings = place('menu/settings', n8nLabel('mainSidebar.settings'), [
		place('menu/settings/communityNodes', n8nLabel('settings.communityNodes'), [
			place(
				'menu/settings/communityNodes/install',
				n8nLabel('settings.communityNodes.installModal.installButton.label'),
			),
			place(
				'menu/settings/communityNodes/installFirst',
				n8nLabel('settings.communityNodes.empty.installPackageLabel'),
			),
		]),
	]);
	const help = place('menu/help', n8nLabel('mainSidebar.help'), [
		place('menu/help/about', n8nLabel('mainSidebar.aboutN8n')),
	]);
	// A workflow's "…" menu, at the top right of the canvas (an icon, no label).
	const workflowMenu = place(
		'workflow/menu',
		'…',
		[
			place('workflow/menu/import', n8nLabel('menuActions.import'), [
				place('workflow/menu/import/file', n8nLabel('menuActions.importFromFile')),
				place('workflow/menu/import/url', n8nLabel('menuActions.importFromUrl')),
			]),
			place('workflow/menu/settings', n8nLabel('generic.settings')),
		],
		['...', '⋯'],
	);
	return [
		add,
		project('menu/overview', 'projects.menu.overview'),
		project('menu/personal', 'projects.menu.personal'),
		settings,
		help,
		workflowMenu,
		place('workflow/publish', n8nLabel('workflows.publish')),
	];
}

function httpRequestNode(credential: Place): Place {
	const node = TABLE.httpRequestNode;
	const id = 'httpRequest/authentication';
	return place('httpRequest', node.displayName, [
		place(
			id,
			node.authentication,
			node.authenticationOptions.map((option) =>
				option === node.predefinedCredentialType
					? place(`${id}/predefined`, option, [
							place(`${id}/predefined/type`, node.credentialType, [credential]),
							credential,
						])
					: place(`${id}/${option}`, option),
			),
		),
	]);
}

interface ExampleNode {
	name: string;
	type: string;
	typeVersion?: number;
	notes?: string;
	parameters?: { resource?: string; operation?: string; content?: string };
}

function exampleFiles(): { file: string; raw: string; nodes: ExampleNode[] }[] {
	return readdirSync(join(PACKAGE_ROOT, 'examples'))
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const raw = readFileSync(join(PACKAGE_ROOT, 'examples', name), 'utf8');
			return {
				file: `examples/${name}`,
				raw,
				nodes: (JSON.parse(raw) as { nodes: ExampleNode[] }).nodes,
			};
		});
}

/** "contact" → "Contact", "getAll" → "Get All": how n8n's nodes name most of their values. */
function shownAs(value: string): string {
	const words = value.replace(/([a-z])([A-Z])/g, '$1 $2');
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Each step of the example workflows, by its name: the fields it sets; for this node, its panel at
 * the step's version; for another node, its resource and operation (as "Contact → Get").
 */
function exampleSteps(panelAt: (version: number) => Place[]): Place[] {
	const steps: Place[] = [];
	for (const { file, nodes } of exampleFiles()) {
		for (const node of nodes) {
			const id = `example/${file}/${node.name}`;
			const names = new Set<string>();
			const collect = (value: unknown) => {
				if (Array.isArray(value)) value.forEach(collect);
				else if (value && typeof value === 'object') {
					for (const [key, inner] of Object.entries(value)) {
						if (!key.startsWith('__')) names.add(key);
						if (['name', 'displayName', 'keyName'].includes(key) && typeof inner === 'string') {
							names.add(inner);
						}
						collect(inner);
					}
				}
			};
			collect(node.parameters);
			const children = [...names].map((name) => place(`${id}/${name}`, name));
			const { resource, operation } = node.parameters ?? {};
			if (node.type.endsWith('.contractSigning')) {
				const panel = panelAt(node.typeVersion ?? 1);
				children.push(...panel, ...panel.flatMap((tab) => tab.children));
			} else if (resource) {
				children.push(
					place(
						`${id}/resource`,
						shownAs(resource),
						operation ? [place(`${id}/operation`, shownAs(operation))] : [],
					),
				);
			}
			steps.push(place(id, node.name, children));
		}
	}
	return steps;
}

// ---------------------------------------------------------------------------------------------
// Resolving a path
// ---------------------------------------------------------------------------------------------

function normalise(text: string): string {
	const plain = text.replace(/\s+/g, ' ').replace(/’/g, "'").trim();
	return plain.replace(/\s*(\.\.\.|…)$/, '') || plain;
}

class Places {
	private readonly byLabel = new Map<string, Place[]>();

	constructor(roots: Place[]) {
		const seen = new Set<Place>();
		const visit = (found: Place) => {
			if (seen.has(found)) return;
			seen.add(found);
			for (const label of [found.label, ...found.aliases]) {
				const key = normalise(label);
				this.byLabel.set(key, [...(this.byLabel.get(key) ?? []), found]);
			}
			found.children.forEach(visit);
		};
		roots.forEach(visit);
	}

	/** The places a path may start at: any place of that label. */
	start(segment: string): Place[] {
		return this.matching(segment, (label) => this.byLabel.get(label) ?? []);
	}

	/** The places of that label inside any of `from`. */
	next(from: Place[], segment: string): Place[] {
		return this.matching(segment, (label) =>
			from.flatMap((parent) =>
				parent.children.filter((child) =>
					[child.label, ...child.aliases].some((name) => normalise(name) === label),
				),
			),
		);
	}

	/** "Max Retries / Max Wait (Seconds)": each of the alternatives must be there. */
	private matching(segment: string, find: (label: string) => Place[]): Place[] {
		const whole = find(normalise(segment));
		if (whole.length > 0 || !segment.includes(' / ')) return [...new Set(whole)];
		const each = segment.split(' / ').map((part) => find(normalise(part)));
		return each.every((found) => found.length > 0) ? [...new Set(each.flat())] : [];
	}
}

function describeAt(from: Place[]): string {
	const labels = [...new Set(from.map((parent) => `"${parent.label}"`))].join(' / ');
	const inside = [
		...new Set(from.flatMap((parent) => parent.children.map((child) => child.label))),
	];
	const has = inside.length > 0 ? inside.map((label) => `"${label}"`).join(', ') : 'nothing';
	return `${labels}, which has ${has}`;
}

// ---------------------------------------------------------------------------------------------
// Finding the paths in the texts
// ---------------------------------------------------------------------------------------------

interface Source {
	file: string;
	/** The text as searched: code blanked out in markdown, `${…}` for a template's values. */
	text: string;
	line: (offset: number) => number;
	markdown: boolean;
}

interface FoundPath {
	file: string;
	line: number;
	/** Where its first arrow is in its source's text. */
	arrow: number;
	/** The path as read, "A → B → C"; for one that does not resolve, the words around its arrow. */
	path: string;
	bold: boolean;
	places: Place[];
	problem?: string;
	allowed?: (typeof ALLOWED)[number];
	/** The sentence (or table cell) the path is in. */
	sentence: string;
	/** For a node's message, the version of the node it is there in, when not the default. */
	version?: number;
	/** For a path that is not there in a node added now, the version of the node it is in. */
	onlyAt?: number;
}

function lineCounter(text: string, firstLine = 1) {
	return (offset: number) => firstLine + (text.slice(0, offset).match(/\n/g)?.length ?? 0);
}

function markdownSource(file: string): Source {
	const raw = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
	const text = raw
		.replace(/^ *```[^\n]*\n[\s\S]*?^ *```/gm, (block) => block.replace(/[^\n]/g, ' '))
		.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '))
		.replace(/`[^`\n]+`/g, '⟨code⟩')
		.replace(/\]\([^)\s]*\)/g, ']');
	return { file, text, line: lineCounter(text), markdown: true };
}

/** The string literals of a TypeScript file that contain an arrow, each a source of its own. */
function stringSources(file: string): Source[] {
	const path = join(PACKAGE_ROOT, file);
	const sourceFile = ts.createSourceFile(
		path,
		readFileSync(path, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const sources: Source[] = [];
	const visit = (node: ts.Node) => {
		let text: string | undefined;
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
		else if (ts.isTemplateExpression(node)) {
			text =
				node.head.text + node.templateSpans.map((span) => `\${…}${span.literal.text}`).join('');
		}
		if (text?.includes('→')) {
			const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
			sources.push({ file, text, line: lineCounter(text, line + 1), markdown: false });
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return sources;
}

/** The notes on the example workflows' steps and their sticky notes (not the workflows' names). */
function exampleNoteSources(): Source[] {
	const sources: Source[] = [];
	for (const { file, raw, nodes } of exampleFiles()) {
		for (const node of nodes) {
			const note = node.type.endsWith('.stickyNote') ? node.parameters?.content : node.notes;
			if (!note?.includes('→')) continue;
			const at = Math.max(raw.indexOf(JSON.stringify(note).slice(1, 40)), 0);
			sources.push({
				file,
				text: note,
				line: lineCounter(note, lineCounter(raw)(at)),
				markdown: false,
			});
		}
	}
	return sources;
}

function filesUnder(folder: string, suffix: string): string[] {
	return readdirSync(join(PACKAGE_ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith(suffix))
		.map((name) => `${folder}/${name}`)
		.sort();
}

function allSources(): Source[] {
	return [
		markdownSource('README.md'),
		...filesUnder('docs', '.md').map(markdownSource),
		...exampleNoteSources(),
		...[...filesUnder('nodes/ContractSigning', '.ts'), ...filesUnder('credentials', '.ts')].flatMap(
			stringSources,
		),
	];
}

/** The most words a label has, so how far from an arrow a path in running text is looked for. */
const MAX_WORDS = 8;
/** What a path in running text does not reach across. */
const BOUNDARIES = ['\n\n', '|', '**', '→'];

/** Where the words of a path around the arrow at `at` can reach. */
function bounds(text: string, at: number): { from: number; to: number } {
	const before = text.slice(0, at);
	const from = Math.max(
		0,
		...BOUNDARIES.map((mark) => {
			const index = before.lastIndexOf(mark);
			return index < 0 ? 0 : index + mark.length;
		}),
	);
	const after = text.slice(at + 1);
	const ends = BOUNDARIES.map((mark) => after.indexOf(mark)).filter((index) => index >= 0);
	return { from, to: at + 1 + (ends.length > 0 ? Math.min(...ends) : after.length) };
}

/** The table cell, or else the sentence, that the offset `at` is in. */
function sentenceAt(source: Source, at: number): string {
	const { text, markdown } = source;
	const lineStart = text.lastIndexOf('\n', at) + 1;
	const lineEnd = text.indexOf('\n', at) === -1 ? text.length : text.indexOf('\n', at);
	if (markdown && text.slice(lineStart, lineEnd).trimStart().startsWith('|')) {
		const cellEnd = text.indexOf('|', at);
		return text.slice(text.lastIndexOf('|', at) + 1, cellEnd === -1 ? lineEnd : cellEnd).trim();
	}
	const paragraphStart = markdown ? text.lastIndexOf('\n\n', at) + 1 : 0;
	const paragraphEnd =
		markdown && text.indexOf('\n\n', at) !== -1 ? text.indexOf('\n\n', at) : text.length;
	let start = paragraphStart;
	for (const sentence of text
		.slice(paragraphStart, paragraphEnd)
		.split(/(?<=[.!?])\s+(?=[A-Z_*])/)) {
		start = text.indexOf(sentence, start);
		if (at >= start && at < start + sentence.length) return sentence.replace(/\s+/g, ' ').trim();
		start += sentence.length;
	}
	return text.slice(paragraphStart, paragraphEnd).replace(/\s+/g, ' ').trim();
}

function allowedAt(source: Source, at: number): (typeof ALLOWED)[number] | undefined {
	return ALLOWED.find((entry) => {
		if (entry.file !== source.file) return false;
		const words = entry.text
			.split(/\s+/)
			.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
		return [...source.text.matchAll(new RegExp(words.join('\\s+'), 'g'))].some(
			(match) => at >= match.index && at < match.index + match[0].length,
		);
	});
}

/** The longest run of words next to an arrow that names a place: before it (`fromEnd`) or after it. */
function longestLabel(
	words: string[],
	fromEnd: boolean,
	find: (candidate: string) => Place[],
): { label: string; places: Place[]; used: number } | undefined {
	for (let count = Math.min(words.length, MAX_WORDS); count >= 1; count--) {
		const run = (fromEnd ? words.slice(-count) : words.slice(0, count)).join(' ');
		const candidates = fromEnd
			? [run, run.replace(/^[(\[“"'_*!]+/, '')]
			: [run, run.replace(/[.,;:!?”"'_*]+$/, ''), run.replace(/[.,;:!?)\]”"'_*]+$/, '')];
		for (const candidate of new Set(candidates)) {
			const places = candidate ? find(candidate) : [];
			if (places.length > 0) return { label: candidate, places, used: count };
		}
	}
	return undefined;
}

function findPaths(source: Source, places: Places): FoundPath[] {
	const { text } = source;
	const found: FoundPath[] = [];
	const done = new Set<number>();
	const arrowsIn = (from: number, to: number) =>
		[...text.slice(from, to).matchAll(/→/g)].map((match) => from + match.index);
	const record = (arrow: number, path: string, bold: boolean, at: Place[], problem?: string) =>
		found.push({
			file: source.file,
			line: source.line(arrow),
			arrow,
			path,
			bold,
			places: problem ? [] : at,
			problem,
			allowed: allowedAt(source, arrow),
			sentence: sentenceAt(source, arrow),
		});

	if (source.markdown) {
		for (const bold of text.matchAll(/\*\*([^*]+?)\*\*/g)) {
			if (!bold[1].includes('→')) continue;
			const arrows = arrowsIn(bold.index, bold.index + bold[0].length);
			arrows.forEach((arrow) => done.add(arrow));
			const segments = bold[1].split('→').map(normalise);
			let current = places.start(segments[0]);
			let problem = current.length === 0 ? `no place is called "${segments[0]}"` : undefined;
			for (const segment of segments.slice(1)) {
				if (problem) break;
				const next = places.next(current, segment);
				if (next.length === 0) problem = `"${segment}" is not in ${describeAt(current)}`;
				current = next;
			}
			record(arrows[0], segments.join(' → '), true, current, problem);
		}
	}

	for (const arrow of arrowsIn(0, text.length)) {
		if (done.has(arrow)) continue;
		done.add(arrow);
		const { from, to } = bounds(text, arrow);
		const leftWords = text.slice(from, arrow).split(/\s+/).filter(Boolean);
		const first = longestLabel(leftWords, true, (candidate) => places.start(candidate));
		const segments = [first?.label ?? leftWords.slice(-3).join(' ')];
		let current = first?.places ?? [];
		let problem = first ? undefined : `no place is called "${leftWords.at(-1) ?? ''}"`;
		let at = arrow;
		let end = to;
		while (!problem) {
			const rightWords = text
				.slice(at + 1, end)
				.split(/\s+/)
				.filter(Boolean);
			const next = longestLabel(rightWords, false, (candidate) => places.next(current, candidate));
			if (!next) {
				const words = rightWords.slice(0, 3).join(' ');
				segments.push(words);
				problem = `"${words}" does not start with a place in ${describeAt(current)}`;
				break;
			}
			segments.push(next.label);
			current = next.places;
			// The path goes on only where the label reaches the next arrow.
			if (next.used < rightWords.length || text[end] !== '→') break;
			at = end;
			done.add(at);
			end = bounds(text, at).to;
		}
		record(arrow, segments.join(' → '), false, current, problem);
	}
	return found.sort((a, b) => a.line - b.line);
}

/** What is wrong with a text that tells the user to give the service more time than `waitedMs`. */
function timeoutHintProblems(text: string, waitedMs: number, places: Places): string[] {
	const problems: string[] = [];
	const byPath = findPaths({ file: '', text, line: () => 0, markdown: false }, places).some(
		(path) => path.places.some((found) => found.id === TIMEOUT_PLACE),
	);
	// Or in words, such as "open the node's Settings, add Timeout under Request Options".
	const byLabels = TIMEOUT_LABELS.every((label) => new RegExp(`\\b${label}\\b`).test(text));
	if (!byPath && !byLabels) {
		problems.push('it names neither Settings → Request Options → Timeout nor each of its labels');
	}
	// A value, or a bound: "such as 600000", "more than 300000".
	const values = [
		...text.matchAll(
			/\b(above|more than|over|higher than)?\s*(\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+|\d+)\b/g,
		),
	].map(([, bound, digits]) => ({ value: Number(digits.replace(/\D/g, '')), bound: !!bound }));
	// A table row can only point at the value the message shows, which it then must exceed.
	const aboveTheMessage = /\b(above|more than|over) the (one|value|time) in the (message|error)\b/i;
	const raises = values.some(
		({ value, bound }) => value > waitedMs || (bound && value === waitedMs),
	);
	if (!raises && !aboveTheMessage.test(text)) {
		problems.push(`it gives no value above the ${waitedMs} ms the request had`);
	}
	if (!/millisecond|\bms\b/.test(text)) {
		problems.push('it does not say that Timeout counts milliseconds');
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------

/** The places at the node version a user adds today, and at each other version of the node. */
let places: Places;
let otherVersions: { version: number; places: Places }[];
let defaultVersion: number;
let paths: FoundPath[];

beforeAll(async () => {
	const { nodeType, credentialTypes } = await loadPackage();
	const { description } = nodeType;
	const credentialType: ICredentialType = credentialTypes[CREDENTIAL_TYPE];
	const credential = place(
		'credential',
		credentialType.displayName,
		propertyPlaces('credential', credentialType.properties, 1),
	);
	const versions = [description.version].flat();
	defaultVersion = description.defaultVersion ?? Math.max(...versions);
	const placesAt = (version: number) => {
		const panel = nodePanel(description, version);
		return new Places([
			...panel,
			credential,
			...n8nMenus(credential),
			httpRequestNode(credential),
			...exampleSteps((stepVersion) => nodePanel(description, stepVersion).slice(0, 2)),
		]);
	};
	places = placesAt(defaultVersion);
	otherVersions = versions
		.filter((version) => version !== defaultVersion)
		.map((version) => ({ version, places: placesAt(version) }));
	paths = allSources().flatMap((source) => {
		const atOthers = otherVersions.map(({ version, places: atVersion }) => ({
			version,
			found: findPaths(source, atVersion),
		}));
		// The node picks a message by the version of the item's node; a text is read for a node added now.
		const byVersion = !source.markdown && !source.file.startsWith('examples/');
		return findPaths(source, places).map((path) => {
			if (!path.problem) return path;
			for (const { version, found } of atOthers) {
				const there = found.find((other) => other.arrow === path.arrow && !other.problem);
				if (there) return byVersion ? { ...there, version } : { ...path, onlyAt: version };
			}
			return path;
		});
	});
});

describe('the paths the texts tell users to click', () => {
	it('each exists where it says', () => {
		const allowed = paths.filter((path) => path.allowed);
		const checked = paths.filter((path) => !path.allowed);
		const failures = checked.filter((path) => path.problem);
		const files = new Set(paths.map((path) => path.file));
		process.stdout.write(
			`ui paths: ${paths.length} found in ${files.size} files (${paths.filter((path) => path.bold).length} in bold), ` +
				`${checked.length} checked (${checked.filter((path) => path.version).length} in messages for another version of the node), ` +
				`${allowed.length} allowed as no path, ${failures.length} not where they say\n`,
		);
		expect(
			failures.map((path) => {
				const note = path.onlyAt
					? ` (only in version ${path.onlyAt} of the node; a node added now is version ${defaultVersion})`
					: '';
				return `${path.file}:${path.line}: "${path.path}": ${path.problem}${note}`;
			}),
		).toEqual([]);
	});

	it('are found in the README, the docs and the node’s messages', () => {
		const from = (prefix: string) => paths.filter((path) => path.file.startsWith(prefix)).length;
		expect(from('README.md')).toBeGreaterThan(0);
		expect(from('docs/')).toBeGreaterThan(0);
		expect(from('nodes/')).toBeGreaterThan(0);
	});

	it('every arrow allowed as no path is still in its text', () => {
		const used = new Set(paths.map((path) => path.allowed));
		expect(ALLOWED.filter((entry) => !used.has(entry)).map((entry) => entry.text)).toEqual([]);
	});

	it('a text that tells users to raise Timeout gives a value above the 300000 ms the node waits without it', () => {
		const raising = paths.filter(
			(path) =>
				!path.sentence.includes('${…}') &&
				path.places.some((found) => found.id === TIMEOUT_PLACE) &&
				/\b(raise|increase|extend|more time)\b/i.test(path.sentence),
		);
		expect(
			raising.flatMap((path) =>
				timeoutHintProblems(path.sentence, WAIT_WITHOUT_TIMEOUT_MS, places).map(
					(problem) => `${path.file}:${path.line}: "${path.sentence}": ${problem}`,
				),
			),
		).toEqual([]);
	});
});

/** A path as if written in bold: whole. */
function readPath(path: string, at: Places): FoundPath {
	return findPaths({ file: '', text: `**${path}**`, line: () => 0, markdown: true }, at)[0];
}

describe('how paths are checked', () => {
	const read = (path: string) => readPath(path, places);

	it.each([
		'Settings → Request Options → Timeout',
		'Settings → Request Options → Add Option → Timeout',
		'Request Options → Batching → Items per Batch',
		'Request Options → Ignore SSL Issues (Insecure)',
		'Settings → On Error → Continue (using error output)',
		'Settings → Retry On Fail → Max. Tries / Wait Between Tries (ms)',
		'Contract Signing: Client → Create',
		'Overview → Data tables → Create data table',
		'Overview → Credentials → Create credential → Contract Signing API',
		'+ → New credential → Contract Signing API → API Key',
		'Settings → Community nodes → Install',
		'… → Import → From file',
		'Authentication → Predefined Credential Type → Contract Signing API',
	])('"%s" is there', (path) => {
		expect(read(path).problem).toBeUndefined();
	});

	it.each([
		[
			'Options → Ignore SSL Issues (Insecure)',
			/no place is called "Options"|"Ignore SSL Issues \(Insecure\)" is not in "Options"/,
		],
		['Settings → Timeout', /^"Timeout" is not in "Settings"/],
		['Workflows → Import from File', /^"Import from File" is not in "Workflows"/],
		['Credentials → Add credential', /^"Add credential" is not in "Credentials"/],
		['Overview → Create → Credential', /^"Create" is not in "Overview"/],
		['Settings → Community Nodes → Install', /^"Community Nodes" is not in "Settings"/],
		['Contract → Get', /^"Get" is not in "Contract"/],
	])('"%s" is not', (path, problem) => {
		expect(read(path).problem).toMatch(problem);
	});

	it.each([
		['Raise Options → Timeout.', ['names neither', 'no value above', 'milliseconds']],
		['Raise Settings → Request Options → Timeout to 60 s.', ['no value above', 'milliseconds']],
		['Set Settings → Request Options → Timeout to 60000 ms.', ['no value above']],
		['Set Settings → Request Options → Timeout above 300000 (ms).', []],
		['Open the node’s Settings, add Timeout under Request Options: 600000 ms.', []],
	])('a hint to raise Timeout after 300000 ms: "%s"', (text, problems) => {
		const found = timeoutHintProblems(text, WAIT_WITHOUT_TIMEOUT_MS, places);
		expect(found).toHaveLength(problems.length);
		problems.forEach((problem, index) => expect(found[index]).toContain(problem));
	});

	it('reads the longest labels around an arrow in a sentence', () => {
		const source = (text: string): Source => ({ file: '', text, line: () => 0, markdown: false });
		const [path] = findPaths(
			source(
				'The service is busy: set Settings → Request Options → Batching to space requests out.',
			),
			places,
		);
		expect(path.path).toBe('Settings → Request Options → Batching');
		expect(path.problem).toBeUndefined();
		const [operation] = findPaths(source('as returned by Client → Create. Map it'), places);
		expect(operation.path).toBe('Client → Create');
	});
});
