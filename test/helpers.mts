import { readFileSync } from 'node:fs';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeEach } from 'vitest';
import {
	runWorkflow,
	type CredentialSource,
	type Step,
	type WorkflowRun,
} from './engine/n8n-engine.mts';
import { startStandIn, type StandIn, type StandInOptions } from './service/stand-in.mts';

/**
 * A fresh stand-in service for each test, on a port of its own: no request, record or fault of
 * one test carries over into the next.
 */
export function useStandIn(options?: StandInOptions): () => StandIn {
	let service: StandIn | undefined;
	beforeEach(async () => {
		await service?.close();
		service = await startStandIn(options);
	});
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
	options: {
		items?: IDataObject[];
		credentials?: IDataObject | CredentialSource;
		onError?: Step['onError'];
		settings?: Step['settings'];
		cancelWhen?: Promise<unknown>;
	} = {},
): Promise<WorkflowRun & { items: IDataObject[] }> {
	const run = await runWorkflow(
		[
			{
				name: 'Contract Signing',
				parameters,
				onError: options.onError,
				settings: options.settings,
			},
		],
		{
			credentials:
				typeof options.credentials === 'function'
					? options.credentials
					: credentialsFor(service, options.credentials),
			items: options.items,
			cancelWhen: options.cancelWhen,
		},
	);
	const items = (run.outputs('Contract Signing')[0] ?? []).map((item) => item.json);
	return { ...run, items };
}

export { seedClient } from './service/seed-client.mts';

/** The output schema n8n's editor shows for an operation before a run, such as `client/create.json`. */
export function outputSchema(path: string) {
	return JSON.parse(
		readFileSync(
			new URL(`../nodes/ContractSigning/__schema__/v1.0.0/${path}`, import.meta.url),
			'utf8',
		),
	) as { properties: Record<string, { properties?: unknown; items?: { properties: object } }> };
}
