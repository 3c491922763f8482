/**
 * The panel is data: each operation's option in its Operation field carries the request, and its
 * rules the place in the body of each field. n8n keeps the values of only the fields a panel shows
 * (NodeHelpers.displayParameter, as its editor decides what to show), and the operation's preSend
 * (shared/envelope.ts) sends only the fields its rules name. So each field a panel shows that
 * takes a value must have a path in the operation's rules.
 */
import { existsSync } from 'node:fs';
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';
import { clientCreateRules } from '../../../nodes/ContractSigning/resources/client/create';
import { contractCreateRules } from '../../../nodes/ContractSigning/resources/contract/create';
import { userGetRules } from '../../../nodes/ContractSigning/resources/user/get';
import type { EnvelopeRules } from '../../../nodes/ContractSigning/shared/envelope';

const { properties, version } = new ContractSigning().description;
const SELECTORS = ['resource', 'operation'];
/** Fields every operation shows that send nothing to the service themselves. */
const SETTINGS = ['simple', 'options'];

/** Each operation's rules, by `resource:operation`: what its preSend keeps and checks. */
const RULES: Record<string, EnvelopeRules> = {
	'client:create': clientCreateRules,
	'contract:create': contractCreateRules,
	'user:get': userGetRules,
};

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
			option,
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

/** A field's names: its own, or for a collection each option's as `collection.option`. */
function fieldNames(property: INodeProperties): string[] {
	if (property.type !== 'collection') return [property.name];
	return (property.options as INodeProperties[]).map(({ name }) => `${property.name}.${name}`);
}

/** The fields of a panel that take a value, each with where its operation's preSend puts it. */
function valueFields(values: INodeParameters, rules: EnvelopeRules) {
	return panel(values)
		.filter(({ type, noDataExpression }) => type !== 'notice' && !noDataExpression)
		.filter(({ name }) => !SETTINGS.includes(name))
		.flatMap(fieldNames)
		.map((field) => ({ field, path: rules.paths[field] }));
}

describe('the panel', () => {
	it('offers each operation with its rules, and the output schema n8n shows before a run', () => {
		expect(offered.map(({ resource, operation }) => `${resource}:${operation}`).sort()).toEqual(
			Object.keys(RULES).sort(),
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

	it('sends each operation to its resource, through the node’s send, its preSend and its reply check', () => {
		for (const { resource, label, option } of offered) {
			const { request, send, output } = option.routing ?? {};
			expect(request, label).toMatchObject({ method: 'POST', url: `/v1/${resource}` });
			expect(request?.body, label).toEqual({ data: { action: expect.any(String) } });
			// paginate hands the item to the node's send (shared/send.ts): busy waits, Retry On Fail.
			expect(send?.paginate, label).toBe(true);
			expect(send?.preSend, label).toHaveLength(1);
			expect(output?.postReceive, label).toHaveLength(1);
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

	it('sends every field a panel shows that takes a value to a path its operation’s rules name', () => {
		for (const { resource, operation, label } of offered) {
			const rules = RULES[`${resource}:${operation}`];
			for (const values of settingsOf(resource, operation)) {
				const lost = valueFields(values, rules).filter(({ path }) => !path);
				expect(lost, `${label} ${JSON.stringify(values)}`).toEqual([]);
			}
		}
	});

	it('sends no two fields of one panel to the same path, and every field the rules name is on some panel', () => {
		for (const { resource, operation, label } of offered) {
			const rules = RULES[`${resource}:${operation}`];
			const settings = settingsOf(resource, operation);
			for (const values of settings) {
				const paths = valueFields(values, rules).map(({ path }) => path);
				expect(paths, `${label} ${JSON.stringify(values)}`).toEqual([...new Set(paths)]);
			}
			const shown = new Set(
				settings.flatMap((values) => valueFields(values, rules)).map((f) => f.field),
			);
			expect(
				Object.keys(rules.paths).filter((field) => !shown.has(field)),
				label,
			).toEqual([]);
		}
	});

	it('takes each field’s label from the field the panel shows, so that messages name what the user sees', () => {
		for (const { resource, operation, label } of offered) {
			const rules = RULES[`${resource}:${operation}`];
			for (const values of settingsOf(resource, operation)) {
				for (const property of panel(values)) {
					if (!(property.name in rules.paths) && property.name !== 'additionalFields') continue;
					const own = rules.fields.find(({ name }) => name === property.name);
					expect(own, `${label}: ${property.name}`).toBe(property);
				}
			}
		}
	});

	it('describes each field once, so that n8n evaluates a mapped value once in each of its walks', () => {
		const named = properties.map(({ name }) => name).filter((name) => name !== 'operation');
		expect(named).toEqual([...new Set(named)]);
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
