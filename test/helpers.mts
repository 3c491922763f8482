import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { runWorkflow, type Step, type WorkflowRun } from './engine/n8n-engine.mts';
import { startStandIn, type StandIn, type StandInOptions } from './service/stand-in.mts';

/** A stand-in service for the whole file, emptied before each test. */
export function useStandIn(options?: StandInOptions): () => StandIn {
	let service: StandIn | undefined;
	beforeAll(async () => {
		service = await startStandIn(options);
	});
	beforeEach(() => service?.reset());
	afterAll(async () => {
		await service?.close();
	});
	return () => {
		if (!service) throw new Error('the stand-in is not running');
		return service;
	};
}

export function credentialsFor(service: StandIn, overrides: IDataObject = {}) {
	return { baseUrl: service.url, apiKey: service.apiKey, ...overrides };
}

/** Runs one Contract Signing step on the given input items against the stand-in. */
export async function runStep(
	service: StandIn,
	parameters: IDataObject,
	options: { items?: IDataObject[]; credentials?: IDataObject; onError?: Step['onError'] } = {},
): Promise<WorkflowRun & { items: IDataObject[] }> {
	const run = await runWorkflow(
		[{ name: 'Contract Signing', parameters, onError: options.onError }],
		{
			credentials: credentialsFor(service, options.credentials),
			items: options.items,
		},
	);
	const items = (run.outputs('Contract Signing')[0] ?? []).map((item) => item.json);
	return { ...run, items };
}

/** Creates a client with two users directly at the stand-in, for operations that need one. */
export async function seedClient(service: StandIn) {
	const reply = await fetch(`${service.url}/v1/client`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-Service-Key': service.apiKey },
		body: JSON.stringify({
			data: {
				action: 'create',
				client: {
					fullname: 'Ada Lovelace',
					users: [
						{ fullname: 'Ada Lovelace', email: 'ada@example.com', customKey: 'crm-1' },
						{ fullname: 'Charles Babbage', email: 'charles@example.com' },
					],
				},
			},
		}),
	});
	const { client } = (await reply.json()) as {
		client: { clientKey: string; users: Array<{ userKey: string }> };
	};
	service.requests.length = 0;
	return {
		clientKey: client.clientKey,
		defaultUserKey: client.users[0].userKey,
		otherUserKey: client.users[1].userKey,
	};
}
