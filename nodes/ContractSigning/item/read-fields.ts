import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import type { WireField } from '../description/operation';

/**
 * The values of the operation's fields for one item, by wire path, each only while the panel
 * shows it. A collection is read once, however many of its fields are sent.
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
	const values: IDataObject = { 'data.action': action };
	for (const { property, path, shownWhen, within } of fields) {
		if (shownWhen.some(([name, values]) => !values.includes(parameter(name, '')))) continue;
		const value =
			within === undefined
				? parameter(property.name, property.default)
				: (parameter(within, {}) as IDataObject)[property.name];
		if (value !== undefined) values[path] = value as IDataObject[string];
	}
	return values;
}
