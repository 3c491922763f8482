/**
 * How often n8n evaluates a mapped field of this node for each item, counted by the reads of the
 * input item's value, measured here. Each evaluation of a field the node sends is n8n's routing
 * (n8n-core's RoutingNode), which walks the node's description twice for each item, once
 * to build the request and once more to find the node's own Base URL (resolveBaseUrl, for the
 * credential's allowed domains). In each walk it evaluates the value of every field described
 * under that name, shown on the panel or not, and then reads a routed field that the panel shows
 * once more for its `routing.send`. A mapped parameter whose field the panel does not show is not
 * evaluated at all: n8n drops it when it loads the workflow.
 */
import {
	NodeConnectionTypes,
	type IDataObject,
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

/** One item whose `value` and `email` count how often they are read: each evaluation of `{{ $json.value }}`. */
const countingItems: INodeType = {
	description: {
		displayName: 'Counting Items',
		name: COUNTING,
		group: ['input'],
		version: 1,
		description: 'Emits one item that counts the reads of its values',
		defaults: { name: 'Counting Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const json = {
			get value() {
				reads += 1;
				return 'tpl_nda';
			},
			get email() {
				reads += 1;
				return 'tpl_nda@example.com';
			},
		};
		return [[{ json }]];
	},
};
registerNodeType(countingItems);
registerNodeType(routingAloneNode);

const service = useStandIn();
const MAPPED = '={{ $json.value }}';

/** The reads of the mapped value while one item runs through the step; the step must succeed. */
async function readsFor(step: Step): Promise<number> {
	reads = 0;
	const run = await runWorkflow(
		[{ name: 'Counting Items', type: COUNTING, parameters: {} }, step],
		{
			credentials: credentialsFor(service()),
		},
	);
	expect(run.error).toBeUndefined();
	expect(service().requests.at(-1)?.rawBody).toContain('tpl_nda');
	return reads;
}

const createContract = (clientKey: string, parameters: IDataObject): Step => ({
	name: 'Create Contract',
	parameters: { resource: 'contract', operation: 'create', clientKey, name: 'NDA', ...parameters },
});

describe('evaluations of a mapped field, for one item', () => {
	it('a field described once (Contract Name): 4, twice in each of n8n’s two walks', async () => {
		const { clientKey } = await seedClient(service());
		expect(await readsFor(createContract(clientKey, { name: MAPPED }))).toBe(4);
	});

	it('the same as a declarative node with routing alone, with no code of its own', async () => {
		const { clientKey } = await seedClient(service());
		const step = {
			name: 'Routing Alone',
			type: routingAloneNode.description.name,
			parameters: { clientKey, name: MAPPED },
		};
		expect(await readsFor(step)).toBe(4);
	});

	it('a field in a collection (Additional Fields → Template Key): 4, the collection’s value and the field’s routing in each walk', async () => {
		const { clientKey } = await seedClient(service());
		const step = createContract(clientKey, { additionalFields: { templateKey: MAPPED } });
		expect(await readsFor(step)).toBe(4);
	});

	it('a field whose name another operation describes too (Client → Create’s Email, as User → Get’s): 6, once more in each walk', async () => {
		const step = {
			name: 'Create Client',
			parameters: {
				resource: 'client',
				operation: 'create',
				email: '={{ $json.email }}',
			},
		};
		expect(await readsFor(step)).toBe(6);
	});

	it('a mapped parameter of a field the panel does not show: not evaluated', async () => {
		const { clientKey } = await seedClient(service());
		// Email is a field of Client → Create and User → Get, not of Contract → Create.
		const step = createContract(clientKey, {
			email: MAPPED,
			additionalFields: { templateKey: 'tpl_nda' },
		});
		expect(await readsFor(step)).toBe(0);
	});
});
