import { expect, it } from 'vitest';
import { runWorkflow } from '../engine/n8n-engine.mts';
import { credentialsFor, useStandIn } from '../helpers.mts';

const service = useStandIn();

it('chains Create Client → Create Contract → Get User with expressions on earlier steps', async () => {
	const run = await runWorkflow(
		[
			{
				name: 'Create Client',
				parameters: {
					resource: 'client',
					operation: 'create',
					organization: '={{ $json.company }}',
					users: { user: [{ fullname: '={{ $json.name }}', email: '={{ $json.email }}' }] },
				},
			},
			{
				name: 'Create Contract',
				parameters: {
					resource: 'contract',
					operation: 'create',
					clientKey: '={{ $json.clientKey }}',
					name: "={{ 'Service agreement for ' + $('Items').item.json.company }}",
					additionalFields: { templateKey: 'tpl_service_agreement' },
				},
			},
			{
				name: 'Get User',
				parameters: {
					resource: 'user',
					operation: 'get',
					clientKey: "={{ $('Create Client').item.json.clientKey }}",
					email: "={{ $('Items').item.json.email }}",
				},
			},
		],
		{
			credentials: credentialsFor(service()),
			items: [
				{ company: 'Analytical Engines Ltd', name: 'Ada Lovelace', email: 'ada@example.com' },
			],
		},
	);

	expect(run.error).toBeUndefined();
	const [client] = service().clients();
	const [contract] = service().contracts();
	expect(contract.clientKey).toBe(client.clientKey);
	expect(contract.userKey).toBe(client.users[0].userKey);
	expect(run.outputs('Create Contract')[0][0].json).toMatchObject({
		contractKey: contract.contractKey,
		clientKey: client.clientKey,
		name: 'Service agreement for Analytical Engines Ltd',
	});
	expect(run.outputs('Get User')[0][0].json).toMatchObject({
		userKey: client.users[0].userKey,
		email: 'ada@example.com',
	});
	expect(service().requests.map((request) => request.path)).toEqual([
		'/v1/client',
		'/v1/contract',
		'/v1/user',
	]);
});
