/** Reads an operation's fields for one item into the request body, each at its path. */
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import type { WireField } from '../description/operation';

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) {
		node[key] ??= {};
		node = node[key] as IDataObject;
	}
	node[keys[keys.length - 1]] = value as IDataObject[string];
}

/**
 * The request body as the operation's fields give it for this item, each field only while the
 * panel shows it. A switch, or a collection of optional fields, is read once however many fields
 * depend on it.
 */
export function readFields(
	context: IExecuteSingleFunctions,
	action: string,
	fields: WireField[],
): IDataObject {
	const read = new Map<string, unknown>();
	const parameter = (name: string, fallback: unknown) => {
		if (!read.has(name)) read.set(name, context.getNodeParameter(name, fallback));
		return read.get(name);
	};
	const body: IDataObject = { data: { action } };
	for (const { property, path, shownWhen, within } of fields) {
		if (shownWhen.some(([name, values]) => !values.includes(parameter(name, '')))) continue;
		const value =
			within === undefined
				? parameter(property.name, property.default)
				: (parameter(within, {}) as IDataObject)[property.name];
		if (value !== undefined) setPath(body, path, value);
	}
	return body;
}
