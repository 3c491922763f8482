import { existsSync } from 'node:fs';
import { NodeHelpers, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';
import { resources } from '../../../nodes/ContractSigning/resources';
import { describeResources } from '../../../nodes/ContractSigning/description/describe';
import { operationRouting } from '../../../nodes/ContractSigning/item/send';
import { clientKeyField } from '../../../nodes/ContractSigning/resources/fields';
import type { Operation, Resource } from '../../../nodes/ContractSigning/description/operation';

const operationsOf = (table: Resource[]) => table.flatMap((resource) => resource.operations);
const resourceName = (operation: Operation) =>
	resources.find((resource) => resource.value === operation.resource)!.name;

/** Every way a panel's switches can be set: each value of each field another field depends on. */
function settingsOf(operation: Operation): INodeParameters[] {
	const switches = new Map<string, string[]>();
	for (const { onlyWhen } of operation.fields) {
		if (!onlyWhen) continue;
		switches.set(onlyWhen.parameter, [...(switches.get(onlyWhen.parameter) ?? []), onlyWhen.value]);
	}
	let settings: INodeParameters[] = [{ resource: operation.resource, operation: operation.value }];
	for (const [parameter, values] of switches) {
		settings = settings.flatMap((setting) =>
			values.map((value) => ({ ...setting, [parameter]: value })),
		);
	}
	return settings;
}

/** What n8n's editor shows for these settings, as n8n itself decides it. */
function panel(properties: INodeProperties[], values: INodeParameters): INodeProperties[] {
	return properties.filter(
		(property) =>
			!['resource', 'operation'].includes(property.name) &&
			NodeHelpers.displayParameter(values, property, null, null),
	);
}

/** The fields the operation lists for these settings, in its order. */
function listed(operation: Operation, values: INodeParameters): string[] {
	return operation.fields
		.filter(({ onlyWhen }) => !onlyWhen || values[onlyWhen.parameter] === onlyWhen.value)
		.map(({ property }) => property.name);
}

/** Each panel of the table, by operation and settings, as the names of its fields. */
function panels(table: Resource[]): Record<string, string[]> {
	const properties = describeResources(table, operationRouting);
	return Object.fromEntries(
		operationsOf(table).flatMap((operation) =>
			settingsOf(operation).map((values) => [
				JSON.stringify(values),
				panel(properties, values).map(({ name }) => name),
			]),
		),
	);
}

const contractKeyField: INodeProperties = {
	displayName: 'Contract Key',
	name: 'contractKey',
	type: 'string',
	required: true,
	default: '',
};

/** An operation as a contributor would add it: its own file's declaration. */
function operation(resource: string, value: string, fields: Operation['fields']): Operation {
	return {
		resource,
		name: value === 'read' ? 'Read' : 'Get',
		value,
		action: `${value} a ${resource}`,
		description: `${value} a ${resource}`,
		request: { path: `/v1/${resource}`, action: 'read' },
		fields,
		rules: {},
		record: { member: resource, key: `${resource}Key` },
		notFoundHint: 'Check the keys.',
		creates: false,
		simplify: (reply) => reply,
	};
}

/** The table without any operation of this resource and value: a test adds its own. */
const without = (resource: string, value: string): Resource[] =>
	resources.map((entry) => ({
		...entry,
		operations: entry.operations.filter(
			(operation) => operation.resource !== resource || operation.value !== value,
		),
	}));

const withOperation = (table: Resource[], added: Operation): Resource[] =>
	table.map((resource) =>
		resource.value === added.resource
			? { ...resource, operations: [...resource.operations, added] }
			: resource,
	);

describe('the table of operations', () => {
	it('shows each operation exactly the fields it lists, in its order', () => {
		const properties = describeResources(resources, operationRouting);
		for (const operation of operationsOf(resources)) {
			for (const values of settingsOf(operation)) {
				expect(panel(properties, values).map(({ name }) => name)).toEqual(
					listed(operation, values),
				);
			}
		}
	});

	it('no field tells of another operation on a panel where that operation is not', () => {
		const properties = describeResources(resources, operationRouting);
		const names = operationsOf(resources).map(
			(operation) => [operation, `${resourceName(operation)} → ${operation.name}`] as const,
		);
		for (const [operation] of names) {
			for (const values of settingsOf(operation)) {
				for (const property of panel(properties, values)) {
					const text = `${property.description ?? ''} ${property.hint ?? ''}`;
					const elsewhere = names
						.filter(([other]) => other !== operation)
						.map(([, name]) => name)
						.filter((name) => new RegExp(`\\b(For|In|On) ${name}\\b`).test(text));
					expect(elsewhere, `${property.displayName} on ${JSON.stringify(values)}`).toEqual([]);
				}
			}
		}
	});

	it('an added Contract → Read shows exactly its fields; every other panel is unchanged', () => {
		const read = operation('contract', 'read', [
			{ property: clientKeyField, path: 'data.clientKey' },
			{ property: contractKeyField, path: 'data.contract.contractKey' },
		]);
		const base = without('contract', 'read');
		const table = withOperation(base, read);
		const before = panels(base);
		const after = panels(table);

		expect(after[JSON.stringify({ resource: 'contract', operation: 'read' })]).toEqual([
			'clientKey',
			'contractKey',
		]);
		expect(Object.keys(after)).toHaveLength(Object.keys(before).length + 1);
		for (const [settings, fields] of Object.entries(before))
			expect(after[settings]).toEqual(fields);
		const operationField = describeResources(table, operationRouting).find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('contract'),
		);
		expect(operationField?.options?.map((option) => (option as { value: string }).value)).toEqual([
			'create',
			'read',
		]);
	});

	it('a field two resources share is split where n8n’s conditions would show it on a third panel', () => {
		// Full Name is listed by Client → Create and User → Get: "resource ∈ {client, user} and
		// operation ∈ {create, get}" would also match an added Client → Get.
		const get = operation('client', 'get', [{ property: clientKeyField, path: 'data.clientKey' }]);
		const base = without('client', 'get');
		const before = panels(base);
		const after = panels(withOperation(base, get));

		expect(after[JSON.stringify({ resource: 'client', operation: 'get' })]).toEqual(['clientKey']);
		for (const [settings, fields] of Object.entries(before))
			expect(after[settings]).toEqual(fields);
		const described = (table: Resource[], name: string) =>
			describeResources(table, operationRouting).filter((property) => property.name === name)
				.length;
		expect(described(base, 'fullname')).toBe(1);
		expect(described(withOperation(base, get), 'fullname')).toBe(2);
	});

	it('refuses a table no single order of fields fits, and a field with displayOptions of its own', () => {
		const [first, second] = operationsOf(resources).find(
			(candidate) => candidate.fields.length > 1 && candidate.resource === 'contract',
		)!.fields;
		const base = without('contract', 'read');
		const reversed = operation('contract', 'read', [second, first]);
		expect(() => describeResources(withOperation(base, reversed), operationRouting)).toThrow(
			/comes before one/,
		);

		const preset = { ...contractKeyField, displayOptions: { show: { resource: ['contract'] } } };
		const own = operation('contract', 'read', [{ property: preset, path: 'data.contractKey' }]);
		expect(() => describeResources(withOperation(base, own), operationRouting)).toThrow(
			/displayOptions of its own/,
		);
	});

	it('every operation has the output schema n8n shows before a run', () => {
		// The editor asks for the node's exact version, padded as in v1.0.0, and falls back to none.
		const versions = [new ContractSigning().description.version].flat();
		for (const version of versions) {
			const folder = `v${`${version}.0.0`.split('.').slice(0, 3).join('.')}`;
			for (const { resource, value } of operationsOf(resources)) {
				const path = `${folder}/${resource}/${value}.json`;
				const schema = new URL(
					`../../../nodes/ContractSigning/__schema__/${path}`,
					import.meta.url,
				);
				expect(existsSync(schema), path).toBe(true);
			}
		}
	});
});
