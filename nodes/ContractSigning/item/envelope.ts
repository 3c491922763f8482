/** The exact envelope the service takes, and the operation's rules, in the fields' labels. */
import { UserError, type IDataObject } from 'n8n-workflow';
import { trimText } from '../../../credentials/ContractSigningApi.credentials';
import { quoted, type EnvelopeRules, type WireField } from '../description/operation';
import { isPlainObject } from '../wire/reply';

export interface LabelledRules extends EnvelopeRules {
	/** Wire path (`data.client.fullname`, `data.client.users[].email`) → label the user sees. */
	labels: Record<string, string>;
	/** Wire path of a list → the group its rows come in from a field of several rows (`user`). */
	groups: Record<string, string>;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function labelledRulesOf(fields: WireField[], rules: EnvelopeRules = {}): LabelledRules {
	const labels: Record<string, string> = { 'data.action': 'Operation' };
	const groups: Record<string, string> = {};
	for (const { property, path } of fields) {
		labels[path] = property.displayName;
		for (const group of property.type === 'fixedCollection' ? (property.options ?? []) : []) {
			if (!('values' in group)) continue;
			groups[path] = group.name;
			for (const value of group.values) labels[`${path}[].${value.name}`] = value.displayName;
		}
	}
	return { ...rules, labels, groups };
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

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The value as text: trimmed, a number as its digits, a date as ISO 8601 text (as n8n writes one
 * inside a list, `[{ fullname: $now }]`, and its HTTP Request node sends one).
 */
function toText(value: unknown, label: string, email: boolean): string | undefined {
	if (value === undefined || value === null) return undefined;
	let text: string | undefined;
	if (typeof value === 'string') text = trimText(value);
	else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') {
		text = String(value);
	} else {
		const date = value as { toISO?: () => string | null; toISOString?: () => string };
		const valid = isDate(value) && !Number.isNaN((value as Date).valueOf());
		text = (valid && (date.toISO?.() ?? date.toISOString?.())) || undefined;
		if (text === undefined) {
			throw new UserError(`${label} must be text, but it is ${describeValue(value)}`, {
				description: isDate(value)
					? `Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.`
					: `Set ${label} to a single text value, for example an expression such as {{ $json.name }}.`,
			});
		}
	}
	if (text && email && !EMAIL_PATTERN.test(text)) {
		throw new UserError(`${label} "${text}" is not an email address`, {
			description: `Enter an address such as name@example.com in ${label}, or leave it empty.`,
		});
	}
	return text || undefined;
}

/**
 * A list of entries, each an object of the `known` fields, given as the rows of a field (`{}` or
 * `{ user: [...] }`), as JSON text, or as a list from an expression.
 */
function toList(value: unknown, path: string, known: string[], rules: LabelledRules) {
	const listLabel = quoted(rules.labels[path]);
	const rows = isPlainObject(value) ? value : undefined;
	const group = rules.groups[path];
	if (rows && Object.keys(rows).every((key) => key === group && Array.isArray(rows[key]))) {
		value = rows[group];
	}
	if (typeof value === 'string' && value.trim()) value = jsonList(value, listLabel, known);
	if (isEmpty(value) || (typeof value === 'string' && !value.trim())) return undefined;
	if (!Array.isArray(value)) {
		throw new UserError(`${listLabel} must be a list, but it is ${describeValue(value)}`, {
			description: `Give ${listLabel} as a list of objects, for example an expression such as {{ $json.contacts }}.`,
		});
	}
	const entries = value.map((entry: unknown, index) => {
		const entryLabel = `${listLabel}, entry ${index + 1}`;
		if (!isPlainObject(entry) || isDate(entry)) {
			throw new UserError(`${entryLabel} must be an object, but it is ${describeValue(entry)}`, {
				description: `Give each entry of ${listLabel} as an object with one or more of ${known.map(quoted).join(', ')}.`,
			});
		}
		const finished: IDataObject = {};
		for (const [key, field] of Object.entries(entry)) {
			const label = rules.labels[`${path}[].${key}`];
			if (label === undefined && isEmpty(field)) continue;
			if (label === undefined) {
				throw new UserError(`${entryLabel} has a field "${key}" that the service does not accept`, {
					description: `Give each entry of ${listLabel} only ${known.map(quoted).join(', ')}; map the entries of a list from an expression to these fields.`,
				});
			}
			const email = rules.emails?.includes(`${path}[].${key}`) === true;
			const text = toText(field, `${entryLabel}: ${quoted(label)}`, email);
			if (text !== undefined) finished[key] = text;
		}
		if (Object.keys(finished).length > 0) return finished;
		throw new UserError(`${entryLabel} is empty`, {
			description: `Fill in at least one field of ${entryLabel}, or remove it.`,
		});
	});
	return entries.length ? entries : undefined;
}

const INVALID_JSON = Symbol('invalid JSON');

function jsonList(text: string, listLabel: string, known: string[]): unknown {
	let parsed: unknown = INVALID_JSON;
	try {
		parsed = JSON.parse(text);
	} catch {
		// Told below, in the user's words.
	}
	if (parsed !== INVALID_JSON) return parsed;
	throw new UserError(`${listLabel} is not a valid list`, {
		description: `Enter a JSON list such as [{ "${known[0]}": "…" }], or map a list with an expression.`,
	});
}

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as IDataObject;
	node[keys[keys.length - 1]] = value as IDataObject[string];
}

/** Each value at its wire path: text trimmed, numbers as text, nothing empty; the rules checked. */
export function finishEnvelope(values: IDataObject, rules: LabelledRules): IDataObject {
	const envelope: IDataObject = { data: {} };
	const finished: IDataObject = {};
	for (const [path, label] of Object.entries(rules.labels)) {
		if (path.includes('[]')) continue;
		// The fields an entry may have: none when `path` is not a list.
		const known = Object.keys(rules.labels)
			.filter((entry) => entry.startsWith(`${path}[].`))
			.map((entry) => entry.slice(path.length + 3));
		const value = known.length
			? toList(values[path], path, known, rules)
			: toText(values[path], quoted(label), rules.emails?.includes(path) === true);
		if (value === undefined) continue;
		finished[path] = value;
		setPath(envelope, path, value);
	}
	for (const { path, fix } of rules.required ?? []) {
		if (finished[path] === undefined) {
			throw new UserError(`${quoted(rules.labels[path] ?? path)} is empty`, { description: fix });
		}
	}
	if (rules.anyOf && rules.anyOf.paths.every((path) => finished[path] === undefined)) {
		throw new UserError(rules.anyOf.message, { description: rules.anyOf.fix });
	}
	return envelope;
}
