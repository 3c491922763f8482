/**
 * The node's Resource and Operation fields and every operation's fields, derived from the table
 * of operations (resources/index.ts): a field shows exactly on the panels of the operations that
 * list it, in the order each of them lists its fields.
 *
 * A field that several operations list is described once where n8n's conditions allow it: n8n's
 * routing engine evaluates every field of the description on every item, shown or not, so a field
 * described twice under one name is evaluated twice. But n8n's `show` conditions are each a list
 * of values, all of which must match: `resource ∈ {user, contract}` and `operation ∈ {get,
 * create}` also shows the field for Contract → Get. Where that cross product would reach an
 * operation that does not list the field, the field is described once per resource instead.
 */
import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';
import type { Operation, OperationField, Resource } from './operation';

/** How an operation is sent, which the node gives (item/send.ts): the description knows none. */
export type RoutingOf = (operation: Operation) => INodePropertyRouting;

/** A field of the description and the operations that show it. */
interface Entry {
	field: OperationField;
	operations: Operation[];
}

export function describeResources(resources: Resource[], routingOf: RoutingOf): INodeProperties[] {
	const firstResource = resources[0].value;
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map(({ name, value }) => ({ name, value })),
			default: firstResource,
		},
		...resources.map((resource) => operationSelector(resource, routingOf)),
		...orderedEntries(resources).map(describeEntry),
	];
}

function operationSelector(resource: Resource, routingOf: RoutingOf): INodeProperties {
	const firstOperation = resource.operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: resource.operations.map((operation) => ({
			name: operation.name,
			value: operation.value,
			action: operation.action,
			description: operation.description,
			routing: routingOf(operation),
		})),
		default: firstOperation,
	};
}

const unique = (values: string[]) => [...new Set(values)];

function describeEntry({ field, operations }: Entry): INodeProperties {
	const { property, onlyWhen } = field;
	return {
		...property,
		displayOptions: {
			show: {
				resource: unique(operations.map((operation) => operation.resource)),
				operation: unique(operations.map((operation) => operation.value)),
				...(onlyWhen ? { [onlyWhen.parameter]: [onlyWhen.value] } : {}),
			},
		},
	};
}

/** The same field: the same property, read under the same condition. */
function conditionOf({ onlyWhen }: OperationField): string {
	return onlyWhen ? `${onlyWhen.parameter}=${onlyWhen.value}` : '';
}

/** Each field with the operations that list it; split by resource where the conditions would leak. */
function entriesOf(resources: Resource[]): Entry[] {
	const all = resources.flatMap((resource) => resource.operations);
	const groups = new Map<INodeProperties, Map<string, Entry>>();
	for (const operation of all) {
		checkFields(operation);
		for (const field of operation.fields) {
			const byCondition = groups.get(field.property) ?? new Map<string, Entry>();
			groups.set(field.property, byCondition);
			const key = conditionOf(field);
			const entry = byCondition.get(key) ?? { field, operations: [] };
			byCondition.set(key, entry);
			entry.operations.push(operation);
		}
	}
	return [...groups.values()].flatMap((byCondition) =>
		[...byCondition.values()].flatMap((entry) => (leaks(entry, all) ? byResource(entry) : [entry])),
	);
}

function checkFields(operation: Operation): void {
	const names = operation.fields.map(({ property }) => property.name);
	const twice = names.find((name, index) => names.indexOf(name) !== index);
	const preset = operation.fields.find(({ property }) => property.displayOptions);
	if (twice || preset) {
		throw new Error(
			`${operation.resource} → ${operation.value}: ${twice ? `the field "${twice}" is listed twice` : `the field "${preset!.property.name}" has displayOptions of its own; they are derived`}`,
		);
	}
}

/** Whether the entry's conditions would also show it for an operation that does not list it. */
function leaks({ operations }: Entry, all: Operation[]): boolean {
	const resources = new Set(operations.map((operation) => operation.resource));
	const values = new Set(operations.map((operation) => operation.value));
	return all.some(
		(operation) =>
			resources.has(operation.resource) &&
			values.has(operation.value) &&
			!operations.includes(operation),
	);
}

function byResource({ field, operations }: Entry): Entry[] {
	const resources = unique(operations.map((operation) => operation.resource));
	return resources.map((resource) => ({
		field,
		operations: operations.filter((operation) => operation.resource === resource),
	}));
}

/**
 * The entries in one order that keeps every operation's own: each new entry goes right after
 * the one its operation lists before it. Two operations that list two fields in opposite orders
 * cannot both be kept, and are refused.
 */
function orderedEntries(resources: Resource[]): Entry[] {
	const entries = entriesOf(resources);
	const order: Entry[] = [];
	for (const operation of resources.flatMap((resource) => resource.operations)) {
		let previous = -1;
		for (const field of operation.fields) {
			const entry = entries.find(
				(candidate) =>
					candidate.field.property === field.property &&
					candidate.operations.includes(operation) &&
					conditionOf(candidate.field) === conditionOf(field),
			)!;
			let at = order.indexOf(entry);
			if (at === -1) {
				at = previous + 1;
				order.splice(at, 0, entry);
			} else if (at < previous) {
				throw new Error(
					`${operation.resource} → ${operation.value}: the field "${field.property.name}" comes before one that another operation lists after it`,
				);
			}
			previous = at;
		}
	}
	return order;
}
