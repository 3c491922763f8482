import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * A field an operation sends, as the panel describes it (with its displayOptions), and where its
 * value goes in the request body.
 */
export interface OperationField {
	property: INodeProperties;
	/** Dotted path of its value in the request body, such as `data.client.fullname`. */
	path?: string;
	/** For a collection of optional fields: each one's name and the dotted path of its value in the request body. */
	paths?: Record<string, string>;
}

/**
 * A field that is sent: it has a path in the request body, and is read only while the panel
 * shows it (`shownWhen`: its displayOptions besides Resource and Operation). A field inside a
 * collection is read from the collection, `within`.
 */
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
	/** Wire paths whose text must be an email address (`data.client.users[].email` for a list's entries). */
	emails?: string[];
}

/**
 * What an operation sends and what its reply must hold. Its panel is data: the Operation field's
 * option of its resource (resources/<resource>/index.ts) and its fields.
 */
export interface Operation {
	/** `data.action` of the request, such as `create`. */
	action: string;
	fields: OperationField[];
	rules: EnvelopeRules;
	/** Reshapes the body the fields gave before the rules apply. */
	normalize?: (body: IDataObject) => IDataObject;
	/** The member of the reply that holds the record, and the record's key the next steps map. */
	record: { member: string; key: string };
	/** What to check when the service answers 404 (it knows nothing at this address, or not a key sent). */
	notFoundHint: string;
	/**
	 * `false` for an operation that only reads. For one that creates a record: where the user
	 * finds the record when the service may have created it without saying so. Such an item is
	 * never sent again in the same run.
	 */
	creates: false | { mayExist: (envelope: IDataObject) => string };
	/** The flat item Simplify gives, from the reply and what was sent. */
	simplify: (reply: IDataObject, envelope: IDataObject) => IDataObject;
}

/** The operations of a resource, by their value in its Operation field. */
export type Operations = Record<string, Operation>;

/** The panel's conditions besides Resource and Operation: another field's value it depends on. */
function shownWhen(property: INodeProperties): WireField['shownWhen'] {
	return Object.entries(property.displayOptions?.show ?? {})
		.filter(([parameter]) => parameter !== 'resource' && parameter !== 'operation')
		.map(([parameter, values]) => [parameter, values ?? []]);
}

/** The operation's fields that are sent. */
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

/** What an operation that creates says of a record the service may have made without confirming it. */
export function mayExistHint(record: string, lookFor: string): string {
	return `The ${record} may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for ${lookFor} before you run this item again.`;
}
