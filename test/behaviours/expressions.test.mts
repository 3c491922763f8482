/**
 * Which expressions n8n evaluates for each item of this node, and how often, counted at n8n's
 * evaluator: the user's mapped fields (3 each: see evaluations.test.mts), the Base URL of the
 * node's requestDefaults (twice: n8n's routing builds the request, then resolves the node's own
 * Base URL once more for the credential's allowed domains), and the key of the credential's
 * `authenticate` (once per request, as n8n applies it). The node's code adds none.
 */
import { Expression } from 'n8n-workflow';
import { afterEach, expect, it, vi } from 'vitest';
import { ContractSigningApi } from '../../credentials/ContractSigningApi.credentials';
import { ContractSigning } from '../../nodes/ContractSigning/ContractSigning.node';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

const service = useStandIn();

const BASE_URL = new ContractSigning().description.requestDefaults!.baseURL!;
const API_KEY = new ContractSigningApi().authenticate.properties.headers![
	'X-Service-Key'
] as string;

afterEach(() => {
	vi.restoreAllMocks();
});

/** How often each expression was evaluated since the spy began, per item. */
function evaluationsPerItem(evaluate: { mock: { calls: unknown[][] } }, items: number) {
	const counts: Record<string, number> = {};
	for (const [value] of evaluate.mock.calls) {
		if (typeof value === 'string' && value.startsWith('='))
			counts[value] = (counts[value] ?? 0) + 1;
	}
	return Object.fromEntries(Object.entries(counts).map(([value, count]) => [value, count / items]));
}

it('per item: each of the user’s expressions 3 times, the Base URL twice and the key once', async () => {
	const { clientKey } = await seedClient(service());
	const evaluate = vi.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
	const items = Array.from({ length: 20 }, (_, index) => ({
		clientKey,
		name: `Contract ${index}`,
	}));

	const { error } = await runStep(
		service(),
		{
			resource: 'contract',
			operation: 'create',
			clientKey: '={{ $json.clientKey }}',
			name: '={{ $json.name }}',
		},
		{ items },
	);

	expect(error).toBeUndefined();
	expect(
		service()
			.contracts()
			.map((contract) => contract.name),
	).toEqual(items.map((item) => item.name));
	const perItem = evaluationsPerItem(evaluate, items.length);
	process.stdout.write(`expression evaluations per item: ${JSON.stringify(perItem)}\n`);
	expect(perItem).toEqual({
		'={{ $json.clientKey }}': 3,
		'={{ $json.name }}': 3,
		[BASE_URL]: 2,
		[API_KEY]: 1,
	});
});

it('a whole users list mapped by one expression costs what one field costs', async () => {
	const evaluate = vi.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
	const items = Array.from({ length: 10 }, (_, index) => ({
		crmId: `crm-${index}`,
		contacts: [
			{ name: `Ada ${index}`, email: `ada${index}@example.com`, id: `a-${index}` },
			{ name: `Bob ${index}`, email: `bob${index}@example.com`, id: `b-${index}` },
		],
	}));
	const usersList =
		'={{ $json.contacts.map(contact => ({ fullname: contact.name, email: contact.email, customKey: contact.id })) }}';

	const { error } = await runStep(
		service(),
		{ resource: 'client', operation: 'create', usersInput: 'list', usersList },
		{ items },
	);

	expect(error).toBeUndefined();
	expect(
		service()
			.clients()
			.map((client) => client.users.map((user) => user.customKey)),
	).toEqual(items.map((_, index) => [`a-${index}`, `b-${index}`]));
	// 6 user fields for each item, at the cost of one mapped field.
	expect(evaluationsPerItem(evaluate, items.length)).toEqual({
		[usersList]: 3,
		[BASE_URL]: 2,
		[API_KEY]: 1,
	});
});
