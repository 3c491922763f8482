/**
 * A scripted, OpenAI-compatible chat model on 127.0.0.1 for n8n's OpenAI Chat Model node: it asks
 * for the client tool, then for the contract tool with the clientKey the first returned, then
 * answers with both keys, as a model would for "create a client and a contract for it".
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
	stream?: boolean;
	messages: Array<{ role: string; content?: string | null }>;
	tools?: Array<{ function: { name: string; description?: string } }>;
}

/** The scripted model: what it was asked, and its replies in turn. */
export interface ScriptedModel {
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

export async function startScriptedModel(): Promise<ScriptedModel> {
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
