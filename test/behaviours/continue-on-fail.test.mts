/**
 * With "On Error: Continue", a batch where some items fail gives one item per input item,
 * in order, each paired with its input; failed ones carry the message and the code.
 */
import type { IDataObject } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

const service = useStandIn();

let clientKey: string;
let inputs: IDataObject[];

beforeEach(async () => {
	({ clientKey } = await seedClient(service()));
	service().injectFault(
		{ kind: 'close' },
		{ when: (request) => request.rawBody.includes('Dropped') },
	);
	inputs = [
		{ clientKey, name: 'First' },
		{ clientKey, name: '' },
		{ clientKey: 'cli_unknown', name: 'Unknown client' },
		{ clientKey, name: 'Dropped' },
		{ clientKey, name: 'Last' },
	];
});

const createContract = {
	resource: 'contract',
	operation: 'create',
	clientKey: '={{ $json.clientKey }}',
	name: '={{ $json.name }}',
};

const expectedFailures = [
	{
		index: 1,
		error: {
			message: "'Contract Name' is empty",
			description: 'Enter a name for the contract, such as "Service agreement".',
		},
	},
	{
		index: 2,
		error: {
			message: 'Client not found',
			code: '404',
			description:
				"Check the keys this node sends ('Client Key', 'User Key', 'Template Key'): the service does not know one of them.",
		},
	},
	{
		index: 3,
		error: {
			// n8n's own message for the broken connection.
			message: expect.any(String),
			code: expect.any(String),
			description: expect.stringMatching(/^The contract may have been created all the same/),
		},
	},
];

describe('On Error: Continue', () => {
	it('keeps every item in place, paired, with the failed ones carrying message and code', async () => {
		const run = await runStep(service(), createContract, {
			items: inputs,
			onError: 'continueRegularOutput',
		});

		expect(run.error).toBeUndefined();
		const [output] = run.outputs('Contract Signing');
		expect(output).toHaveLength(inputs.length);
		expect(output.map((item) => item.pairedItem)).toEqual(inputs.map((_, item) => ({ item })));
		expect(output.map((item) => item.json.name ?? null)).toEqual([
			'First',
			null,
			null,
			null,
			'Last',
		]);
		for (const { index, error } of expectedFailures) {
			expect(output[index].json).toEqual({ error });
		}
		expect(
			service()
				.contracts()
				.map((contract) => contract.name),
		).toEqual(['First', 'Last']);
	});
});

describe('On Error: Continue (using error output)', () => {
	it('sends the failed items, with their input fields, to the error output and the rest on', async () => {
		const run = await runStep(service(), createContract, {
			items: inputs,
			onError: 'continueErrorOutput',
		});

		expect(run.error).toBeUndefined();
		const [success, failure] = run.outputs('Contract Signing');
		expect(success.map((item) => [item.json.name, item.pairedItem])).toEqual([
			['First', { item: 0 }],
			['Last', { item: 4 }],
		]);
		expect(failure.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }, { item: 3 }]);
		expect(failure.map((item) => item.json)).toEqual(
			expectedFailures.map(({ index, error }) => ({ ...inputs[index], error })),
		);
	});
});
