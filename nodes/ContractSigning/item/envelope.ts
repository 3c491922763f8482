/**
 * The exact envelope the service takes, from the body read-fields.ts built from the item's
 * fields, and the operation's rules checked on it, in the words of the fields' labels.
 */
import { UserError, type IDataObject } from 'n8n-workflow';
import { trimText } from '../../../credentials/ContractSigningApi.credentials';
import {
	quoted,
	wireFields,
	type EnvelopeRules,
	type Operation,
	type WireField,
} from '../description/operation';
import { isPlainObject } from '../wire/reply';

/** An operation's rules, with the label the user sees for each wire path. */
export interface LabelledRules extends EnvelopeRules {
	/** Wire path (`data.client.fullname`, `data.client.users[].email`) → label the user sees. */
	labels: Record<string, string>;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function labelsFromFields(fields: WireField[]): Record<string, string> {
	const labels: Record<string, string> = { 'data.action': 'Operation' };
	for (const { property, path } of fields) {
		labels[path] = property.displayName;
		for (const group of property.type === 'fixedCollection' ? (property.options ?? []) : []) {
			if (!('values' in group)) continue;
			for (const value of group.values) labels[`${path}[].${value.name}`] = value.displayName;
		}
	}
	return labels;
}

export function labelledRulesOf(operation: Operation): LabelledRules {
	return { ...operation.rules, labels: labelsFromFields(wireFields(operation)) };
}

/** A JavaScript Date or a Luxon DateTime (what `{{ $now }}` gives). */
function isDate(value: unknown): boolean {
	// By tag rather than instanceof: an expression's result may come from another realm.
	return (
		Object.prototype.toString.call(value) === '[object Date]' ||
		(value as { isLuxonDateTime?: unknown } | null)?.isLuxonDateTime === true
	);
}

function describeValue(value: unknown): string {
	if (isDate(value)) return 'a date';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'boolean') return `the value ${String(value)}`;
	if (typeof value === 'number') return `the number ${String(value)}`;
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The value as text: trimmed, a number as its digits, a date as ISO 8601 text (as n8n writes one
 * inside a list, `[{ fullname: $now }]`, and its HTTP Request node sends one).
 */
function toText(value: unknown, label: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return trimText(value) || undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	const date = value as { toISO?: () => string | null; toISOString?: () => string };
	const valid = isDate(value) && !Number.isNaN((value as Date).valueOf());
	const text = valid ? (date.toISO?.() ?? date.toISOString?.()) : undefined;
	if (text) return text;
	throw new UserError(`${label} must be text, but it is ${describeValue(value)}`, {
		description: isDate(value)
			? `Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.`
			: `Set ${label} to a single text value, for example an expression such as {{ $json.name }}.`,
	});
}

/** An object of fields: a plain object that is not one of n8n's dates (Luxon's look plain). */
function isFields(value: unknown): value is IDataObject {
	return isPlainObject(value) && !isDate(value);
}

interface Walk {
	rules: LabelledRules;
	/** Label of the enclosing list entry, e.g. "Users, entry 2". */
	entry?: string;
}

/** The pattern of a path: `data.client.users[2].email` is `data.client.users[].email`. */
function patternOf(path: string): string {
	return path.replace(/\[\d+\]/g, '[]');
}

function labelOf(path: string, walk: Walk): string {
	const label = quoted(walk.rules.labels[patternOf(path)] ?? path);
	return walk.entry ? `${walk.entry}: ${label}` : label;
}

/** The fields, quoted, an entry of the list at `listPattern` (`data.client.users[]`) may have. */
function entryFields(listPattern: string, labels: Record<string, string>): string[] {
	return Object.keys(labels)
		.filter((path) => path.startsWith(`${listPattern}.`))
		.map((path) => quoted(path.slice(listPattern.length + 1)));
}

function compactList(list: unknown[], path: string, walk: Walk): IDataObject[] | undefined {
	const listLabel = labelOf(path, walk);
	const entries = list.map((entry, index) => {
		const entryLabel = `${listLabel}, entry ${index + 1}`;
		if (!isFields(entry)) {
			const known = entryFields(`${patternOf(path)}[]`, walk.rules.labels).join(', ');
			throw new UserError(`${entryLabel} must be an object, but it is ${describeValue(entry)}`, {
				description: `Give each entry of ${listLabel} as an object with one or more of ${known}.`,
			});
		}
		const compacted = compactObject(entry, `${path}[${index}]`, { ...walk, entry: entryLabel });
		if (compacted) return compacted;
		throw new UserError(`${entryLabel} is empty`, {
			description: `Fill in at least one field of ${entryLabel}, or remove it.`,
		});
	});
	return entries.length ? entries : undefined;
}

function compactObject(object: IDataObject, path: string, walk: Walk): IDataObject | undefined {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		const compacted = compactAny(value, `${path}.${key}`, walk);
		if (compacted !== undefined) result[key] = compacted;
	}
	return Object.keys(result).length ? result : undefined;
}

function unknownField(path: string, pattern: string, walk: Walk): UserError {
	const list = pattern.slice(0, pattern.lastIndexOf('.'));
	const known = list.endsWith('[]') ? entryFields(list, walk.rules.labels) : [];
	const key = path.slice(path.lastIndexOf('.') + 1);
	return new UserError(
		`${walk.entry ?? 'This operation'} has a field "${key}" that the service does not accept`,
		{
			description: known.length
				? `Give each entry of ${labelOf(list.slice(0, -2), { rules: walk.rules })} only ${known.join(', ')}; map the entries of a list from an expression to these fields.`
				: 'Send only the fields this operation shows.',
		},
	);
}

function compactAny(value: unknown, path: string, walk: Walk): unknown {
	const pattern = patternOf(path);
	const empty = value === undefined || value === null || value === '';
	if (entryFields(`${pattern}[]`, walk.rules.labels).length > 0) {
		if (empty) return undefined;
		if (Array.isArray(value)) return compactList(value, path, walk);
		const label = labelOf(path, walk);
		throw new UserError(`${label} must be a list, but it is ${describeValue(value)}`, {
			description: `Give ${label} as a list of objects, for example an expression such as {{ $json.contacts }}.`,
		});
	}
	if (!(pattern in walk.rules.labels)) {
		if (isFields(value)) return compactObject(value, path, walk);
		if (empty) return undefined;
		throw unknownField(path, pattern, walk);
	}
	const label = labelOf(path, walk);
	const text = toText(value, label);
	if (text !== undefined && walk.rules.emails?.includes(pattern) && !EMAIL_PATTERN.test(text)) {
		throw new UserError(`${label} "${text}" is not an email address`, {
			description: `Enter an address such as name@example.com in ${label}, or leave it empty.`,
		});
	}
	return text;
}

function valueAt(body: IDataObject, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((node, key) => (isFields(node) ? node[key] : undefined), body);
}

/**
 * The exact envelope the service takes: text trimmed, numbers as text, nothing empty, nothing
 * the service does not know, and every rule of the operation checked.
 */
export function finishEnvelope(body: IDataObject, rules: LabelledRules): IDataObject {
	const data = isFields(body.data) ? compactObject(body.data, 'data', { rules }) : undefined;
	const envelope: IDataObject = { data: data ?? {} };
	for (const { path, fix } of rules.required ?? []) {
		if (valueAt(envelope, path) === undefined) {
			throw new UserError(`${quoted(rules.labels[path] ?? path)} is empty`, { description: fix });
		}
	}
	if (rules.anyOf && rules.anyOf.paths.every((path) => valueAt(envelope, path) === undefined)) {
		throw new UserError(rules.anyOf.message, { description: rules.anyOf.fix });
	}
	return envelope;
}
