import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { simplifyContractCreated } from '../../nodes/ContractSigning/resources/contract/create';
import { outputSchema, runStep, seedClient, useStandIn } from '../helpers.mts';
import {
	describeBadInput,
	LONG_TEXT,
	type BadInputCase,
	type Keys,
} from '../scenarios/bad-input.mts';

const service = useStandIn();
const createContract = { resource: 'contract', operation: 'create' };

describe('Contract → Create', () => {
	it('sends POST /v1/contract without a user key when it is left empty', async () => {
		const { clientKey } = await seedClient(service());
		const { error } = await runStep(service(), {
			...createContract,
			clientKey,
			name: 'Service agreement',
			additionalFields: { templateKey: 'tpl_service_agreement', userKey: '' },
		});

		expect(error).toBeUndefined();
		expect(service().requests).toHaveLength(1);
		const [request] = service().requests;
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v1/contract');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-service-key']).toBe(service().apiKey);
		expect(request.body).toEqual({
			data: {
				action: 'create',
				clientKey,
				contract: { name: 'Service agreement', templateKey: 'tpl_service_agreement' },
			},
		});
	});

	it('returns the contract key with what it was created for; the default user created it', async () => {
		const { clientKey, defaultUserKey } = await seedClient(service());
		const { items } = await runStep(service(), {
			...createContract,
			clientKey,
			name: 'Service agreement',
			additionalFields: { templateKey: 'tpl_service_agreement' },
		});

		const [stored] = service().contracts();
		expect(stored.userKey).toBe(defaultUserKey);
		expect(items).toEqual([
			{
				contractKey: stored.contractKey,
				createTime: stored.createTime,
				clientKey,
				name: 'Service agreement',
				templateKey: 'tpl_service_agreement',
			},
		]);
	});

	it('sends and returns the user key when one is given', async () => {
		const { clientKey, otherUserKey } = await seedClient(service());
		const { items } = await runStep(service(), {
			...createContract,
			clientKey,
			name: 'NDA',
			additionalFields: { userKey: otherUserKey },
		});

		expect(service().requests[0].body).toEqual({
			data: { action: 'create', clientKey, userKey: otherUserKey, contract: { name: 'NDA' } },
		});
		const [stored] = service().contracts();
		expect(stored.userKey).toBe(otherUserKey);
		expect(items).toEqual([
			{
				contractKey: stored.contractKey,
				createTime: stored.createTime,
				clientKey,
				userKey: otherUserKey,
				name: 'NDA',
			},
		]);
	});

	it.each([
		[
			'a client key expression that gives nothing',
			{ clientKey: '={{ $json.clientKey }}', name: 'NDA' },
			"'Client Key' is empty",
			'Enter the key of the client the contract is for, for example {{ $json.clientKey }} from a Client → Create step.',
		],
		[
			'an empty contract name',
			{ clientKey: 'cli_1', name: '   ' },
			"'Contract Name' is empty",
			'Enter a name for the contract, such as "Service agreement".',
		],
		[
			'a contract name that is a list',
			{ clientKey: 'cli_1', name: '={{ ["NDA"] }}' },
			"'Contract Name' must be text, but it is a list",
			"Set 'Contract Name' to a single text value, for example an expression such as {{ $json.name }}.",
		],
	])('refuses %s before any request', async (_case, fields, message, description) => {
		const { error } = await runStep(service(), { ...createContract, ...fields });

		expect(error?.message).toBe(message);
		expect(error?.description).toBe(description);
		expect(service().requests).toHaveLength(0);
	});

	it('shows the service’s message for an unknown template', async () => {
		const { clientKey } = await seedClient(service());
		const { error } = await runStep(service(), {
			...createContract,
			clientKey,
			name: 'NDA',
			additionalFields: { templateKey: 'tpl_missing' },
		});

		expect(error?.message).toBe('Template not found: tpl_missing');
		expect(service().contracts()).toHaveLength(0);
	});
});

describe('Contract → Create, its simplified output', () => {
	it('the contract key with the client, user, name and template it was made for', () => {
		const reply = { contract: { contractKey: 'ctr_1', createTime: 't0' } };
		const sent = {
			data: {
				clientKey: 'cli_1',
				userKey: 'usr_1',
				contract: { name: 'NDA', templateKey: 'tpl_nda' },
			},
		};
		expect(simplifyContractCreated(reply, sent)).toEqual({
			contractKey: 'ctr_1',
			createTime: 't0',
			clientKey: 'cli_1',
			userKey: 'usr_1',
			name: 'NDA',
			templateKey: 'tpl_nda',
		});
	});

	it('lists every key of the output in the schema the editor shows before a run', () => {
		const contract = simplifyContractCreated(
			{ contract: { contractKey: 'k', createTime: 't' } },
			{ data: { clientKey: 'c', userKey: 'u', contract: { name: 'n', templateKey: 't' } } },
		);
		expect(Object.keys(outputSchema('contract/create.json').properties)).toEqual(
			Object.keys(contract),
		);
	});
});

const contract = (fields: IDataObject) => (keys: Keys) => ({
	resource: 'contract',
	operation: 'create',
	clientKey: keys.clientKey,
	name: 'NDA',
	...fields,
});

const badInput: BadInputCase[] = [
	{
		name: 'contract: name from an expression that gives nothing',
		parameters: contract({ name: '={{ $json.title }}' }),
		item: {},
		expect: { refuses: "'Contract Name' is empty" },
	},
	{
		name: 'contract: over-long name',
		parameters: contract({ name: LONG_TEXT }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: LONG_TEXT } },
			}),
		},
	},
	{
		name: 'contract: name from a number',
		parameters: contract({ name: '={{ 2026 }}' }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: '2026' } },
			}),
		},
	},
	{
		name: 'contract: template key from an object',
		parameters: contract({ additionalFields: { templateKey: '={{ { key: "tpl_nda" } }}' } }),
		expect: { refuses: "'Template Key' must be text, but it is an object" },
	},
	{
		name: 'contract: whitespace-only template key and user key',
		parameters: contract({ additionalFields: { templateKey: ' ', userKey: '\t' } }),
		expect: {
			sends: (keys) => ({
				data: { action: 'create', clientKey: keys.clientKey, contract: { name: 'NDA' } },
			}),
		},
	},
	{
		name: 'contract: user key from a number',
		parameters: contract({ additionalFields: { userKey: '={{ 5 }}' } }),
		expect: {
			sends: (keys) => ({
				data: {
					action: 'create',
					clientKey: keys.clientKey,
					userKey: '5',
					contract: { name: 'NDA' },
				},
			}),
		},
	},
];

describeBadInput(service, badInput);
