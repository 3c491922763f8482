/**
 * Local stand-in for the Contract Signing Service HTTP API (/v1/client, /v1/user, /v1/contract).
 *
 * Keeps clients, users and contracts in memory, validates requests strictly, records every
 * request and can be told to misbehave (faults) so that clients can be tested against
 * the failure modes of a real network service.
 */
import { randomBytes } from 'node:crypto';
import { createServer, STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface StandInOptions {
	/** Port to listen on; 0 (the default) picks any free port. */
	port?: number;
	apiKey?: string;
	/** Delay before each reply, in milliseconds. */
	latencyMs?: number;
	/** 'status': errors use their HTTP status; 'body': HTTP 200 with the error code in the body. */
	errorsAs?: 'status' | 'body';
	/** Send `code` as a JSON number instead of a string. */
	numericCodes?: boolean;
	/** Known template keys. */
	templates?: string[];
	/** A rate limit in front of the service; none by default. */
	rateLimit?: RateLimit;
}

/**
 * The stand-in's choice (the API reference shows no limits): a token bucket in front of the
 * service, as API gateways have. Up to `burst` requests at once, refilled at `perSecond`; a request
 * beyond it gets HTTP 429 with `Retry-After` (whole seconds until a request is allowed again) and
 * is not acted on.
 */
export interface RateLimit {
	perSecond: number;
	/** How many requests may come at once; default `perSecond`. */
	burst?: number;
}

export interface RecordedRequest {
	method: string;
	/** The request target as sent, query string included. */
	path: string;
	headers: Record<string, string>;
	rawBody: string;
	/** The parsed JSON body, or undefined when the body is not valid JSON. */
	body: unknown;
	receivedAt: number;
	/** When the reply was fully handed to the network; unset while pending or when none was sent. */
	repliedAt?: number;
	/** When the connection of this request closed, whoever closed it. */
	closedAt?: number;
	/** Refused by the rate limit, not acted on. */
	limited?: boolean;
}

export type Fault =
	| { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
	/** Does what was asked (creates the record), then answers with an error all the same. */
	| { kind: 'afterActing'; status: number; body?: unknown }
	| { kind: 'redirect'; location: string; status?: number }
	| { kind: 'html'; status?: number }
	| { kind: 'empty'; status?: number }
	| { kind: 'truncated' }
	| { kind: 'missingResource' }
	| { kind: 'bodyCode'; code: string | number; message: string }
	| { kind: 'delay'; ms: number }
	| { kind: 'close' }
	/** Starts a 200 reply and never ends it: one space (valid leading JSON whitespace) every `everyMs`. */
	| { kind: 'trickle'; everyMs?: number };

export interface InjectOptions {
	/** Only requests to this exact path, e.g. '/v1/contract'. */
	path?: string;
	/** How many matching requests the fault applies to; default 1. */
	times?: number;
	when?: (req: RecordedRequest) => boolean;
}

export interface StandInSettings {
	latencyMs: number;
	errorsAs: 'status' | 'body';
	numericCodes: boolean;
	/** Changeable mid-run, as a service that lowers its limit under load. */
	rateLimit?: RateLimit;
}

export interface UserRecord {
	userKey: string;
	clientKey: string;
	createTime: string;
	changeTime: string;
	default: boolean;
	fullname?: string;
	email?: string;
	customKey?: string;
}

export interface ClientRecord {
	clientKey: string;
	createTime: string;
	fullname?: string;
	email?: string;
	organization?: string;
	customKey?: string;
	users: UserRecord[];
}

export interface ContractRecord {
	contractKey: string;
	clientKey: string;
	userKey: string;
	name: string;
	templateKey?: string;
	createTime: string;
}

export interface StandIn {
	/** 'http://127.0.0.1:<port>' */
	url: string;
	port: number;
	apiKey: string;
	/** Every request received, in order of arrival, including rejected ones. */
	requests: RecordedRequest[];
	/** Mutable at run time. */
	settings: StandInSettings;
	injectFault(fault: Fault, options?: InjectOptions): void;
	counts(): { clients: number; users: number; contracts: number; requests: number };
	clients(): ClientRecord[];
	contracts(): ContractRecord[];
	/** Clears state, request log and faults, and restores the initial settings. */
	reset(): void;
	close(): Promise<void>;
}

type JsonObject = Record<string, unknown>;

interface QueuedFault {
	fault: Fault;
	path?: string;
	remaining: number;
	when?: (req: RecordedRequest) => boolean;
}

interface SuccessReply {
	status: number;
	message: string;
	resourceName: string;
	resource: unknown;
}

const HOST = '127.0.0.1';
const DEFAULT_API_KEY = 'test-service-key';
const DEFAULT_TEMPLATES = ['tpl_nda', 'tpl_service_agreement', 'tpl_offer_letter'];

const EXPECTED_ACTION: Record<string, string> = {
	'/v1/client': 'create',
	'/v1/user': 'read',
	'/v1/contract': 'create',
};

const SUCCESS_REPLY_SHAPE: Record<string, { status: number; message: string }> = {
	'/v1/client': { status: 201, message: 'Client created' },
	'/v1/user': { status: 200, message: 'User found' },
	'/v1/contract': { status: 201, message: 'Contract created' },
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectUnknownFields(value: JsonObject, allowed: readonly string[], path: string): void {
	for (const key of Object.keys(value)) {
		if (!allowed.includes(key)) {
			throw new ApiError(400, `Unknown field ${path ? `${path}.${key}` : key}`);
		}
	}
}

function optionalString(value: JsonObject, key: string, path: string): string | undefined {
	const field = value[key];
	if (field === undefined) return undefined;
	if (typeof field !== 'string' || field === '') {
		throw new ApiError(400, `${path}.${key} must be a non-empty string`);
	}
	return field;
}

function requiredString(value: JsonObject, key: string, path: string): string {
	const field = optionalString(value, key, path);
	if (field === undefined) throw new ApiError(400, `${path}.${key} is required`);
	return field;
}

function optionalEmail(value: JsonObject, key: string, path: string): string | undefined {
	const email = optionalString(value, key, path);
	if (email !== undefined && !EMAIL_PATTERN.test(email)) {
		throw new ApiError(400, `${path}.${key} is not a valid e-mail address`);
	}
	return email;
}

function requiredObject(value: JsonObject, key: string, path: string): JsonObject {
	const field = value[key];
	if (field === undefined) throw new ApiError(400, `${path}.${key} is required`);
	if (!isObject(field)) throw new ApiError(400, `${path}.${key} must be an object`);
	return field;
}

interface UserFields {
	fullname?: string;
	email?: string;
	customKey?: string;
}

function parseNewUsers(value: unknown, path: string): UserFields[] {
	if (!Array.isArray(value) || value.length === 0) {
		throw new ApiError(400, `${path} must be a non-empty array`);
	}
	return value.map((element: unknown, index) => {
		const elementPath = `${path}[${index}]`;
		if (!isObject(element)) throw new ApiError(400, `${elementPath} must be an object`);
		rejectUnknownFields(element, ['fullname', 'email', 'customKey'], elementPath);
		const fields: UserFields = {
			fullname: optionalString(element, 'fullname', elementPath),
			email: optionalEmail(element, 'email', elementPath),
			customKey: optionalString(element, 'customKey', elementPath),
		};
		if (Object.values(fields).every((field) => field === undefined)) {
			throw new ApiError(400, `${elementPath} must have fullname, email or customKey`);
		}
		return fields;
	});
}

function formatTime(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

function newKey(prefix: string): string {
	return prefix + randomBytes(8).toString('hex');
}

function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function pause(ms: number): Promise<void> {
	if (ms <= 0) return Promise.resolve();
	// Unref'd so that a pending reply never keeps a closed stand-in's process alive.
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const templates = new Set(options.templates ?? DEFAULT_TEMPLATES);
	const initialSettings: StandInSettings = {
		latencyMs: options.latencyMs ?? 0,
		errorsAs: options.errorsAs ?? 'status',
		numericCodes: options.numericCodes ?? false,
		rateLimit: options.rateLimit,
	};
	if (initialSettings.errorsAs !== 'status' && initialSettings.errorsAs !== 'body') {
		throw new Error(`errorsAs must be 'status' or 'body', got '${String(options.errorsAs)}'`);
	}
	const settings: StandInSettings = { ...initialSettings };

	const requests: RecordedRequest[] = [];
	const faults: QueuedFault[] = [];
	const clientsByKey = new Map<string, ClientRecord>();
	const usersByKey = new Map<string, UserRecord>();
	const contracts: ContractRecord[] = [];

	function code(status: number): string | number {
		return settings.numericCodes ? status : String(status);
	}

	const bucket = { tokens: Number.NaN, refilledAt: 0 };

	/** Takes a token of the rate limit; the milliseconds until one is there when there is none. */
	function takeToken(now: number): number {
		const limit = settings.rateLimit;
		if (!limit) return 0;
		const burst = limit.burst ?? limit.perSecond;
		const refilled = Number.isNaN(bucket.tokens)
			? burst
			: bucket.tokens + ((now - bucket.refilledAt) / 1000) * limit.perSecond;
		bucket.tokens = Math.min(burst, refilled);
		bucket.refilledAt = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return 0;
		}
		return ((1 - bucket.tokens) / limit.perSecond) * 1000;
	}

	function uniqueKey(prefix: string, taken: { has(key: string): boolean }): string {
		let key = newKey(prefix);
		while (taken.has(key)) key = newKey(prefix);
		return key;
	}

	function createClient(data: JsonObject): SuccessReply {
		const path = 'data';
		rejectUnknownFields(data, ['action', 'client'], path);
		const client = requiredObject(data, 'client', path);
		const clientPath = 'data.client';
		rejectUnknownFields(
			client,
			['fullname', 'email', 'organization', 'customKey', 'users'],
			clientPath,
		);
		const fields = {
			fullname: optionalString(client, 'fullname', clientPath),
			email: optionalEmail(client, 'email', clientPath),
			organization: optionalString(client, 'organization', clientPath),
			customKey: optionalString(client, 'customKey', clientPath),
		};
		const newUsers =
			client.users === undefined ? [] : parseNewUsers(client.users, `${clientPath}.users`);
		if (Object.values(fields).every((field) => field === undefined) && newUsers.length === 0) {
			throw new ApiError(
				400,
				'data.client must have at least one of fullname, email, organization, customKey, users',
			);
		}

		const createTime = formatTime(new Date());
		const clientKey = uniqueKey('cli_', clientsByKey);
		const users = newUsers.map((userFields, index) => {
			const user: UserRecord = withoutUndefined({
				userKey: uniqueKey('usr_', usersByKey),
				clientKey,
				createTime,
				changeTime: createTime,
				default: index === 0,
				...userFields,
			});
			usersByKey.set(user.userKey, user);
			return user;
		});
		clientsByKey.set(clientKey, withoutUndefined({ clientKey, createTime, ...fields, users }));

		return {
			status: 201,
			message: 'Client created',
			resourceName: 'client',
			resource: {
				createTime,
				clientKey,
				users: users.map((user) => ({
					createTime: user.createTime,
					default: user.default,
					userKey: user.userKey,
				})),
			},
		};
	}

	function findClient(clientKey: string): ClientRecord {
		const client = clientsByKey.get(clientKey);
		if (!client) throw new ApiError(404, 'Client not found');
		return client;
	}

	function readUser(data: JsonObject): SuccessReply {
		rejectUnknownFields(data, ['action', 'clientKey', 'user'], 'data');
		const clientKey = requiredString(data, 'clientKey', 'data');
		const query = requiredObject(data, 'user', 'data');
		rejectUnknownFields(query, ['userKey', 'fullname', 'email', 'customKey'], 'data.user');
		const userKey = optionalString(query, 'userKey', 'data.user');
		const fullname = optionalString(query, 'fullname', 'data.user');
		const email = optionalEmail(query, 'email', 'data.user');
		const customKey = optionalString(query, 'customKey', 'data.user');
		if ([userKey, fullname, email, customKey].every((field) => field === undefined)) {
			throw new ApiError(
				400,
				'data.user must have at least one of userKey, fullname, email, customKey',
			);
		}

		const client = findClient(clientKey);
		const user = client.users.find(
			(candidate) =>
				(userKey === undefined || candidate.userKey === userKey) &&
				(fullname === undefined || candidate.fullname === fullname) &&
				(email === undefined || candidate.email?.toLowerCase() === email.toLowerCase()) &&
				(customKey === undefined || candidate.customKey === customKey),
		);
		if (!user) throw new ApiError(404, 'User not found');

		return {
			status: 200,
			message: 'User found',
			resourceName: 'user',
			resource: withoutUndefined({
				createTime: user.createTime,
				changeTime: user.changeTime,
				userKey: user.userKey,
				fullname: user.fullname,
				email: user.email,
				customKey: user.customKey,
			}),
		};
	}

	function createContract(data: JsonObject): SuccessReply {
		rejectUnknownFields(data, ['action', 'clientKey', 'userKey', 'contract'], 'data');
		const clientKey = requiredString(data, 'clientKey', 'data');
		const userKey = optionalString(data, 'userKey', 'data');
		const contract = requiredObject(data, 'contract', 'data');
		rejectUnknownFields(contract, ['name', 'templateKey'], 'data.contract');
		const name = requiredString(contract, 'name', 'data.contract');
		const templateKey = optionalString(contract, 'templateKey', 'data.contract');

		const client = findClient(clientKey);
		let user: UserRecord | undefined;
		if (userKey !== undefined) {
			user = usersByKey.get(userKey);
			if (user?.clientKey !== clientKey) {
				throw new ApiError(404, 'User not found for this client');
			}
		} else {
			user = client.users.find((candidate) => candidate.default);
			if (!user) {
				throw new ApiError(
					409,
					'Client has no default user: send userKey or create the client with a user',
				);
			}
		}
		if (templateKey !== undefined && !templates.has(templateKey)) {
			throw new ApiError(404, `Template not found: ${templateKey}`);
		}

		const createTime = formatTime(new Date());
		const contractKey = newKey('ctr_');
		contracts.push(
			withoutUndefined({
				contractKey,
				clientKey,
				userKey: user.userKey,
				name,
				templateKey,
				createTime,
			}),
		);

		return {
			status: 201,
			message: 'Contract created',
			resourceName: 'contract',
			resource: { createTime, contractKey },
		};
	}

	const HANDLERS: Record<string, (data: JsonObject) => SuccessReply> = {
		'/v1/client': createClient,
		'/v1/user': readUser,
		'/v1/contract': createContract,
	};

	function handleApiRequest(req: IncomingMessage, record: RecordedRequest): SuccessReply {
		if (record.method !== 'POST') throw new ApiError(405, 'Only POST is supported');
		const handler = HANDLERS[record.path];
		if (!handler) throw new ApiError(404, `No such resource: ${record.path}`);

		const givenKey = req.headers['x-service-key'];
		if (!givenKey) throw new ApiError(401, 'Missing X-Service-Key header');
		if (givenKey !== apiKey) throw new ApiError(401, 'Invalid service key');

		const contentType = req.headers['content-type']?.toLowerCase() ?? '';
		if (!contentType.startsWith('application/json')) {
			throw new ApiError(415, 'Content-Type must be application/json');
		}

		if (record.body === undefined) throw new ApiError(400, 'Request body is not valid JSON');
		if (!isObject(record.body) || !isObject(record.body.data)) {
			throw new ApiError(400, 'Request body must be {"data": {...}}');
		}
		rejectUnknownFields(record.body, ['data'], '');
		const data = record.body.data;

		const action = data.action;
		const expectedAction = EXPECTED_ACTION[record.path];
		if (action === undefined) throw new ApiError(400, 'data.action is required');
		if (typeof action !== 'string' || action === '') {
			throw new ApiError(400, 'data.action must be a non-empty string');
		}
		if (action !== expectedAction) {
			throw new ApiError(400, `Unknown action '${action}' for ${record.path}`);
		}

		return handler(data);
	}

	function sendJson(
		res: ServerResponse,
		status: number,
		body: unknown,
		headers: Record<string, string> = {},
	): void {
		if (res.destroyed) return;
		const text = JSON.stringify(body);
		res.writeHead(status, {
			...headers,
			'content-type': 'application/json; charset=utf-8',
			'content-length': Buffer.byteLength(text),
		});
		res.end(text);
	}

	function sendError(res: ServerResponse, status: number, message: string): void {
		if (status === 405 && !res.destroyed) res.setHeader('allow', 'POST');
		sendJson(res, settings.errorsAs === 'body' ? 200 : status, { code: code(status), message });
	}

	/** A plausible success body for the path, used by faults; no state is created. */
	function sampleSuccessBody(path: string): JsonObject {
		const createTime = formatTime(new Date());
		const shape = SUCCESS_REPLY_SHAPE[path] ?? { status: 200, message: 'OK' };
		const resources: Record<string, [string, unknown]> = {
			'/v1/client': ['client', { createTime, clientKey: newKey('cli_'), users: [] }],
			'/v1/user': ['user', { createTime, changeTime: createTime, userKey: newKey('usr_') }],
			'/v1/contract': ['contract', { createTime, contractKey: newKey('ctr_') }],
		};
		const [resourceName, resource] = resources[path] ?? ['result', {}];
		return { code: code(shape.status), message: shape.message, [resourceName]: resource };
	}

	function applyFault(res: ServerResponse, fault: Fault, path: string): void {
		if (res.destroyed) return;
		switch (fault.kind) {
			case 'status':
			case 'afterActing': {
				const message = STATUS_CODES[fault.status] ?? 'Injected error';
				const headers = fault.kind === 'status' ? fault.headers : undefined;
				sendJson(res, fault.status, fault.body ?? { code: code(fault.status), message }, headers);
				return;
			}
			case 'redirect': {
				res.writeHead(fault.status ?? 307, { location: fault.location, 'content-length': 0 });
				res.end();
				return;
			}
			case 'html': {
				const status = fault.status ?? 502;
				const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
				const page = `<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
				res.writeHead(status, {
					'content-type': 'text/html; charset=utf-8',
					'content-length': Buffer.byteLength(page),
				});
				res.end(page);
				return;
			}
			case 'empty': {
				res.writeHead(fault.status ?? 200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': 0,
				});
				res.end();
				return;
			}
			case 'truncated': {
				const text = JSON.stringify(sampleSuccessBody(path));
				const cut = text.slice(0, Math.floor(text.length / 2));
				res.writeHead(200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': Buffer.byteLength(cut),
				});
				res.end(cut);
				return;
			}
			case 'missingResource': {
				// Simplest form: no state is created, only code and message are sent.
				const shape = SUCCESS_REPLY_SHAPE[path] ?? { status: 200, message: 'OK' };
				sendJson(res, shape.status, { code: code(shape.status), message: shape.message });
				return;
			}
			case 'bodyCode': {
				sendJson(res, 200, { code: fault.code, message: fault.message });
				return;
			}
			case 'close': {
				const text = JSON.stringify(sampleSuccessBody(path));
				res.writeHead(200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': Buffer.byteLength(text),
				});
				res.write(text.slice(0, Math.floor(text.length / 2)), () => res.destroy());
				return;
			}
			case 'trickle': {
				res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
				res.flushHeaders();
				const drip = setInterval(() => res.write(' '), fault.everyMs ?? 500);
				drip.unref();
				res.once('close', () => clearInterval(drip));
				return;
			}
			case 'delay':
				// Handled before the normal reply; nothing to send here.
				return;
		}
	}

	function takeFault(record: RecordedRequest): Fault | undefined {
		const index = faults.findIndex(
			(queued) =>
				(queued.path === undefined || queued.path === record.path) &&
				(queued.when === undefined || queued.when(record)),
		);
		if (index === -1) return undefined;
		const queued = faults[index];
		queued.remaining -= 1;
		if (queued.remaining <= 0) faults.splice(index, 1);
		return queued.fault;
	}

	async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const record: RecordedRequest = {
			method: req.method ?? '',
			path: req.url ?? '',
			headers: flattenHeaders(req.headers),
			rawBody: '',
			body: undefined,
			receivedAt: Date.now(),
		};
		requests.push(record);
		res.once('finish', () => {
			record.repliedAt = Date.now();
		});
		res.once('close', () => {
			record.closedAt = Date.now();
		});

		try {
			record.rawBody = await readBody(req);
		} catch {
			// The client went away before sending its whole body: nobody to reply to.
			res.destroy();
			return;
		}
		record.body = parseJson(record.rawBody);

		const waitMs = takeToken(record.receivedAt);
		if (waitMs > 0) {
			record.limited = true;
			const perSecond = settings.rateLimit!.perSecond;
			sendJson(
				res,
				429,
				{ code: code(429), message: `Too many requests: at most ${perSecond} per second` },
				{ 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
			);
			return;
		}

		try {
			const fault = takeFault(record);
			const extraDelay = fault?.kind === 'delay' ? fault.ms : 0;
			await pause(settings.latencyMs + extraDelay);
			if (fault?.kind === 'afterActing') {
				try {
					handleApiRequest(req, record);
				} catch {
					// Acting failed as it would have without the fault; the fault's answer stands.
				}
			}
			if (fault && fault.kind !== 'delay') {
				applyFault(res, fault, record.path);
				return;
			}
			const reply = handleApiRequest(req, record);
			sendJson(res, reply.status, {
				code: code(reply.status),
				message: reply.message,
				[reply.resourceName]: reply.resource,
			});
		} catch (error) {
			if (error instanceof ApiError) {
				sendError(res, error.status, error.message);
			} else {
				sendError(res, 500, `Internal error: ${(error as Error).message}`);
			}
		}
	}

	const server = createServer((req, res) => void handleRequest(req, res));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen({ host: HOST, port: options.port ?? 0, backlog: 4096 }, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === 'string') {
		throw new Error('stand-in is not listening on a TCP port');
	}
	const port = address.port;

	return {
		url: `http://${HOST}:${port}`,
		port,
		apiKey,
		requests,
		settings,
		injectFault(fault, injectOptions = {}) {
			faults.push({
				fault,
				path: injectOptions.path,
				remaining: injectOptions.times ?? 1,
				when: injectOptions.when,
			});
		},
		counts() {
			return {
				clients: clientsByKey.size,
				users: usersByKey.size,
				contracts: contracts.length,
				requests: requests.length,
			};
		},
		clients() {
			return structuredClone([...clientsByKey.values()]);
		},
		contracts() {
			return structuredClone(contracts);
		},
		reset() {
			clientsByKey.clear();
			usersByKey.clear();
			contracts.length = 0;
			requests.length = 0;
			faults.length = 0;
			Object.assign(settings, initialSettings);
			bucket.tokens = Number.NaN;
		},
		close() {
			return new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			});
		},
	};
}

const USAGE = 'usage: stand-in [--port N] [--api-key K] [--latency MS] [--errors-as status|body]';

function parseArguments(argv: string[]): StandInOptions {
	const options: StandInOptions = {};
	for (let index = 0; index < argv.length; index += 2) {
		const flag = argv[index];
		const value = argv[index + 1];
		if (value === undefined) throw new Error(`missing value for ${flag}\n${USAGE}`);
		switch (flag) {
			case '--port':
				options.port = Number(value);
				break;
			case '--api-key':
				options.apiKey = value;
				break;
			case '--latency':
				options.latencyMs = Number(value);
				break;
			case '--errors-as':
				if (value !== 'status' && value !== 'body') {
					throw new Error(`--errors-as must be status or body\n${USAGE}`);
				}
				options.errorsAs = value;
				break;
			default:
				throw new Error(`unknown argument ${flag}\n${USAGE}`);
		}
	}
	for (const [name, value] of [
		['--port', options.port],
		['--latency', options.latencyMs],
	] as const) {
		if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
			throw new Error(`${name} must be a non-negative integer\n${USAGE}`);
		}
	}
	return options;
}

/** Starts the stand-in from command-line arguments and stops it on SIGINT or SIGTERM. */
export async function main(argv: string[]): Promise<StandIn> {
	const standIn = await startStandIn(parseArguments(argv));
	console.log(`stand-in listening on ${standIn.url}`);
	const stop = () => {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		void standIn.close();
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	return standIn;
}
