/**
 * A real AI agent uses the node: n8n's AI Agent with an OpenAI chat model pointed at a scripted,
 * OpenAI-compatible stand-in on 127.0.0.1, and this node's tool variant twice (Client → Create,
 * Contract → Create) with fields from `$fromAI`. The scripted model asks for a client, then for a
 * contract with the clientKey the first tool returned, then answers; the test checks what the
 * Contract Signing stand-in received and the agent's answer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from './scripted-model.mts';
import { agentWorkflow } from './agent-workflow.mts';
import {
	EXAMPLE_CREDENTIAL_ID,
	importCredentials,
	importWorkflows,
	nodeOutputs,
} from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const OPENAI_CREDENTIAL_ID = 'csOpenAiStandIn';

const agent = agentWorkflow({
	id: 'csAgentCheck',
	trigger: 'manual',
	contractSigning: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
	openAi: { id: OPENAI_CREDENTIAL_ID, name: 'OpenAI stand-in' },
});

const agentWithoutContinue = agentWorkflow({
	id: 'csAgentNoContinue',
	trigger: 'manual',
	contractSigning: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
	openAi: { id: OPENAI_CREDENTIAL_ID, name: 'OpenAI stand-in' },
	withoutContinue: true,
});

let model: ScriptedModel;

const suite = useN8n('agent', {
	start: true,
	prepare: async () => {
		model = await startScriptedModel();
		await importCredentials(suite.home, [
			{
				id: OPENAI_CREDENTIAL_ID,
				name: 'OpenAI stand-in',
				type: 'openAiApi',
				data: { apiKey: 'sk-standin', url: model.url },
			},
		]);
		await importWorkflows(suite.home, [agent, agentWithoutContinue]);
	},
});

afterAll(async () => {
	await model?.close();
});

describe('an AI agent with the Contract Signing tools', () => {
	it('creates a client, then a contract for it, and reports the keys', async () => {
		suite.service.reset();
		model.requests.length = 0;
		const result = await suite.execute(agent.id);
		process.stdout.write(
			`agent: ${model.requests.length} model calls, ${suite.service.requests.length} requests to the service; run ${result.status}\n`,
		);
		if (result.status !== 'success') process.stdout.write(result.output.slice(-3000));

		expect(result.status).toBe('success');
		// What the model reads to choose a tool: n8n builds it from the operation's action.
		expect(model.requests[0].tools?.map((tool) => tool.function.description).sort()).toEqual([
			'Create a client in Contract Signing',
			'Create a contract in Contract Signing',
		]);
		const [client] = suite.service.clients();
		const [contract] = suite.service.contracts();
		expect(suite.service.requests.map((request) => request.body)).toEqual([
			{
				data: {
					action: 'create',
					client: {
						fullname: 'Ada Lovelace',
						email: 'ada@example.com',
						customKey: 'crm-77',
						users: [{ fullname: 'Ada Lovelace', email: 'ada@example.com' }],
					},
				},
			},
			{
				data: {
					action: 'create',
					clientKey: client.clientKey,
					contract: { name: 'Service agreement' },
				},
			},
		]);
		expect(contract.clientKey).toBe(client.clientKey);
		expect(model.requests).toHaveLength(3);
		expect(nodeOutputs(result, 'AI Agent')[0][0]).toEqual({
			output: `Created client ${client.clientKey} and contract ${contract.contractKey}.`,
		});
	});

	it('is told the service’s message when a tool call is refused, and can try again', async () => {
		suite.service.reset();
		model.requests.length = 0;
		suite.service.injectFault(
			{ kind: 'status', status: 409, body: { code: '409', message: 'Template is archived' } },
			{ path: '/v1/contract', times: 1 },
		);
		const result = await suite.execute(agent.id);

		expect(result.status).toBe('success');
		const toolResults = model.requests[2].messages.filter((message) => message.role === 'tool');
		expect(JSON.parse(String(toolResults.at(-1)?.content))).toEqual([
			{
				error: {
					message: 'Template is archived',
					code: '409',
					description: expect.stringContaining('current state of the record'),
				},
			},
		]);
		expect(suite.service.requests.map((request) => request.path)).toEqual([
			'/v1/client',
			'/v1/contract',
			'/v1/contract',
		]);
		expect(suite.service.contracts()).toHaveLength(1);
	});

	it('without On Error → Continue on the tool, the agent is not told the service’s message', async () => {
		suite.service.reset();
		model.requests.length = 0;
		suite.service.injectFault(
			{ kind: 'status', status: 409, body: { code: '409', message: 'Template is archived' } },
			{ path: '/v1/contract', times: 1 },
		);
		const result = await suite.execute(agentWithoutContinue.id);

		// n8n (1.123.81 and 2.41.1) hands the agent an empty result for the refused call, as the README says.
		expect(result.status).toBe('success');
		const toolResults = model.requests[2].messages.filter((message) => message.role === 'tool');
		expect(toolResults.at(-1)?.content).toBe('');
		expect(JSON.stringify(model.requests)).not.toContain('Template is archived');
	});
});
