/**
 * How often n8n evaluates a mapped field of this node for each item, counted by the reads of the
 * input item's value, measured here. n8n's routing (n8n-core's RoutingNode) walks the node's
 * description twice for each item, once to build the request and once more to find the node's
 * own Base URL (resolveBaseUrl, for the credential's allowed domains). In each walk it evaluates
 * the value of every field described under that name, shown on the panel or not (a name described
 * twice is evaluated twice in each walk), and reads a field with a `routing.send` once more. This node's fields have none: the operation's preSend
 * reads each field it sends once (shared/envelope.ts), and each name is described once. A mapped
 * parameter whose field the panel does not show is not evaluated at all: n8n drops it when it
 * loads the workflow.
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

/** The routing-alone node with Contract Name described a second time, for a panel that never shows. */
const NAME_TWICE = 'test.routingAloneNameTwice';
const { properties } = routingAloneNode.description;
registerNodeType({
	description: {
		...routingAloneNode.description,
		name: NAME_TWICE,
		properties: [
			...properties,
			{
				...properties.find(({ name }) => name === 'name')!,
				routing: undefined,
				displayOptions: { show: { action: ['never'] } },
			},
		],
	},
});

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
	it('a field (Contract Name): 3, once in each of n8n’s two walks and once in the preSend', async () => {
		const { clientKey } = await seedClient(service());
		expect(await readsFor(createContract(clientKey, { name: MAPPED }))).toBe(3);
	});

	it('one fewer than a declarative node whose fields send themselves with routing.send: 4', async () => {
		const { clientKey } = await seedClient(service());
		const step = {
			name: 'Routing Alone',
			type: routingAloneNode.description.name,
			parameters: { clientKey, name: MAPPED },
		};
		expect(await readsFor(step)).toBe(4);
	});

	it('a name described twice, the second description never shown: one more in each walk, 6', async () => {
		const { clientKey } = await seedClient(service());
		const step = {
			name: 'Routing Alone, Name Twice',
			type: NAME_TWICE,
			parameters: { clientKey, name: MAPPED },
		};
		expect(await readsFor(step)).toBe(6);
	});

	it('a field in a collection (Additional Fields → Template Key): 3, the collection’s value in each walk and the field in the preSend', async () => {
		const { clientKey } = await seedClient(service());
		const step = createContract(clientKey, { additionalFields: { templateKey: MAPPED } });
		expect(await readsFor(step)).toBe(3);
	});

	it('a field two operations show (Client → Create’s Email, as User → Get’s): 3, described once for both', async () => {
		const step = {
			name: 'Create Client',
			parameters: {
				resource: 'client',
				operation: 'create',
				email: '={{ $json.email }}',
			},
		};
		expect(await readsFor(step)).toBe(3);
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
