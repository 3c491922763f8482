import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** A field an operation sends, and the path of its value (in a collection, each one's). */
export interface OperationField {
	property: INodeProperties;
	path?: string;
	paths?: Record<string, string>;
}

/** A field that is sent while the panel shows it (`shownWhen`), from its collection (`within`). */
export interface WireField {
	property: INodeProperties;
	path: string;
	shownWhen: Array<[parameter: string, values: unknown[]]>;
	within?: string;
}

export interface EnvelopeRules {
	/** Wire paths that must have a value, each with what the user should do. */
	required?: Array<{ path: string; fix: string }>;
	/** At least one of these wire paths must have a value. */
	anyOf?: { paths: string[]; message: string; fix: string };
	/** Wire paths of email addresses (`data.client.users[].email` for a list's entries). */
	emails?: string[];
}

/** What an operation sends and what its reply must hold; its panel is in resources/<resource>/. */
export interface Operation {
	action: string;
	fields: OperationField[];
	rules: EnvelopeRules;
	/** The member of the reply that holds the record, and the record's key the next steps map. */
	record: { member: string; key: string };
	/** What to check when the service answers 404. */
	notFoundHint: string;
	/** For an operation that creates: where to look for a record the service may have made. */
	creates: false | { mayExist: (envelope: IDataObject) => string };
	/** The flat item Simplify gives, from the reply and what was sent. */
	simplify: (reply: IDataObject, envelope: IDataObject) => IDataObject;
}

export type Operations = Record<string, Operation>;

function shownWhen(property: INodeProperties): WireField['shownWhen'] {
	return Object.entries(property.displayOptions?.show ?? {})
		.filter(([parameter]) => parameter !== 'resource' && parameter !== 'operation')
		.map(([parameter, values]) => [parameter, values ?? []]);
}

export function wireFields(operation: Operation): WireField[] {
	return operation.fields.flatMap(({ property, path, paths }): WireField[] => {
		if (path !== undefined) return [{ property, path, shownWhen: shownWhen(property) }];
		const inner = (property.options ?? []) as INodeProperties[];
		return inner
			.filter((field) => paths?.[field.name] !== undefined)
			.map((field) => ({
				property: field,
				path: paths![field.name],
				shownWhen: shownWhen(property),
				within: property.name,
			}));
	});
}

/** A field's label as messages name it: in single quotes, as n8n's own messages name fields. */
export function quoted(label: string): string {
	return `'${label}'`;
}

/** What a create says of a record the service may have made without confirming it. */
export function mayExistHint(record: string, lookFor: string): string {
	return `The ${record} may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for ${lookFor} before you run this item again.`;
}
