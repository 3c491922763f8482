import { existsSync } from 'node:fs';
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';
import { wireFields } from '../../../nodes/ContractSigning/description/operation';
import { operations } from '../../../nodes/ContractSigning/resources';

const { properties, version } = new ContractSigning().description;
const SELECTORS = ['resource', 'operation'];

const resourceOptions = properties.find(({ name }) => name === 'resource')!
	.options as INodePropertyOptions[];

/** Every operation the panel offers, with its label and its option in its Operation field. */
const offered = resourceOptions.flatMap((resource) =>
	properties
		.filter(
			({ name, displayOptions }) =>
				name === 'operation' && displayOptions?.show?.resource?.includes(resource.value),
		)
		.flatMap(({ options }) => options as INodePropertyOptions[])
		.map((option) => ({
			resource: String(resource.value),
			operation: String(option.value),
			label: `${resource.name} → ${option.name}`,
		})),
);

/** Every way a panel's switches can be set: each value of each field another field depends on. */
function settingsOf(resource: string, operation: string): INodeParameters[] {
	let settings: INodeParameters[] = [{ resource, operation }];
	const switches = new Map<string, Set<string>>();
	for (const { displayOptions } of properties) {
		for (const [name, values] of Object.entries(displayOptions?.show ?? {})) {
			if (SELECTORS.includes(name)) continue;
			switches.set(name, new Set([...(switches.get(name) ?? []), ...(values as string[])]));
		}
	}
	for (const [name, values] of switches) {
		if (!panel(settings[0]).some((property) => property.name === name)) continue;
		settings = settings.flatMap((setting) =>
			[...values].map((value) => ({ ...setting, [name]: value })),
		);
	}
	return settings;
}

/** What n8n's editor shows for these settings, as n8n itself decides it. */
function panel(values: INodeParameters): INodeProperties[] {
	return properties.filter(
		(property) =>
			!SELECTORS.includes(property.name) &&
			NodeHelpers.displayParameter(values, property, null, null),
	);
}

const names = (values: INodeParameters) => panel(values).map(({ name }) => name);

describe('the panel', () => {
	it('offers exactly the operations the node sends, each with the output schema n8n shows before a run', () => {
		expect(offered.map(({ resource, operation }) => `${resource}:${operation}`).sort()).toEqual(
			Object.entries(operations)
				.flatMap(([resource, byValue]) =>
					Object.keys(byValue).map((value) => `${resource}:${value}`),
				)
				.sort(),
		);
		// The editor asks for the node's exact version, padded as in v1.0.0, and falls back to none.
		for (const each of [version].flat()) {
			const folder = `v${`${each}.0.0`.split('.').slice(0, 3).join('.')}`;
			for (const { resource, operation } of offered) {
				const schema = `../../../nodes/ContractSigning/__schema__/${folder}/${resource}/${operation}.json`;
				expect(existsSync(new URL(schema, import.meta.url)), schema).toBe(true);
			}
		}
	});

	it('shows each operation its fields in this order', () => {
		const shown = (resource: string, operation: string, more: INodeParameters = {}) =>
			names({ resource, operation, ...more });
		const person = ['fullname', 'email', 'organization', 'customKey', 'usersInput'];
		expect(shown('client', 'create', { usersInput: 'fields' })).toEqual([
			...person,
			'defaultUserNotice',
			'users',
			'simple',
			'options',
		]);
		expect(shown('client', 'create', { usersInput: 'list' })).toEqual([
			...person,
			'defaultUserNotice',
			'usersList',
			'simple',
			'options',
		]);
		expect(shown('contract', 'create')).toEqual([
			'clientKey',
			'name',
			'additionalFields',
			'simple',
			'options',
		]);
		expect(shown('user', 'get')).toEqual([
			'clientKey',
			'findUserNotice',
			'userKey',
			'fullname',
			'email',
			'customKey',
			'simple',
			'options',
		]);
	});

	it('sends every field its panel shows that takes a value, and no field it does not show', () => {
		for (const { resource, operation, label } of offered) {
			const sent = wireFields(operations[resource][operation]);
			for (const values of settingsOf(resource, operation)) {
				const onPanel = panel(values)
					.filter(({ type, noDataExpression }) => type !== 'notice' && !noDataExpression)
					.map(({ name }) => name)
					.filter((name) => !['simple', 'options'].includes(name));
				const read = sent
					.filter(({ shownWhen }) =>
						shownWhen.every(([name, allowed]) => allowed.includes(values[name])),
					)
					.map(({ property, within }) => within ?? property.name);
				expect([...new Set(read)], `${label} ${JSON.stringify(values)}`).toEqual(onPanel);
			}
		}
	});

	it('describes each field once: n8n evaluates every field of the description for every item', () => {
		const fields = properties.map(({ name }) => name).filter((name) => name !== 'operation');
		expect(fields).toEqual([...new Set(fields)]);
	});

	it('shows every field on some panel', () => {
		const everywhere = offered.flatMap(({ resource, operation }) =>
			settingsOf(resource, operation).flatMap(names),
		);
		const described = properties
			.map(({ name }) => name)
			.filter((name) => !SELECTORS.includes(name));
		expect(described.filter((name) => !everywhere.includes(name))).toEqual([]);
	});

	it('no field tells of another operation on a panel where that operation is not', () => {
		for (const { resource, operation, label } of offered) {
			for (const values of settingsOf(resource, operation)) {
				for (const property of panel(values)) {
					const text = `${property.description ?? ''} ${property.hint ?? ''}`;
					const elsewhere = offered
						.filter((other) => other.label !== label)
						.filter((other) => new RegExp(`\\b(For|In|On) ${other.label}\\b`).test(text));
					expect(elsewhere, `${property.displayName} on ${label}`).toEqual([]);
				}
			}
		}
	});
});
