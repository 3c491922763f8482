/**
 * Fields read together in one evaluation give exactly what each gives read on its own: the same
 * request, or the same error naming the same field.
 */
import { describe, expect, it } from 'vitest';
import { runStep, seedClient, useStandIn } from '../helpers.mts';

const service = useStandIn();

const ITEM = {
	company: 'Analytical Engines Ltd',
	crmId: 1042,
	tags: ['a', 'b'],
	nested: { deal: { title: 'Q4 renewal' } },
	empty: '',
};

/** Contract Name set to each of these, next to a mapped Client Key (read together) or not. */
const NAMES: Array<[string, string]> = [
	['a plain mapping', '={{ $json.company }}'],
	['a number', '={{ $json.crmId }}'],
	['a method call', '={{ $json.company.toUpperCase() }}'],
	['n8n’s extension functions', '={{ $json.company.toSnakeCase() }}'],
	['a line comment', "={{ $json.nested.deal.title // the deal's title\n}}"],
	['an object literal', '={{ ({ a: 1 }).a + " " + $json.company }}'],
	['text around the expression', '=Agreement {{ $json.company }}'],
	['an empty value', '={{ $json.empty }}'],
	['a missing field', '={{ $json.nothing }}'],
	['a list', '={{ $json.tags }}'],
	['an object', '={{ $json.nested }}'],
	['a date', '={{ DateTime.fromISO("2026-01-02T03:04:05Z") }}'],
	['true', '={{ $json.crmId > 1 }}'],
	['an error', '={{ $json.nested.deal.missing.title }}'],
	['a syntax error', '={{ $json.company + }}'],
];

async function run(clientKey: string, name: string) {
	service().reset();
	const { clientKey: seeded } = await seedClient(service());
	const result = await runStep(
		service(),
		{
			resource: 'contract',
			operation: 'create',
			clientKey: clientKey === 'mapped' ? '={{ $json.clientKey }}' : seeded,
			name,
		},
		{ items: [{ ...ITEM, clientKey: seeded }], onError: 'continueRegularOutput' },
	);
	const sent = service()
		.requests.filter((request) => request.path === '/v1/contract')
		.map((request) => JSON.stringify(request.body).replaceAll(seeded, '<clientKey>'));
	const output = JSON.stringify(result.items).replaceAll(seeded, '<clientKey>');
	return { sent, output: output.replace(/ctr_[0-9a-f]+|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, '…') };
}

describe('fields read together', () => {
	it.each(NAMES)('give the same request or error for %s', async (_case, name) => {
		const alone = await run('constant', name);
		const together = await run('mapped', name);
		expect(together).toEqual(alone);
	});
});
