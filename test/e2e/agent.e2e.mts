/**
 * A real AI agent uses the node: n8n's AI Agent with an OpenAI chat model pointed at a scripted,
 * OpenAI-compatible stand-in on 127.0.0.1, and this node's tool variant twice (Client → Create,
 * Contract → Create) with fields from `$fromAI`. The scripted model asks for a client, then for a
 * contract with the clientKey the first tool returned, then answers; the test checks what the
 * Contract Signing stand-in received and the agent's answer.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	executeWorkflow,
	importCredentials,
	importWorkflows,
	n8nHomeFor,
	NODE_TYPE,
	nodeOutputs,
	removeN8nHome,
	type N8nHome,
} from './n8n-instance.mts';

const API_KEY = `sk_e2e_${randomBytes(12).toString('hex')}`;
const OPENAI_CREDENTIAL_ID = 'csOpenAiStandIn';

interface ChatRequest {
	stream?: boolean;
	messages: Array<{ role: string; content?: string | null }>;
	tools?: Array<{ function: { name: string; description?: string } }>;
}

/** The scripted model: what it was asked, and its replies in turn. */
interface ScriptedModel {
	url: string;
	requests: ChatRequest[];
	close(): Promise<void>;
}

function toolCall(name: string, args: Record<string, string>) {
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: `call_${randomBytes(4).toString('hex')}`,
				type: 'function',
				function: { name, arguments: JSON.stringify(args) },
			},
		],
	};
}

/** Client first, then a contract for the clientKey the tool returned, then the answer. */
function nextMessage(request: ChatRequest) {
	const tools = (request.tools ?? []).map((tool) => tool.function.name);
	const results = request.messages.filter((message) => message.role === 'tool');
	const said = results.map((message) => String(message.content ?? '')).join('\n');
	const clientKey = /cli_[0-9a-f]{16}/.exec(said)?.[0];
	const contractKey = /ctr_[0-9a-f]{16}/.exec(said)?.[0];
	if (!clientKey) {
		return toolCall(tools.find((name) => /client/i.test(name)) ?? 'missing_client_tool', {
			fullname: 'Ada Lovelace',
			email: 'ada@example.com',
			customKey: 'crm-77',
		});
	}
	if (!contractKey) {
		return toolCall(tools.find((name) => /contract/i.test(name)) ?? 'missing_contract_tool', {
			clientKey,
			name: 'Service agreement',
		});
	}
	return { role: 'assistant', content: `Created client ${clientKey} and contract ${contractKey}.` };
}

async function readJson(request: IncomingMessage): Promise<ChatRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
}

async function startScriptedModel(): Promise<ScriptedModel> {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((request, response) => {
		void (async () => {
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response
					.writeHead(404, { 'content-type': 'application/json' })
					.end('{"error":"not found"}');
				return;
			}
			const body = await readJson(request);
			requests.push(body);
			const message = nextMessage(body);
			const finish = 'tool_calls' in message ? 'tool_calls' : 'stop';
			const base = {
				id: 'chatcmpl-standin',
				created: Math.floor(Date.now() / 1000),
				model: 'gpt-4o-mini',
			};
			if (body.stream) {
				const delta = {
					role: 'assistant',
					content: message.content,
					...('tool_calls' in message
						? { tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
						: {}),
				};
				response.writeHead(200, { 'content-type': 'text/event-stream' });
				response.write(
					`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
				);
				response.write(
					`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`,
				);
				response.end('data: [DONE]\n\n');
				return;
			}
			response.writeHead(200, { 'content-type': 'application/json' }).end(
				JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [{ index: 0, message, finish_reason: finish }],
					usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
				}),
			);
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

const contractSigning = {
	[CREDENTIAL_TYPE]: { id: EXAMPLE_CREDENTIAL_ID, name: 'Contract Signing account' },
};

const agentWorkflow = {
	id: 'csAgentCheck',
	name: 'An AI agent creates a client and a contract',
	versionId: 'a9e7c0de-0000-4000-8000-000000000099',
	nodes: [
		{
			id: 'a9e7c0de-0000-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'a9e7c0de-0000-4000-8000-000000000002',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 2,
			position: [200, 0],
			parameters: {
				promptType: 'define',
				text: 'Create a client for Ada Lovelace (ada@example.com, CRM id crm-77), then a contract named "Service agreement" for that client. Tell me the keys.',
				options: {},
			},
		},
		{
			id: 'a9e7c0de-0000-4000-8000-000000000003',
			name: 'Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [100, 200],
			credentials: { openAiApi: { id: OPENAI_CREDENTIAL_ID, name: 'OpenAI stand-in' } },
			parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
		},
		{
			id: 'a9e7c0de-0000-4000-8000-000000000004',
			name: 'Create Client',
			// The agent reads a refusal only from an item: n8n hands it an empty result for a thrown error.
			onError: 'continueRegularOutput',
			type: `${NODE_TYPE}Tool`,
			typeVersion: 1,
			position: [300, 200],
			credentials: contractSigning,
			parameters: {
				resource: 'client',
				operation: 'create',
				fullname: "={{ $fromAI('fullname', 'Full name of the client', 'string') }}",
				email: "={{ $fromAI('email', 'Email address of the client', 'string') }}",
				customKey: "={{ $fromAI('customKey', 'The client’s id in the CRM', 'string') }}",
				// The person becomes the client's first, default user: contracts are created as them.
				users: {
					user: [
						{
							fullname: "={{ $fromAI('fullname', 'Full name of the client', 'string') }}",
							email: "={{ $fromAI('email', 'Email address of the client', 'string') }}",
						},
					],
				},
			},
		},
		{
			id: 'a9e7c0de-0000-4000-8000-000000000005',
			name: 'Create Contract',
			onError: 'continueRegularOutput',
			type: `${NODE_TYPE}Tool`,
			typeVersion: 1,
			position: [500, 200],
			credentials: contractSigning,
			parameters: {
				resource: 'contract',
				operation: 'create',
				clientKey: "={{ $fromAI('clientKey', 'clientKey returned by the client tool', 'string') }}",
				name: "={{ $fromAI('name', 'Name of the contract', 'string') }}",
			},
		},
	],
	connections: {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'Chat Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
		'Create Client': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		'Create Contract': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	active: false,
	pinData: {},
};

let service: StandIn;
let model: ScriptedModel;
let home: N8nHome | undefined;

beforeAll(async () => {
	service = await startStandIn({ apiKey: API_KEY });
	model = await startScriptedModel();
	home = await n8nHomeFor(service);
	await importCredentials(home, [
		{
			id: OPENAI_CREDENTIAL_ID,
			name: 'OpenAI stand-in',
			type: 'openAiApi',
			data: { apiKey: 'sk-standin', url: model.url },
		},
	]);
	await importWorkflows(home, [agentWorkflow]);
});

afterAll(async () => {
	await service?.close();
	await model?.close();
	removeN8nHome(home);
});

describe('an AI agent with the Contract Signing tools', () => {
	it('creates a client, then a contract for it, and reports the keys', async () => {
		service.reset();
		model.requests.length = 0;
		const result = await executeWorkflow(home!, agentWorkflow.id);
		process.stdout.write(
			`agent: ${model.requests.length} model calls, ${service.requests.length} requests to the service; run ${result.status}\n`,
		);
		if (result.status !== 'success') process.stdout.write(result.output.slice(-3000));

		expect(result.status).toBe('success');
		// What the model reads to choose a tool: n8n builds it from the operation's action.
		expect(model.requests[0].tools?.map((tool) => tool.function.description).sort()).toEqual([
			'Create client in Contract Signing',
			'Create contract in Contract Signing',
		]);
		const [client] = service.clients();
		const [contract] = service.contracts();
		expect(service.requests.map((request) => request.body)).toEqual([
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
		service.reset();
		model.requests.length = 0;
		service.injectFault(
			{ kind: 'status', status: 409, body: { code: '409', message: 'Template is archived' } },
			{ path: '/v1/contract', times: 1 },
		);
		const result = await executeWorkflow(home!, agentWorkflow.id);

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
		expect(service.requests.map((request) => request.path)).toEqual([
			'/v1/client',
			'/v1/contract',
			'/v1/contract',
		]);
		expect(service.contracts()).toHaveLength(1);
	});
});
