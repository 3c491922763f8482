/**
 * Local stand-in for the Contract Signing Service HTTP API (/v1/client, /v1/user, /v1/contract).
 *
 * Keeps clients, users and contracts in memory, validates requests strictly (routes.mts), records
 * every request, can limit its rate (rate-limiter.mts) and can be told to misbehave (faults.mts),
 * so that clients can be tested against the failure modes of a real network service.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Faults, type Fault, type InjectOptions } from './faults.mts';
import { TokenBucket, type RateLimit } from './rate-limiter.mts';
import {
	ApiError,
	isObject,
	Records,
	rejectUnknownFields,
	type ClientRecord,
	type ContractRecord,
	actionOf,
	operationName,
	type Route,
	type SuccessReply,
} from './routes.mts';

export type { Fault, InjectOptions } from './faults.mts';
export type { RateLimit } from './rate-limiter.mts';
export type { ClientRecord, ContractRecord, JsonObject, Route, UserRecord } from './routes.mts';

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

export interface StandInSettings {
	latencyMs: number;
	errorsAs: 'status' | 'body';
	numericCodes: boolean;
	/** Changeable mid-run, as a service that lowers its limit under load. */
	rateLimit?: RateLimit;
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
	/** Adds an operation the API reference does not have, such as one a test adds to the node; until reset. */
	addRoute(route: Route): void;
	counts(): { clients: number; users: number; contracts: number; requests: number };
	/** The most requests under way at one moment (arrived, connection not yet closed) since start or reset. */
	mostUnderWay(): number;
	/** How many requests were under way on average, from the first one's arrival to the last one's close. */
	meanUnderWay(): number;
	clients(): ClientRecord[];
	contracts(): ContractRecord[];
	/** Clears state, request log and faults, and restores the initial settings. */
	reset(): void;
	close(): Promise<void>;
}

const HOST = '127.0.0.1';
const DEFAULT_API_KEY = 'test-service-key';
const DEFAULT_TEMPLATES = ['tpl_nda', 'tpl_service_agreement', 'tpl_offer_letter'];

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
	/** Requests under way: now, the most at one moment, and their sum over time from the first arrival. */
	const underWay = {
		now: 0,
		most: 0,
		firstAt: undefined as number | undefined,
		changedAt: 0,
		requestMs: 0,
	};
	/** `at` is the request's own receivedAt or closedAt, so that the figures follow from the request log. */
	const changeUnderWay = (by: 1 | -1, at: number) => {
		underWay.firstAt ??= at;
		underWay.requestMs += underWay.now * (at - underWay.changedAt);
		underWay.changedAt = at;
		underWay.now += by;
		underWay.most = Math.max(underWay.most, underWay.now);
	};
	const records = new Records(new Set(options.templates ?? DEFAULT_TEMPLATES));
	const bucket = new TokenBucket(() => settings.rateLimit);

	function code(status: number): string | number {
		return settings.numericCodes ? status : String(status);
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

	const faults = new Faults({ code, sendJson });
	/** The operations of the API reference; those a test adds after them go at reset. */
	const referenceRoutes = records.routes.length;

	function handleApiRequest(req: IncomingMessage, record: RecordedRequest): SuccessReply {
		if (record.method !== 'POST') throw new ApiError(405, 'Only POST is supported');
		if (!records.knows(record.path)) throw new ApiError(404, `No such resource: ${record.path}`);

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
		if (action === undefined) throw new ApiError(400, 'data.action is required');
		if (typeof action !== 'string' || action === '') {
			throw new ApiError(400, 'data.action must be a non-empty string');
		}
		const route = records.route(record.path, action);
		if (!route) throw new ApiError(400, `Unknown action '${action}' for ${record.path}`);
		return route.handle(data);
	}

	/** The request as it arrived, with when its reply went out and when its connection closed. */
	async function recordOf(
		req: IncomingMessage,
		res: ServerResponse,
	): Promise<RecordedRequest | undefined> {
		const record: RecordedRequest = {
			method: req.method ?? '',
			path: req.url ?? '',
			headers: flattenHeaders(req.headers),
			rawBody: '',
			body: undefined,
			receivedAt: Date.now(),
		};
		requests.push(record);
		changeUnderWay(1, record.receivedAt);
		res.once('finish', () => {
			record.repliedAt = Date.now();
		});
		res.once('close', () => {
			record.closedAt = Date.now();
			changeUnderWay(-1, record.closedAt);
		});
		try {
			record.rawBody = await readBody(req);
		} catch {
			// The client went away before sending its whole body: nobody to reply to.
			res.destroy();
			return undefined;
		}
		record.body = parseJson(record.rawBody);
		return record;
	}

	/** Refuses the request with 429 when the rate limit has no token for it. */
	function refusedByRateLimit(record: RecordedRequest, res: ServerResponse): boolean {
		const waitMs = bucket.take(record.receivedAt);
		if (waitMs <= 0) return false;
		record.limited = true;
		const perSecond = settings.rateLimit!.perSecond;
		sendJson(
			res,
			429,
			{ code: code(429), message: `Too many requests: at most ${perSecond} per second` },
			{ 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
		);
		return true;
	}

	async function reply(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
		const fault = faults.take(record);
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
			faults.apply(res, fault, records.route(record.path, actionOf(record)));
			return;
		}
		const done = handleApiRequest(req, record);
		sendJson(res, done.status, {
			code: code(done.status),
			message: done.message,
			[done.resourceName]: done.resource,
		});
	}

	async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const record = await recordOf(req, res);
		if (!record || refusedByRateLimit(record, res)) return;
		try {
			await reply(req, res, record);
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
			faults.inject(fault, injectOptions);
		},
		addRoute(route) {
			if (records.route(route.path, route.action)) {
				throw new Error(`the stand-in already has ${operationName(route.path, route.action)}`);
			}
			records.routes.push(route);
		},
		counts() {
			return {
				clients: records.clientsByKey.size,
				users: records.usersByKey.size,
				contracts: records.contracts.length,
				requests: requests.length,
			};
		},
		mostUnderWay() {
			return underWay.most;
		},
		meanUnderWay() {
			const span = underWay.changedAt - (underWay.firstAt ?? underWay.changedAt);
			return span > 0 ? underWay.requestMs / span : 0;
		},
		clients(): ClientRecord[] {
			return structuredClone([...records.clientsByKey.values()]);
		},
		contracts(): ContractRecord[] {
			return structuredClone(records.contracts);
		},
		reset() {
			records.routes.length = referenceRoutes;
			records.clear();
			requests.length = 0;
			underWay.most = underWay.now;
			underWay.firstAt = undefined;
			underWay.requestMs = 0;
			faults.clear();
			Object.assign(settings, initialSettings);
			bucket.reset();
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
