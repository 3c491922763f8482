/**
 * How often n8n and the node evaluate a mapped field for each item, which the description's
 * shape (resources/fields.ts, item/send.ts) and the benchmarks ("Where a run's time goes") rest
 * on: n8n's routing evaluates every field of a declarative node in each of its walks over the
 * description, shown or not, a routed field once more in each; the node reads its fields once
 * itself.
 */
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { registerNodeType, runWorkflow, type Step } from '../engine/n8n-engine.mts';
import { routingAloneNode } from '../engine/routing-alone-node.mts';
import { credentialsFor, seedClient, useStandIn } from '../helpers.mts';

const COUNTING = 'test.countingItems';
let reads = 0;
let templateReads = 0;

/** One item whose `name` and `template` count how often they are read: each evaluation of `{{ $json.name }}`. */
const countingItems: INodeType = {
	description: {
		displayName: 'Counting Items',
		name: COUNTING,
		group: ['input'],
		version: 1,
		description: 'Emits one item that counts the reads of its name',
		defaults: { name: 'Counting Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const json = {
			get name() {
				reads += 1;
				return 'NDA';
			},
			get template() {
				templateReads += 1;
				return 'tpl_nda';
			},
		};
		return [[{ json }]];
	},
};
registerNodeType(countingItems);
registerNodeType(routingAloneNode);

/** The routed node with its Contract Name described once more, hidden: as two operations might. */
const describedTwice: INodeType = {
	description: {
		...routingAloneNode.description,
		name: 'test.routingAloneNameTwice',
		properties: [
			...routingAloneNode.description.properties,
			{
				displayName: 'Contract Name',
				name: 'name',
				type: 'string',
				default: '',
				displayOptions: { show: { action: ['read'] } },
			},
		],
	},
};
registerNodeType(describedTwice);

const service = useStandIn();

async function readsOfName(step: Step): Promise<number> {
	const { clientKey } = await seedClient(service());
	reads = 0;
	const run = await runWorkflow(
		[
			{ name: 'Counting Items', type: COUNTING, parameters: {} },
			{ ...step, parameters: { ...step.parameters, clientKey, name: '={{ $json.name }}' } },
		],
		{ credentials: credentialsFor(service()) },
	);
	expect(run.error).toBeUndefined();
	expect(
		service()
			.contracts()
			.map((contract) => contract.name),
	).toEqual(['NDA']);
	return reads;
}

describe('evaluations of a mapped field, for one item', () => {
	it('this node: twice by n8n’s routing (its item loop and resolveBaseUrl), once by the node', async () => {
		const reads = await readsOfName({
			name: 'Create Contract',
			parameters: { resource: 'contract', operation: 'create' },
		});
		expect(reads).toBe(3);
	});

	it('a declarative node whose field is routed: twice more, once in each of n8n’s walks', async () => {
		const reads = await readsOfName({
			name: 'Routing Alone',
			type: routingAloneNode.description.name,
			parameters: {},
		});
		expect(reads).toBe(4);
	});

	it('a field described twice under one name: once more in each walk, shown or not', async () => {
		const reads = await readsOfName({
			name: 'Routing Alone',
			type: describedTwice.description.name,
			parameters: {},
		});
		expect(reads).toBe(6);
	});

	it('the node reads a collection of optional fields once, however many of its fields it sends', async () => {
		const { clientKey, defaultUserKey } = await seedClient(service());
		templateReads = 0;
		const run = await runWorkflow(
			[
				{ name: 'Counting Items', type: COUNTING, parameters: {} },
				{
					name: 'Create Contract',
					parameters: {
						resource: 'contract',
						operation: 'create',
						clientKey,
						name: 'NDA',
						additionalFields: { templateKey: '={{ $json.template }}', userKey: defaultUserKey },
					},
				},
			],
			{ credentials: credentialsFor(service()) },
		);
		expect(run.error).toBeUndefined();
		expect(
			service()
				.contracts()
				.map((contract) => contract.templateKey),
		).toEqual(['tpl_nda']);
		expect(templateReads).toBe(3);
	});
});
