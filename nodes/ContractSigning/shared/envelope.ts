/**
 * The `preSend` of every operation: it reads the fields the operation sends and makes the body
 * the service takes, or stops the item before anything is sent.
 */
import {
	NodeOperationError,
	UserError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeProperties,
	type PreSendAction,
} from 'n8n-workflow';
import { keepSent, type Sent } from './sent';

export interface EnvelopeRules {
	/** The fields the operation shows, for their labels. */
	fields: INodeProperties[];
	/** Where each field goes under `data`, by its name (`collection.field` for one in a collection). */
	paths: Record<string, string>;
	/** A list field: its path, the group its rows come in (`user`) and each entry's fields. */
	list?: { path: string; group: string; entries: INodeProperties[] };
	/** Paths that must not be empty, each with what to enter. */
	required?: Record<string, string>;
	/** The error when none of the other fields is filled in. */
	anyOf?: string;
	/** For a create: what the service may have made, to look for when it did not confirm. */
	mayExist?: Sent['mayExist'];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EDGE_BLANKS =
	/^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+|[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+$/g;

/** Input the service would not take: what is wrong and, as its description, the fix. */
const inputError = (message: string, fix: string) => new UserError(message, { description: fix });

/** A JavaScript Date or a Luxon DateTime (what `{{ $now }}` gives), from any realm. */
const isDate = (value: unknown) =>
	Object.prototype.toString.call(value) === '[object Date]' ||
	(value as { isLuxonDateTime?: unknown } | null)?.isLuxonDateTime === true;

const isPlainObject = (value: unknown): value is IDataObject =>
	Object.prototype.toString.call(value) === '[object Object]' && !isDate(value);

function describe(value: unknown): string {
	if (isDate(value)) return 'a date';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return 'a string';
	return `the ${typeof value === 'number' ? 'number' : 'value'} ${String(value)}`;
}

/** Text as sent: trimmed, a number as its digits, a date as ISO 8601; nothing for an empty value. */
function toText(value: unknown, label: string, email: boolean): string | undefined {
	let text: string | undefined;
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') text = value.replace(EDGE_BLANKS, '');
	else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
	// A Date's toJSON is its toISOString, a Luxon DateTime's its toISO.
	else if (isDate(value) && !Number.isNaN((value as Date).valueOf()))
		text = (value as Date).toJSON();
	else {
		throw inputError(
			`${label} must be text, but it is ${describe(value)}`,
			isDate(value)
				? `Give a valid date, or text such as {{ $now.toFormat('yyyy-MM-dd') }}.`
				: `Set ${label} to a single text value, for example an expression such as {{ $json.name }}.`,
		);
	}
	if (text && email && !EMAIL.test(text)) {
		throw inputError(
			`${label} "${text}" is not an email address`,
			`Enter an address such as name@example.com in ${label}, or leave it empty.`,
		);
	}
	return text || undefined;
}

/** A list from the field's rows (`{ user: [...] }`), JSON text or an expression's list. */
function toList(
	value: unknown,
	{ group, entries }: NonNullable<EnvelopeRules['list']>,
	label: string,
) {
	if (isPlainObject(value) && Object.keys(value).every((key) => key === group))
		value = value[group];
	if (typeof value === 'string') {
		if (!value.trim()) return undefined;
		try {
			value = JSON.parse(value);
		} catch {
			const fix = `Enter a JSON list such as [{ "fullname": "…" }], or map a list with an expression.`;
			throw inputError(`'${label}' is not a valid list`, fix);
		}
	}
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value)) {
		const fix = `Give '${label}' as a list of objects, for example an expression such as {{ $json.contacts }}.`;
		throw inputError(`'${label}' must be a list, but it is ${describe(value)}`, fix);
	}
	const labels = Object.fromEntries(entries.map((field) => [field.name, field.displayName]));
	const known = entries.map(({ name }) => `'${name}'`).join(', ');
	const list = value.map((entry: unknown, index) => {
		const where = `'${label}', entry ${index + 1}`;
		if (!isPlainObject(entry)) {
			const fix = `Give each entry of '${label}' as an object with one or more of ${known}.`;
			throw inputError(`${where} must be an object, but it is ${describe(entry)}`, fix);
		}
		const finished: IDataObject = {};
		for (const [key, field] of Object.entries(entry)) {
			if (!(key in labels) && (field === undefined || field === null || field === '')) continue;
			if (!(key in labels)) {
				const fix = `Give each entry of '${label}' only ${known}.`;
				throw inputError(`${where} has a field "${key}" that the service does not accept`, fix);
			}
			const text = toText(field, `${where}: '${labels[key]}'`, key === 'email');
			if (text !== undefined) finished[key] = text;
		}
		if (Object.keys(finished).length) return finished;
		throw inputError(`${where} is empty`, `Fill in at least one field of ${where}, or remove it.`);
	});
	return list.length ? list : undefined;
}

const valueAt = (data: IDataObject, path: string): unknown =>
	path.split('.').reduce<unknown>((node, key) => (node as IDataObject)?.[key], data);

function setAt(data: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	const last = keys.pop() as string;
	const node = keys.reduce((parent, key) => (parent[key] ??= {}) as IDataObject, data);
	node[last] = value as IDataObject[string];
}

/** Each path's label: the panel's name of the first field sent there. */
function labelsOf({ fields, paths }: EnvelopeRules): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const [name, path] of Object.entries(paths)) {
		const [top, nested] = name.split('.');
		const field = fields.find((each) => each.name === top);
		const inner = field?.options as INodeProperties[] | undefined;
		labels[path] ??=
			(nested ? inner?.find((each) => each.name === nested) : field)?.displayName ?? name;
	}
	return labels;
}

/** The `data` the service takes: each field finished at its path, the rules checked. */
export function finishData(sent: IDataObject, rules: EnvelopeRules): IDataObject {
	const data: IDataObject = { action: sent.action };
	const labels = labelsOf(rules);
	for (const [path, label] of Object.entries(labels)) {
		const value =
			path === rules.list?.path
				? toList(valueAt(sent, path), rules.list, label)
				: toText(valueAt(sent, path), `'${label}'`, /(^|\.)email$/.test(path));
		if (value !== undefined) setAt(data, path, value);
	}
	const required = rules.required ?? {};
	for (const [path, fix] of Object.entries(required)) {
		if (valueAt(data, path) === undefined) throw inputError(`'${labels[path]}' is empty`, fix);
	}
	const anyOf = Object.keys(labels).filter((path) => !(path in required));
	if (rules.anyOf && anyOf.every((path) => valueAt(data, path) === undefined)) {
		const names = anyOf.map((path) => `'${labels[path]}'`);
		const fix = `Fill in at least one of ${names.slice(0, -1).join(', ')} or ${names.at(-1)}.`;
		throw inputError(rules.anyOf, fix);
	}
	return data;
}

/** Simplify as set; text from an expression counts only as "true" or "false". */
function simplifyOf(value: unknown): boolean {
	const text = String(value).trim().toLowerCase();
	if (text === 'true' || text === 'false') return text === 'true';
	throw inputError(
		`'Simplify' must be true or false, but it is ${JSON.stringify(value) ?? String(value)}`,
		"Switch 'Simplify' on or off, or give an expression that results in true or false.",
	);
}

/**
 * The `preSend` of an operation whose envelope has this `action`. Input it refuses stops the item
 * before anything is sent: under On Error → Continue as the item's error, which the send gives as
 * its output (shared/send.ts), since n8n's routing would give an item whose data is empty, the
 * error beside it (n8n-core's RoutingNode, 1.123.81 and 2.41.1).
 */
export function finishEnvelope(rules: EnvelopeRules, action: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const sent: IDataObject = { action };
		try {
			for (const [name, path] of Object.entries(rules.paths)) {
				// A field the panel does not show has no value: n8n dropped it when it loaded the workflow.
				const value = this.getNodeParameter(name, null) as unknown;
				if (value !== null) setAt(sent, path, value);
			}
			const data = finishData(sent, rules);
			const simplify = simplifyOf(this.getNodeParameter('simple', true));
			keepSent(this, { envelope: { data }, simplify, mayExist: rules.mayExist });
			return { ...requestOptions, body: { data } };
		} catch (error) {
			const { message, description } = error as UserError;
			if (!this.continueOnFail()) {
				throw new NodeOperationError(this.getNode(), message, {
					description: description ?? undefined,
					itemIndex: this.getItemIndex(),
				});
			}
			keepSent(this, { refused: { error: { message, description } } });
			return requestOptions;
		}
	};
}

/** For a create the service did not confirm: where to look for the record it may have made. */
export function whereToLook({ mayExist, envelope }: Sent): string | undefined {
	if (!mayExist || !envelope) return undefined;
	return `The ${mayExist.record} may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for ${mayExist.lookFor(envelope.data as IDataObject)} before you run this item again.`;
}
