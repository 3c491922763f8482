import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * One field of an operation's panel, in the order the panel shows it. Its `property` carries no
 * displayOptions: which panels show it is derived from the operations that list it (describe.ts).
 */
export interface OperationField {
	property: INodeProperties;
	/** Dotted path of its value in the request body, such as `data.client.fullname`; none for a notice or a switch. */
	path?: string;
	/** For a collection of optional fields: each one's name and the dotted path of its value in the request body. */
	paths?: Record<string, string>;
	/** Shown and read only while another field of the panel has this value: one of two ways to give the same data. */
	onlyWhen?: { parameter: string; value: string };
}

/**
 * A field that is sent: it has a path in the request body. A field inside a collection is read
 * from the collection, `within`.
 */
export interface WireField {
	property: INodeProperties;
	path: string;
	onlyWhen?: OperationField['onlyWhen'];
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

export interface Operation {
	/** The resource's value, as the Resource field stores it, such as `client`. */
	resource: string;
	/** The operation's name in the Operation field, and its value there. */
	name: string;
	value: string;
	/** The action as n8n lists it, such as "Create a client": sentence case, the resource with its article, as n8n's own nodes ("Create a user"). */
	action: string;
	description: string;
	/** What the request is: `POST {baseUrl}{path}` with `data.action` set to `action`. */
	request: { path: string; action: string };
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

/** A resource of the Resource field and its operations, in the order its Operation field lists them. */
export interface Resource {
	name: string;
	value: string;
	operations: Operation[];
}

/** The operation's fields that are sent. */
export function wireFields(operation: Operation): WireField[] {
	return operation.fields.flatMap(({ property, path, paths, onlyWhen }): WireField[] => {
		if (path !== undefined) return [{ property, path, onlyWhen }];
		const inner = (property.options ?? []) as INodeProperties[];
		return inner
			.filter((field) => paths?.[field.name] !== undefined)
			.map((field) => ({
				property: field,
				path: paths![field.name],
				onlyWhen,
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
