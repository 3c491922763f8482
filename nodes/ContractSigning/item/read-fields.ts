/**
 * Reads an operation's fields for one item, with as few expression evaluations as n8n allows.
 *
 * Each evaluation costs a call into n8n's expression engine (BENCHMARKS.md, "Where the time
 * goes"), and before the node runs, n8n's routing engine has already evaluated every field
 * twice per item (once on 1.x and 2.0) without handing the values on. So the node reads the text
 * fields that are mapped by a single expression (`{{ $json.email }}`, the form dragging a field in
 * gives) together, in one evaluation of `[(expression 1), (expression 2), …]`: with two mapped
 * fields an item costs 5 evaluations instead of 6, with four 9 instead of 12.
 *
 * Each value read together is exactly what that expression gives on its own, or the field is read
 * on its own: a field whose expression gives anything but text, a number, true/false or nothing,
 * mixes text with `{{ }}`, uses `$fromAI`, or fails, is read with `getNodeParameter` as before,
 * so that its value, and its error naming the field, are n8n's own. A fixed value (no expression)
 * is taken as it stands, which is what n8n would return for it.
 */
import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import type { WireField } from '../description/operation';

const SOLE_EXPRESSION = /^=\s*\{\{([\s\S]*)\}\}\s*$/;

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) {
		node[key] ??= {};
		node = node[key] as IDataObject;
	}
	node[keys[keys.length - 1]] = value as IDataObject[string];
}

/** The code of a text field whose whole value is one `{{ }}` expression, else undefined. */
function soleExpression(property: INodeProperties, raw: unknown): string | undefined {
	if (property.type !== 'string' || typeof raw !== 'string') return undefined;
	const code = SOLE_EXPRESSION.exec(raw)?.[1];
	if (code === undefined || code.includes('{{') || code.includes('}}')) return undefined;
	// n8n fills $fromAI from an AI agent's tool call by scanning each parameter on its own.
	return /\$fromai/i.test(code) ? undefined : code;
}

function isPlainValue(value: unknown): boolean {
	return value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value);
}

/** The values the `together` fields' expressions give for this item, or undefined. */
function evaluateTogether(
	context: IExecuteSingleFunctions,
	codes: string[],
): unknown[] | undefined {
	// Each expression on lines of its own, so that a `//` comment in one ends with its line.
	const list = codes.map((code) => `(\n${code}\n)`).join(',\n');
	try {
		const values = context.evaluateExpression(`{{ [\n${list}\n] }}`, context.getItemIndex());
		return Array.isArray(values) && values.length === codes.length && values.every(isPlainValue)
			? values
			: undefined;
	} catch {
		return undefined;
	}
}

function readValues(context: IExecuteSingleFunctions, properties: INodeProperties[]): unknown[] {
	const raws = properties.map((property) =>
		context.getNodeParameter(property.name, property.default, { rawExpressions: true }),
	);
	const codes = properties.map((property, index) => soleExpression(property, raws[index]));
	const together = codes.flatMap((code, index) => (code === undefined ? [] : [index]));
	const values =
		together.length > 1
			? evaluateTogether(
					context,
					together.map((index) => codes[index]!),
				)
			: undefined;
	return properties.map((property, index) => {
		const position = values ? together.indexOf(index) : -1;
		if (position >= 0) return values![position];
		const raw = raws[index];
		// A fixed value is what n8n would return for it: nothing to evaluate.
		const fixed = isPlainValue(raw) && !(typeof raw === 'string' && raw.startsWith('='));
		return fixed ? raw : context.getNodeParameter(property.name, property.default);
	});
}

/** The request body as the operation's fields give it for this item; each mode read once. */
export function readFields(
	context: IExecuteSingleFunctions,
	action: string,
	fields: WireField[],
): IDataObject {
	const modes = new Map<string, unknown>();
	const modeOf = (parameter: string) => {
		if (!modes.has(parameter)) modes.set(parameter, context.getNodeParameter(parameter, ''));
		return modes.get(parameter);
	};
	const used = fields.filter(
		({ onlyWhen }) => !onlyWhen || modeOf(onlyWhen.parameter) === onlyWhen.value,
	);
	const own = used.filter(({ within }) => within === undefined);
	const values = readValues(
		context,
		own.map(({ property }) => property),
	);
	const body: IDataObject = { data: { action } };
	own.forEach(({ path }, index) => setPath(body, path, values[index]));
	const collections = new Map<string, IDataObject>();
	for (const { property, path, within } of used) {
		if (within === undefined) continue;
		if (!collections.has(within)) {
			collections.set(within, context.getNodeParameter(within, {}) as IDataObject);
		}
		const value = collections.get(within)?.[property.name];
		if (value !== undefined) setPath(body, path, value);
	}
	return body;
}
