import { NodeHelpers, type INode, type INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { ContractSigning } from '../../../nodes/ContractSigning/ContractSigning.node';

const { description } = new ContractSigning();

/** The settings below an operation's fields, as n8n's editor shows them for a node of this version. */
function settingsPanel(typeVersion: number): INodeProperties[] {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	const values = { resource: 'client', operation: 'create' };
	return description.properties.filter(
		(property) =>
			['simplify', 'retryWhenBusy', 'requestRate', 'options'].includes(property.name) &&
			NodeHelpers.displayParameter(values, property, node, description),
	);
}

const labels = (property: INodeProperties) =>
	(property.options as INodeProperties[]).map(
		({ displayName, name }) => `${displayName} (${name})`,
	);

describe('the settings panel', () => {
	it('new nodes get the newest version', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	it('version 1 shows Simplify, Retry When Busy and Request Rate, as it always has', () => {
		const [simplify, retryWhenBusy, requestRate, ...rest] = settingsPanel(1);
		expect(rest).toEqual([]);
		expect(simplify.displayName).toBe('Simplify');
		expect(retryWhenBusy.displayName).toBe('Retry When Busy');
		expect(labels(retryWhenBusy)).toEqual([
			'Max Retries (maxRetries)',
			'Max Wait (Seconds) (maxWaitSeconds)',
		]);
		expect(requestRate.displayName).toBe('Request Rate');
		expect(labels(requestRate)).toEqual([
			'Max Requests per Second (maxPerSecond)',
			'Max Requests at Once (maxAtOnce)',
		]);
	});

	it('later versions show Simplify and Options, the limits in alphabetical order', () => {
		const [simplify, options, ...rest] = settingsPanel(1.1);
		expect(rest).toEqual([]);
		expect(simplify.displayName).toBe('Simplify');
		expect(options).toMatchObject({ displayName: 'Options', placeholder: 'Add option' });
		expect(labels(options)).toEqual([
			'Max Requests at Once (maxAtOnce)',
			'Max Requests per Second (maxPerSecond)',
			'Max Retries When Busy (maxRetries)',
			'Max Wait When Busy (Seconds) (maxWaitSeconds)',
		]);
	});
});
