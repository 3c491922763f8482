import { NodeHelpers, type INode, type INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';

const { description } = new ContractSigning();

/** The settings below an operation's fields, as n8n's editor shows them. */
function settingsPanel(): INodeProperties[] {
	const node = { typeVersion: 1, parameters: {} } as unknown as INode;
	const values = { resource: 'client', operation: 'create' };
	return description.properties.filter(
		(property) =>
			['simple', 'options'].includes(property.name) &&
			NodeHelpers.displayParameter(values, property, node, description),
	);
}

const labels = (property: INodeProperties) =>
	(property.options as INodeProperties[]).map(
		({ displayName, name }) => `${displayName} (${name})`,
	);

describe('the settings panel', () => {
	it('has one version', () => {
		expect(description.version).toBe(1);
		expect(description.defaultVersion).toBeUndefined();
	});

	it('shows Simplify and Options, whose two limits for a busy service are in alphabetical order', () => {
		const [simplify, options, ...rest] = settingsPanel();
		expect(rest).toEqual([]);
		expect(simplify.displayName).toBe('Simplify');
		expect(options).toMatchObject({ displayName: 'Options', placeholder: 'Add option' });
		expect(labels(options)).toEqual([
			'Max Retries When Busy (maxRetries)',
			'Max Wait When Busy (Seconds) (maxWaitSeconds)',
		]);
	});

	it('waits for a busy service up to 20 times and 300 seconds per item, unless Options say otherwise', () => {
		const [, options] = settingsPanel();
		expect(
			(options.options as INodeProperties[]).map(({ name, type, default: value, typeOptions }) => ({
				name,
				type,
				value,
				typeOptions,
			})),
		).toEqual([
			{ name: 'maxRetries', type: 'number', value: 20, typeOptions: { minValue: 0, maxValue: 50 } },
			{
				name: 'maxWaitSeconds',
				type: 'number',
				value: 300,
				typeOptions: { minValue: 0, maxValue: 3600 },
			},
		]);
	});
});
