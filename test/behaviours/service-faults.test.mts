/**
 * Service faults: every way the service (or the network) can fail gives an n8n API error with
 * the service's own message where there is one (n8n's own for a network failure), and a hint of
 * what to do.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../service/stand-in.mts';
import { runStep, useStandIn } from '../helpers.mts';

const service = useStandIn();

const CHECK_KEY =
	"The service refused the API key. Check 'API Key' in the Contract Signing credential.";
const CHECK_KEYS =
	"Check the keys this node sends ('Client Key', 'User Key', 'Template Key'): the service does not know one of them.";
const CHECK_FIELDS = 'Check the fields of this node against the message above.';
/** A create the service may have acted on: the error says where to look, and nothing is resent. */
const MAY_EXIST =
	'The contract may have been created all the same: the service did not confirm it. So that it is not created twice, the node does not send it again. Look in your Contract Signing account for a contract named "NDA" of client cli_1 before you run this item again.';
const NO_WAITING = { options: { maxRetries: 0 } };
const STILL_BUSY =
	'The service is busy. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings. The node tried 0 more times, the most that Options → Max Retries When Busy allows.';

interface FaultCase {
	name: string;
	fault?: Fault;
	credentials?: IDataObject;
	parameters?: IDataObject;
	/** The message shown; none where it is n8n's own, for a network failure. */
	message?: string | RegExp;
	description: string | RegExp;
	code?: string;
	/** How many requests the service received, where that is the point. */
	requests?: number;
}

const jsonError = (status: number, message: string): Fault => ({
	kind: 'status',
	status,
	body: { code: String(status), message },
});

const faults: FaultCase[] = [
	{
		name: 'HTTP 400',
		fault: jsonError(400, 'data.contract.name is too long'),
		message: 'data.contract.name is too long',
		description: CHECK_FIELDS,
		code: '400',
	},
	{
		name: 'HTTP 401',
		fault: jsonError(401, 'Invalid service key'),
		message: 'Invalid service key',
		description: CHECK_KEY,
		code: '401',
	},
	{
		name: 'HTTP 403',
		fault: jsonError(403, 'Key may not create contracts'),
		message: 'Key may not create contracts',
		description: CHECK_KEY,
		code: '403',
	},
	{
		name: 'HTTP 404',
		fault: jsonError(404, 'Client not found'),
		message: 'Client not found',
		description: CHECK_KEYS,
		code: '404',
	},
	{
		name: 'HTTP 409',
		fault: jsonError(409, 'Client has no default user'),
		message: 'Client has no default user',
		description: /current state/,
		code: '409',
	},
	{
		name: 'HTTP 429',
		fault: jsonError(429, 'Rate limit exceeded'),
		parameters: NO_WAITING,
		message: 'Rate limit exceeded',
		description: STILL_BUSY,
		code: '429',
	},
	{
		name: 'HTTP 500',
		fault: jsonError(500, 'Internal error'),
		message: 'Internal error',
		description: MAY_EXIST,
		code: '500',
	},
	{
		name: 'HTTP 502',
		fault: jsonError(502, 'Bad gateway'),
		message: 'Bad gateway',
		description: MAY_EXIST,
		code: '502',
	},
	{
		name: 'HTTP 504, sent once',
		fault: jsonError(504, 'Gateway timeout'),
		message: 'Gateway timeout',
		description: MAY_EXIST,
		code: '504',
		requests: 1,
	},
	{
		name: 'HTTP 503',
		fault: jsonError(503, 'Down for maintenance'),
		parameters: NO_WAITING,
		message: 'Down for maintenance',
		description: STILL_BUSY,
		code: '503',
	},
	{
		name: 'HTTP 200 with an error code',
		fault: { kind: 'bodyCode', code: '404', message: 'Template not found' },
		message: 'Template not found',
		description: CHECK_KEYS,
		code: '404',
	},
	{
		name: 'code as a number',
		fault: { kind: 'bodyCode', code: 503, message: 'Busy' },
		parameters: NO_WAITING,
		message: 'Busy',
		description: STILL_BUSY,
		code: '503',
	},
	{
		name: 'an HTML error page',
		fault: { kind: 'html', status: 502 },
		message: 'The service sent a web page instead of data (HTTP 502)',
		description: MAY_EXIST,
		code: '502',
	},
	{
		name: 'an empty body',
		fault: { kind: 'empty', status: 200 },
		message: 'The service sent an empty reply (HTTP 200)',
		description: MAY_EXIST,
		code: '200',
	},
	{
		name: 'truncated JSON',
		fault: { kind: 'truncated' },
		message: /^The service sent a reply that is not JSON \(HTTP 20\d\)$/,
		description: MAY_EXIST,
	},
	{
		name: 'a reply without the contract',
		fault: { kind: 'missingResource' },
		message: 'The service replied "Contract created" but sent no contract with its contractKey',
		description: MAY_EXIST,
		code: '201',
	},
	{
		name: 'a contract record without its key',
		fault: {
			kind: 'status',
			status: 201,
			body: { code: '201', message: 'Contract created', contract: {} },
		},
		message: 'The service replied "Contract created" but sent no contract with its contractKey',
		description: MAY_EXIST,
		code: '201',
	},
	{
		name: 'HTTP 201 with code 503 and the record: not sent again, it may exist',
		fault: {
			kind: 'status',
			status: 201,
			body: { code: '503', message: 'Busy', contract: { contractKey: 'ctr_1', createTime: 't' } },
		},
		message: 'Busy',
		description: MAY_EXIST,
		code: '503',
		requests: 1,
	},
	{
		name: 'a slow reply past the timeout',
		fault: { kind: 'delay', ms: 3000 },
		parameters: { requestOptions: { timeout: 300 } },
		description: MAY_EXIST,
		code: 'ECONNABORTED',
	},
	{
		name: 'connection refused',
		credentials: { baseUrl: 'http://127.0.0.1:9' },
		parameters: NO_WAITING,
		message: /refused/i,
		description: /Nothing answers at the Base URL/,
	},
	// No route: nothing left n8n, so nothing can exist and nothing "may have been created".
	{
		name: 'no route to the host (EHOSTUNREACH: 100::1, the discard prefix)',
		credentials: { baseUrl: 'http://[100::1]:9' },
		parameters: NO_WAITING,
		code: 'EHOSTUNREACH',
		// Waited out as a busy service: the busy limit is what ends it.
		description: /Nothing answers at the Base URL.* The node tried 0 more times/,
	},
	{
		name: 'no route to the network (ENETUNREACH: 255.255.255.255)',
		credentials: { baseUrl: 'http://255.255.255.255:9' },
		parameters: NO_WAITING,
		code: 'ENETUNREACH',
		description: /Nothing answers at the Base URL.* The node tried 0 more times/,
	},
	{
		name: 'connection closed mid-reply',
		fault: { kind: 'close' },
		description: MAY_EXIST,
	},
];

describe('service fault table', () => {
	it.each(faults.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
		if (entry.fault) service().injectFault(entry.fault);
		const { error, items } = await runStep(
			service(),
			{
				resource: 'contract',
				operation: 'create',
				clientKey: 'cli_1',
				name: 'NDA',
				...entry.parameters,
			},
			{ credentials: entry.credentials },
		);

		expect(items).toEqual([]);
		expect(error?.name).toBe('NodeApiError');
		if (typeof entry.message === 'string') expect(error?.message).toBe(entry.message);
		else expect(error?.message).toMatch(entry.message ?? /\S/);
		if (typeof entry.description === 'string') expect(error?.description).toBe(entry.description);
		else expect(error?.description).toMatch(entry.description);
		if (entry.code) expect((error as { httpCode?: string }).httpCode).toBe(entry.code);
		if (entry.requests) expect(service().requests).toHaveLength(entry.requests);
	});
});

describe('a 404 to Client → Create', () => {
	it('points at the Base URL: the create sends no key the service could fail to find', async () => {
		service().injectFault(jsonError(404, 'Not found'), { path: '/v1/client' });
		const { error } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
		});

		expect(error?.message).toBe('Not found');
		expect(error?.description).toBe("Check 'Base URL' in the Contract Signing credential.");
		expect(service().requests).toHaveLength(1);
	});
});
