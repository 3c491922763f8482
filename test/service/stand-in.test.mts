import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { startStandIn } from './stand-in.mts';
import type { StandIn } from './stand-in.mts';

let standIn: StandIn;

beforeAll(async () => {
	standIn = await startStandIn();
});

afterAll(async () => {
	await standIn.close();
});

beforeEach(() => {
	standIn.reset();
});

interface PostOptions {
	key?: string | null;
	contentType?: string;
	method?: string;
	rawBody?: string;
}

function send(path: string, body: unknown, options: PostOptions = {}): Promise<Response> {
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/json',
	};
	const key = options.key === undefined ? standIn.apiKey : options.key;
	if (key !== null) headers['x-service-key'] = key;
	return fetch(standIn.url + path, {
		method: options.method ?? 'POST',
		headers,
		body: options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
	});
}

async function post(
	path: string,
	data: unknown,
	options: PostOptions = {},
): Promise<{ status: number; body: any }> {
	const response = await send(path, { data }, options);
	return { status: response.status, body: await response.json() };
}

async function createClient(client: unknown): Promise<any> {
	const { status, body } = await post('/v1/client', { action: 'create', client });
	expect(status).toBe(201);
	return body.client;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('clients', () => {
	it('creates a client with its users, the first one being the default', async () => {
		const { status, body } = await post('/v1/client', {
			action: 'create',
			client: {
				organization: 'Acme',
				users: [{ fullname: 'Ada', email: 'ada@acme.test' }, { customKey: 'bob-1' }],
			},
		});

		expect(status).toBe(201);
		expect(body.code).toBe('201');
		expect(body.message).toBe('Client created');
		expect(body.client.clientKey).toMatch(/^cli_[0-9a-f]{16}$/);
		expect(body.client.createTime).toMatch(TIMESTAMP);
		expect(body.client.users.map((user: any) => user.default)).toEqual([true, false]);
		for (const user of body.client.users) expect(user.userKey).toMatch(/^usr_[0-9a-f]{16}$/);
		expect(standIn.counts()).toMatchObject({ clients: 1, users: 2 });
		expect(standIn.clients()[0]).toMatchObject({ organization: 'Acme' });
	});

	it('returns an empty users list when none were sent', async () => {
		const client = await createClient({ fullname: 'Solo' });
		expect(client.users).toEqual([]);
	});

	it('rejects a client without any field', async () => {
		const { status, body } = await post('/v1/client', { action: 'create', client: {} });
		expect(status).toBe(400);
		expect(body.message).toBe(
			'data.client must have at least one of fullname, email, organization, customKey, users',
		);
	});
});

describe('users', () => {
	let clientKey: string;
	let userKeys: string[];

	beforeEach(async () => {
		const client = await createClient({
			users: [
				{ fullname: 'Ada', email: 'Ada@Acme.test' },
				{ fullname: 'Bob', customKey: 'bob-1' },
			],
		});
		clientKey = client.clientKey;
		userKeys = client.users.map((user: any) => user.userKey);
	});

	it('finds a user by e-mail regardless of case', async () => {
		const { status, body } = await post('/v1/user', {
			action: 'read',
			clientKey,
			user: { email: 'ada@ACME.test' },
		});

		expect(status).toBe(200);
		expect(body.message).toBe('User found');
		expect(body.user).toEqual({
			createTime: expect.stringMatching(TIMESTAMP),
			changeTime: body.user.createTime,
			userKey: userKeys[0],
			fullname: 'Ada',
			email: 'Ada@Acme.test',
		});
	});

	it('finds a user by customKey', async () => {
		const { body } = await post('/v1/user', {
			action: 'read',
			clientKey,
			user: { customKey: 'bob-1' },
		});
		expect(body.user.userKey).toBe(userKeys[1]);
		expect(body.user).not.toHaveProperty('email');
	});

	it('requires every given field to match', async () => {
		const { status, body } = await post('/v1/user', {
			action: 'read',
			clientKey,
			user: { fullname: 'Ada', customKey: 'bob-1' },
		});
		expect(status).toBe(404);
		expect(body).toEqual({ code: '404', message: 'User not found' });
	});

	it('reports an unknown client', async () => {
		const { status, body } = await post('/v1/user', {
			action: 'read',
			clientKey: 'cli_0000000000000000',
			user: { email: 'ada@acme.test' },
		});
		expect(status).toBe(404);
		expect(body.message).toBe('Client not found');
	});
});

describe('contracts', () => {
	it('uses the default user when no userKey is sent', async () => {
		const client = await createClient({ users: [{ fullname: 'Ada' }, { fullname: 'Bob' }] });
		const { status, body } = await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			contract: { name: 'NDA', templateKey: 'tpl_nda' },
		});

		expect(status).toBe(201);
		expect(body.message).toBe('Contract created');
		expect(body.contract.contractKey).toMatch(/^ctr_[0-9a-f]{16}$/);
		expect(standIn.contracts()).toEqual([
			expect.objectContaining({
				contractKey: body.contract.contractKey,
				userKey: client.users[0].userKey,
				templateKey: 'tpl_nda',
			}),
		]);
	});

	it('uses the userKey that is sent', async () => {
		const client = await createClient({ users: [{ fullname: 'Ada' }, { fullname: 'Bob' }] });
		await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			userKey: client.users[1].userKey,
			contract: { name: 'Offer' },
		});
		expect(standIn.contracts()[0].userKey).toBe(client.users[1].userKey);
	});

	it('rejects a user of another client', async () => {
		const first = await createClient({ users: [{ fullname: 'Ada' }] });
		const second = await createClient({ users: [{ fullname: 'Bob' }] });
		const { status, body } = await post('/v1/contract', {
			action: 'create',
			clientKey: first.clientKey,
			userKey: second.users[0].userKey,
			contract: { name: 'NDA' },
		});
		expect(status).toBe(404);
		expect(body.message).toBe('User not found for this client');
	});

	it('needs a user when the client has none', async () => {
		const client = await createClient({ organization: 'Empty Ltd' });
		const { status } = await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			contract: { name: 'NDA' },
		});
		expect(status).toBe(409);
		expect(standIn.counts().contracts).toBe(0);
	});

	it('rejects an unknown template', async () => {
		const client = await createClient({ users: [{ fullname: 'Ada' }] });
		const { status, body } = await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			contract: { name: 'NDA', templateKey: 'tpl_missing' },
		});
		expect(status).toBe(404);
		expect(body.message).toBe('Template not found: tpl_missing');
	});
});

describe('request checks', () => {
	const validClient = { action: 'create', client: { fullname: 'Ada' } };

	it('rejects a missing service key', async () => {
		const { status, body } = await post('/v1/client', validClient, { key: null });
		expect(status).toBe(401);
		expect(body).toEqual({ code: '401', message: 'Missing X-Service-Key header' });
	});

	it('rejects a wrong service key', async () => {
		const { status, body } = await post('/v1/client', validClient, { key: 'nope' });
		expect(status).toBe(401);
		expect(body.message).toBe('Invalid service key');
		expect(standIn.counts().clients).toBe(0);
	});

	it('rejects unknown fields with their full path', async () => {
		const { status, body } = await post('/v1/client', {
			action: 'create',
			client: { users: [{ fullname: 'Ada', phone: '123' }] },
		});
		expect(status).toBe(400);
		expect(body.message).toBe('Unknown field data.client.users[0].phone');
	});

	it.each([
		[{ fullname: 42 }, 'data.client.fullname must be a non-empty string'],
		[{ fullname: '' }, 'data.client.fullname must be a non-empty string'],
		[{ email: 'not an@address.test' }, 'data.client.email is not a valid e-mail address'],
		[{ users: [{}] }, 'data.client.users[0] must have fullname, email or customKey'],
	])('rejects the client %j', async (client, message) => {
		const { status, body } = await post('/v1/client', { action: 'create', client });
		expect(status).toBe(400);
		expect(body.message).toBe(message);
	});

	it('rejects the wrong action', async () => {
		const { body } = await post('/v1/user', { action: 'create' });
		expect(body.message).toBe("Unknown action 'create' for /v1/user");
	});

	it('accepts only exact paths, POST and JSON', async () => {
		expect((await post('/v1/client/', validClient)).status).toBe(404);
		const get = await send('/v1/client', undefined, { method: 'GET' });
		expect(get.status).toBe(405);
		expect(get.headers.get('allow')).toBe('POST');
		const { status } = await post('/v1/client', validClient, { contentType: 'text/plain' });
		expect(status).toBe(415);
		const broken = await send('/v1/client', undefined, { rawBody: '{"data":' });
		expect(await broken.json()).toEqual({ code: '400', message: 'Request body is not valid JSON' });
	});
});

describe('settings', () => {
	const everyRequestClosed = () =>
		expect(standIn.requests.every((request) => request.closedAt !== undefined)).toBe(true);

	it('sends errors with HTTP 200 when errorsAs is body', async () => {
		standIn.settings.errorsAs = 'body';
		const { status, body } = await post('/v1/client', {}, { key: 'nope' });
		expect(status).toBe(200);
		expect(body.code).toBe('401');
	});

	it('sends numeric codes when asked to', async () => {
		standIn.settings.numericCodes = true;
		const { body } = await post('/v1/client', { action: 'create', client: { fullname: 'Ada' } });
		expect(body.code).toBe(201);
	});

	it('waits latencyMs before replying', async () => {
		standIn.settings.latencyMs = 60;
		const startedAt = Date.now();
		await post('/v1/client', { action: 'create', client: { fullname: 'Ada' } });
		expect(Date.now() - startedAt).toBeGreaterThanOrEqual(55);
	});

	it('counts the most requests under way at one moment', async () => {
		standIn.settings.latencyMs = 50;
		const create = () => post('/v1/client', { action: 'create', client: { fullname: 'Ada' } });
		await Promise.all([create(), create(), create()]);
		await vi.waitFor(everyRequestClosed);
		await create();
		await vi.waitFor(everyRequestClosed);
		// How close together the three arrive is up to the machine; the most follows from when each arrived and closed.
		const mostInLog = Math.max(
			...standIn.requests.map(
				(request) =>
					standIn.requests.filter(
						(other) =>
							other.receivedAt <= request.receivedAt && other.closedAt! > request.receivedAt,
					).length,
			),
		);
		expect(mostInLog).toBeGreaterThanOrEqual(1);
		expect(standIn.mostUnderWay()).toBe(mostInLog);
		standIn.reset();
		expect(standIn.mostUnderWay()).toBe(0);
	});

	it('counts how many requests were under way on average while any were', async () => {
		standIn.settings.latencyMs = 50;
		const create = () => post('/v1/client', { action: 'create', client: { fullname: 'Ada' } });
		await Promise.all([create(), create(), create()]);
		await vi.waitFor(everyRequestClosed);
		// How close together the three arrive is up to the machine; the mean follows from when each arrived and closed.
		const requests = standIn.requests;
		const busyMs = requests.reduce(
			(sum, request) => sum + request.closedAt! - request.receivedAt,
			0,
		);
		const spanMs =
			Math.max(...requests.map((request) => request.closedAt!)) -
			Math.min(...requests.map((request) => request.receivedAt));
		expect(standIn.meanUnderWay()).toBeCloseTo(busyMs / spanMs, 5);
		expect(standIn.meanUnderWay()).toBeLessThanOrEqual(3);
		standIn.reset();
		expect(standIn.meanUnderWay()).toBe(0);
		standIn.settings.latencyMs = 50;
		await create();
		await vi.waitFor(everyRequestClosed);
		expect(standIn.meanUnderWay()).toBeCloseTo(1, 5);
	});
});

describe('rate limit', () => {
	const validClient = { action: 'create', client: { fullname: 'Ada' } };

	// The bucket's arithmetic is rate-limiter.test.mts's; here, how the stand-in answers with it. At one
	// request per second, the eight arrive well within the second that would refill a token.
	it('lets a burst through, then answers 429 with Retry-After and acts on nothing refused', async () => {
		standIn.settings.rateLimit = { perSecond: 1, burst: 5 };
		const replies = await Promise.all(
			Array.from({ length: 8 }, async () => {
				const response = await send('/v1/client', { data: validClient });
				return { status: response.status, retryAfter: response.headers.get('retry-after') };
			}),
		);

		expect(replies.filter((reply) => reply.status === 201)).toHaveLength(5);
		expect(replies.filter((reply) => reply.status === 429)).toEqual(
			Array(3).fill({ status: 429, retryAfter: '1' }),
		);
		expect(standIn.counts().clients).toBe(5);
		expect(standIn.requests.filter((request) => request.limited)).toHaveLength(3);
	});

	it('names the limit in the 429 reply, and takes a new limit at once', async () => {
		standIn.settings.rateLimit = { perSecond: 1, burst: 1 };
		expect((await post('/v1/client', validClient)).status).toBe(201);
		expect(await post('/v1/client', validClient)).toEqual({
			status: 429,
			body: { code: '429', message: 'Too many requests: at most 1 per second' },
		});
		standIn.settings.rateLimit = undefined;
		expect((await post('/v1/client', validClient)).status).toBe(201);
	});
});

describe('faults', () => {
	const validClient = { action: 'create', client: { fullname: 'Ada' } };

	it('replies with an injected status, once', async () => {
		standIn.injectFault({ kind: 'status', status: 503 });
		const first = await post('/v1/client', validClient);
		expect(first.status).toBe(503);
		expect(first.body).toEqual({ code: '503', message: 'Service Unavailable' });
		expect((await post('/v1/client', validClient)).status).toBe(201);
		expect(standIn.counts().clients).toBe(1);
	});

	it('replies with an HTML page', async () => {
		standIn.injectFault({ kind: 'html' });
		const response = await send('/v1/client', { data: validClient });
		expect(response.status).toBe(502);
		expect(response.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await response.text()).toContain('<html>');
	});

	it('replies with an empty body', async () => {
		standIn.injectFault({ kind: 'empty' });
		const response = await send('/v1/client', { data: validClient });
		expect(response.status).toBe(200);
		expect(await response.text()).toBe('');
	});

	it('replies with a truncated JSON body', async () => {
		standIn.injectFault({ kind: 'truncated' });
		const response = await send('/v1/client', { data: validClient });
		const text = await response.text();
		expect(text.startsWith('{"code":"201"')).toBe(true);
		expect(() => JSON.parse(text)).toThrow();
	});

	it('replies without the resource member and creates nothing', async () => {
		standIn.injectFault({ kind: 'missingResource' });
		const { status, body } = await post('/v1/client', validClient);
		expect(status).toBe(201);
		expect(body).toEqual({ code: '201', message: 'Client created' });
		expect(standIn.counts().clients).toBe(0);
	});

	it('replies with an error code in a 200 body', async () => {
		standIn.injectFault({ kind: 'bodyCode', code: '429', message: 'Slow down' });
		const { status, body } = await post('/v1/client', validClient);
		expect(status).toBe(200);
		expect(body).toEqual({ code: '429', message: 'Slow down' });
	});

	it('delays and then handles the request normally', async () => {
		standIn.injectFault({ kind: 'delay', ms: 60 });
		const startedAt = Date.now();
		const { status } = await post('/v1/client', validClient);
		expect(Date.now() - startedAt).toBeGreaterThanOrEqual(55);
		expect(status).toBe(201);
	});

	it('closes the connection in the middle of the reply', async () => {
		standIn.injectFault({ kind: 'close' });
		const reply = send('/v1/client', { data: validClient }).then((response) => response.text());
		await expect(reply).rejects.toThrow();
	});

	it('applies a fault only to its path, its predicate and its number of times', async () => {
		standIn.injectFault(
			{ kind: 'status', status: 500 },
			{
				path: '/v1/contract',
				times: 2,
				when: (req) => (req.body as any)?.data?.clientKey !== 'spared',
			},
		);
		expect((await post('/v1/client', validClient)).status).toBe(201);
		const spared = { action: 'create', clientKey: 'spared' };
		expect((await post('/v1/contract', spared)).status).toBe(400);
		const statuses = [];
		for (let attempt = 0; attempt < 3; attempt++) {
			statuses.push((await post('/v1/contract', { action: 'create' })).status);
		}
		expect(statuses).toEqual([500, 500, 400]);
	});
});

describe('operations: a path and an action', () => {
	const contractRead = {
		path: '/v1/contract',
		action: 'read',
		handle: (data: Record<string, unknown>) => ({
			status: 200,
			message: 'Contract found',
			resourceName: 'contract',
			resource: { contractKey: data.contractKey, name: 'Read back' },
		}),
		success: {
			status: 200,
			message: 'Contract found',
			resourceName: 'contract',
			sample: () => ({ contractKey: 'ctr_sample' }),
		},
	};

	it('takes an added operation at a path that has another, and only until reset', async () => {
		const before = await post('/v1/contract', { action: 'read', contractKey: 'ctr_1' });
		expect(before).toEqual({
			status: 400,
			body: { code: '400', message: "Unknown action 'read' for /v1/contract" },
		});

		standIn.addRoute(contractRead);
		const read = await post('/v1/contract', { action: 'read', contractKey: 'ctr_1' });
		expect(read).toEqual({
			status: 200,
			body: {
				code: '200',
				message: 'Contract found',
				contract: { contractKey: 'ctr_1', name: 'Read back' },
			},
		});
		const client = await createClient({ users: [{ fullname: 'Ada' }] });
		const created = await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			contract: { name: 'NDA' },
		});
		expect(created.body.message).toBe('Contract created');

		standIn.reset();
		expect((await post('/v1/contract', { action: 'read', contractKey: 'ctr_1' })).status).toBe(400);
	});

	it('faults one operation of a path, and answers a faulted one in its own words', async () => {
		standIn.addRoute(contractRead);
		standIn.injectFault(
			{ kind: 'status', status: 503 },
			{ path: '/v1/contract', action: 'create' },
		);
		const read = await post('/v1/contract', { action: 'read', contractKey: 'ctr_1' });
		expect(read.status).toBe(200);

		standIn.injectFault({ kind: 'missingResource' }, { path: '/v1/contract', action: 'read' });
		const faulted = await post('/v1/contract', { action: 'read', contractKey: 'ctr_1' });
		expect(faulted).toEqual({ status: 200, body: { code: '200', message: 'Contract found' } });

		const client = await createClient({ users: [{ fullname: 'Ada' }] });
		const create = await post('/v1/contract', {
			action: 'create',
			clientKey: client.clientKey,
			contract: { name: 'NDA' },
		});
		expect(create.status).toBe(503);
	});
});

describe('request log and lifecycle', () => {
	it('records every request, rejected ones included', async () => {
		const before = Date.now();
		await post('/v1/client', { action: 'create', client: { fullname: 'Ada' } });
		await send('/v1/nothing', undefined, { rawBody: 'not json', key: null });

		expect(standIn.requests).toHaveLength(2);
		const [accepted, rejected] = standIn.requests;
		expect(accepted).toMatchObject({
			method: 'POST',
			path: '/v1/client',
			body: { data: { action: 'create', client: { fullname: 'Ada' } } },
		});
		expect(accepted.headers['x-service-key']).toBe(standIn.apiKey);
		expect(accepted.receivedAt).toBeGreaterThanOrEqual(before);
		expect(accepted.receivedAt).toBeLessThanOrEqual(rejected.receivedAt);
		expect(rejected).toMatchObject({ path: '/v1/nothing', rawBody: 'not json', body: undefined });
		expect(rejected.headers).not.toHaveProperty('x-service-key');
	});

	it('reset clears state, log and faults and restores settings', async () => {
		await createClient({ users: [{ fullname: 'Ada' }] });
		standIn.injectFault({ kind: 'status', status: 500 });
		standIn.settings.errorsAs = 'body';

		standIn.reset();

		expect(standIn.counts()).toEqual({ clients: 0, users: 0, contracts: 0, requests: 0 });
		expect(standIn.settings.errorsAs).toBe('status');
		expect(
			(await post('/v1/client', { action: 'create', client: { fullname: 'Ada' } })).status,
		).toBe(201);
	});

	it('frees its port when closed, even with a keep-alive connection open', async () => {
		const own = await startStandIn({ apiKey: 'other-key' });
		const response = await fetch(`${own.url}/v1/client`, { method: 'POST' });
		expect(response.status).toBe(401);
		await response.text();

		await own.close();

		await expect(fetch(`${own.url}/v1/client`, { method: 'POST' })).rejects.toThrow();
		const probe = createServer();
		await new Promise<void>((resolve, reject) => {
			probe.once('error', reject);
			probe.listen(own.port, '127.0.0.1', resolve);
		});
		await new Promise((resolve) => probe.close(resolve));
	});
});

describe('in a process of its own (serve.mts)', () => {
	/** serve.mts started with --until-stdin-ends, once it listens; `ended` resolves when it exits. */
	async function serve() {
		const child = spawn(
			process.execPath,
			[
				'node_modules/vite-node/vite-node.mjs',
				'test/service/serve.mts',
				'--',
				'--until-stdin-ends',
			],
			{ stdio: ['pipe', 'pipe', 'inherit'] },
		);
		const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		for await (const line of createInterface({ input: child.stdout })) {
			if (line.startsWith('stand-in listening on')) break;
		}
		return { child, ended };
	}

	it('ends when its standard input ends, as when the process that started it dies', async () => {
		const { child, ended } = await serve();
		child.stdin.end();
		await ended;
		expect(child.exitCode).toBe(0);
	}, 30_000);

	it('still ends at SIGTERM while its standard input stays open', async () => {
		const { child, ended } = await serve();
		child.kill('SIGTERM');
		await ended;
		expect(child.exitCode).toBe(0);
		child.stdin.end();
	}, 30_000);
});
