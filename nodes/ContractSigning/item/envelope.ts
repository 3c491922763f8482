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

/** Wire path (`data.client.fullname`, `data.client.users[].email`) → label the user sees. */
export function labelsFromFields(fields: WireField[]): Record<string, string> {
	const labels: Record<string, string> = { 'data.action': 'Operation' };
	for (const { property, path } of fields) {
		labels[path] = property.displayName;
		if (property.type !== 'fixedCollection') continue;
		for (const group of property.options ?? []) {
			if (!('values' in group)) continue;
			for (const value of group.values) {
				labels[`${path}[].${value.name}`] = value.displayName;
			}
		}
	}
	return labels;
}

/** The operation's rules with the labels of its fields, as `finishEnvelope` takes them. */
export function labelledRulesOf(operation: Operation): LabelledRules {
	return { ...operation.rules, labels: labelsFromFields(wireFields(operation)) };
}

/** A JavaScript Date or a Luxon DateTime (what `{{ $now }}` gives). */
function isDate(value: unknown): boolean {
	// By tag rather than instanceof: an expression's result may come from another realm.
	return (
		Object.prototype.toString.call(value) === '[object Date]' ||
		(typeof value === 'object' &&
			value !== null &&
			(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true)
	);
}

function describeValue(value: unknown): string {
	if (isDate(value)) return 'a date';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'boolean') return `the value ${String(value)}`;
	if (typeof value === 'number') return `the number ${String(value)}`;
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function toText(value: unknown, label: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return trimText(value) || undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return String(value);
	const date = isDate(value) ? dateText(value) : undefined;
	if (date) return date;
	throw new UserError(`${label} must be text, but it is ${describeValue(value)}`, {
		description: isDate(value)
			? `Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.`
			: `Set ${label} to a single text value, for example an expression such as {{ $json.name }}.`,
	});
}

/**
 * A date as ISO 8601 text, as n8n itself writes one inside a list (`[{ fullname: $now }]`) and
 * as n8n's HTTP Request node sends one; undefined for an invalid date.
 */
function dateText(value: unknown): string | undefined {
	const date = value as {
		toISO?: () => string | null;
		toISOString?: () => string;
		getTime?: () => number;
	};
	if (typeof date.toISO === 'function') return date.toISO() ?? undefined;
	if (typeof date.getTime === 'function' && Number.isNaN(date.getTime())) return undefined;
	return date.toISOString?.();
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

function compactList(list: unknown[], path: string, walk: Walk): IDataObject[] | undefined {
	const listLabel = labelOf(path, walk);
	const entries: IDataObject[] = [];
	list.forEach((entry, index) => {
		const entryLabel = `${listLabel}, entry ${index + 1}`;
		if (!isFields(entry)) {
			throw new UserError(`${entryLabel} must be an object, but it is ${describeValue(entry)}`, {
				description: `Give each entry of ${listLabel} as an object with one or more of ${entryFields(
					`${patternOf(path)}[]`,
					walk.rules.labels,
				)
					.map(quoted)
					.join(', ')}.`,
			});
		}
		const compacted = compactObject(entry, `${path}[${index}]`, { ...walk, entry: entryLabel });
		if (!compacted) {
			throw new UserError(`${entryLabel} is empty`, {
				description: `Fill in at least one field of ${entryLabel}, or remove it.`,
			});
		}
		entries.push(compacted);
	});
	return entries.length ? entries : undefined;
}

function compactObject(object: IDataObject, path: string, walk: Walk): IDataObject | undefined {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		const childPath = `${path}.${key}`;
		const compacted = compactAny(value, childPath, walk);
		if (compacted !== undefined) result[key] = compacted;
	}
	return Object.keys(result).length ? result : undefined;
}

/** The fields an entry of the list at `listPattern` (such as `data.client.users[]`) may have. */
function entryFields(listPattern: string, labels: Record<string, string>): string[] {
	return Object.keys(labels)
		.filter((path) => path.startsWith(`${listPattern}.`))
		.map((path) => path.slice(listPattern.length + 1));
}

function isListPath(pattern: string, labels: Record<string, string>): boolean {
	return entryFields(`${pattern}[]`, labels).length > 0;
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

function unknownField(path: string, pattern: string, walk: Walk): UserError {
	const key = path.slice(path.lastIndexOf('.') + 1);
	const list = pattern.slice(0, pattern.lastIndexOf('.'));
	const known = list.endsWith('[]') ? entryFields(list, walk.rules.labels) : [];
	return new UserError(
		`${walk.entry ?? 'This operation'} has a field "${key}" that the service does not accept`,
		{
			description: known.length
				? `Give each entry of ${labelOf(list.slice(0, -2), { rules: walk.rules })} only ${known.map(quoted).join(', ')}; map the entries of a list from an expression to these fields.`
				: 'Send only the fields this operation shows.',
		},
	);
}

function compactAny(value: unknown, path: string, walk: Walk): unknown {
	const { labels } = walk.rules;
	const pattern = patternOf(path);
	if (isListPath(pattern, labels)) {
		if (isEmpty(value)) return undefined;
		if (!Array.isArray(value)) {
			throw new UserError(
				`${labelOf(path, walk)} must be a list, but it is ${describeValue(value)}`,
				{
					description: `Give ${labelOf(path, walk)} as a list of objects, for example an expression such as {{ $json.contacts }}.`,
				},
			);
		}
		return compactList(value, path, walk);
	}
	if (!(pattern in labels)) {
		if (isFields(value)) return compactObject(value, path, walk);
		if (isEmpty(value)) return undefined;
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
 * Turns the body read from the item's fields (read-fields.ts) into the exact envelope the service
 * takes: text trimmed, numbers as text, nothing empty, nothing the service does not know, and
 * every rule of the operation checked.
 */
export function finishEnvelope(body: IDataObject, rules: LabelledRules): IDataObject {
	const walk: Walk = { rules };
	const data = isFields(body.data) ? compactObject(body.data, 'data', walk) : undefined;
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
