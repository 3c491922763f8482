/**
 * Per item, the node asks n8n to evaluate only the user's own field expressions: no expression
 * of its own in request defaults, routing or the credential (each costs time on every item).
 */
import { Expression } from 'n8n-workflow';
import { afterEach, expect, it, vi } from 'vitest';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

const service = useStandIn();

afterEach(() => {
	vi.restoreAllMocks();
});

it('evaluates the user’s own expressions only: twice each in n8n’s routing, once in the node', async () => {
	const { clientKey } = await seedClient(service());
	const evaluate = vi.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
	const items = Array.from({ length: 20 }, (_, index) => ({
		clientKey,
		name: `Contract ${index}`,
	}));
	const userExpressions = ['={{ $json.clientKey }}', '={{ $json.name }}'];

	const { error } = await runStep(
		service(),
		{
			resource: 'contract',
			operation: 'create',
			clientKey: userExpressions[0],
			name: userExpressions[1],
		},
		{ items },
	);

	expect(error).toBeUndefined();
	expect(
		service()
			.contracts()
			.map((contract) => contract.name),
	).toEqual(items.map((item) => item.name));
	const evaluated = evaluate.mock.calls
		.map(([value]) => value)
		.filter((value): value is string => typeof value === 'string' && value.startsWith('='));
	const perItem = evaluated.length / items.length;
	process.stdout.write(
		`expression evaluations per item: ${perItem} for ${userExpressions.length} mapped fields\n`,
	);
	// n8n's routing engine evaluates every field's expression twice per item before the node's
	// code runs (its parameter loop, then the base URL check) and keeps neither value; the node
	// reads each once.
	for (const expression of userExpressions) {
		expect(evaluated.filter((value) => value === expression)).toHaveLength(3 * items.length);
	}
	expect(perItem).toBe(3 * userExpressions.length);
});

it('costs the same 3 evaluations for a whole users list mapped by one expression', async () => {
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
			.map((client) => client.users.length),
	).toEqual(items.map(() => 2));
	const evaluated = evaluate.mock.calls
		.map(([value]) => value)
		.filter((value) => typeof value === 'string' && value.startsWith('='));
	// 6 user fields for each item, at the cost of one field: the engine's 2 and the node's read.
	expect(evaluated.length / items.length).toBe(3);
});
