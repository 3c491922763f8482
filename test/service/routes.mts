/**
 * The stand-in's routes: what the service does for each path, as the API reference describes it,
 * on clients, users and contracts kept in memory, with its strict validation.
 */
import { randomBytes } from 'node:crypto';

export type JsonObject = Record<string, unknown>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request's `data.action`, when its body has one. */
export function actionOf({ body }: { body: unknown }): unknown {
	return isObject(body) && isObject(body.data) ? body.data.action : undefined;
}

export function rejectUnknownFields(
	value: JsonObject,
	allowed: readonly string[],
	path: string,
): void {
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

export function formatTime(date: Date): string {
	return date.toISOString().slice(0, 19).replace('T', ' ');
}

const now = () => formatTime(new Date());

export function newKey(prefix: string): string {
	return prefix + randomBytes(8).toString('hex');
}

function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
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

export interface SuccessReply {
	status: number;
	message: string;
	resourceName: string;
	resource: unknown;
}

/**
 * One operation of the service: a path and a `data.action`, what it does, and the shape of its
 * success reply (what a fault that imitates a success sends, without acting).
 */
export interface Route {
	path: string;
	action: string;
	handle: (data: JsonObject) => SuccessReply;
	success: { status: number; message: string; resourceName: string; sample: () => JsonObject };
}

/** How an operation is named in the stand-in: `POST /v1/contract read`. */
export const operationName = (path: string, action: string) => `POST ${path} ${action}`;

/** The service's records, and what each path does with them. */
export class Records {
	readonly clientsByKey = new Map<string, ClientRecord>();

	readonly usersByKey = new Map<string, UserRecord>();

	readonly contracts: ContractRecord[] = [];

	constructor(private readonly templates: Set<string>) {}

	/** The operations the API reference describes; a test may add one (`StandIn.addRoute`). */
	readonly routes: Route[] = [
		{
			path: '/v1/client',
			action: 'create',
			handle: (data) => this.createClient(data),
			success: {
				status: 201,
				message: 'Client created',
				resourceName: 'client',
				sample: () => ({ createTime: now(), clientKey: newKey('cli_'), users: [] }),
			},
		},
		{
			path: '/v1/user',
			action: 'read',
			handle: (data) => this.readUser(data),
			success: {
				status: 200,
				message: 'User found',
				resourceName: 'user',
				sample: () => ({ createTime: now(), changeTime: now(), userKey: newKey('usr_') }),
			},
		},
		{
			path: '/v1/contract',
			action: 'create',
			handle: (data) => this.createContract(data),
			success: {
				status: 201,
				message: 'Contract created',
				resourceName: 'contract',
				sample: () => ({ createTime: now(), contractKey: newKey('ctr_') }),
			},
		},
	];

	/** The operation at this path with this action, if the service has it. */
	route(path: string, action: unknown): Route | undefined {
		return this.routes.find((route) => route.path === path && route.action === action);
	}

	/** Whether the service has anything at this path. */
	knows(path: string): boolean {
		return this.routes.some((route) => route.path === path);
	}

	clear(): void {
		this.clientsByKey.clear();
		this.usersByKey.clear();
		this.contracts.length = 0;
	}

	private uniqueKey(prefix: string, taken: { has(key: string): boolean }): string {
		let key = newKey(prefix);
		while (taken.has(key)) key = newKey(prefix);
		return key;
	}

	private createClient(data: JsonObject): SuccessReply {
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
		const clientKey = this.uniqueKey('cli_', this.clientsByKey);
		const users = newUsers.map((userFields, index) => {
			const user: UserRecord = withoutUndefined({
				userKey: this.uniqueKey('usr_', this.usersByKey),
				clientKey,
				createTime,
				changeTime: createTime,
				default: index === 0,
				...userFields,
			});
			this.usersByKey.set(user.userKey, user);
			return user;
		});
		this.clientsByKey.set(clientKey, withoutUndefined({ clientKey, createTime, ...fields, users }));

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

	private findClient(clientKey: string): ClientRecord {
		const client = this.clientsByKey.get(clientKey);
		if (!client) throw new ApiError(404, 'Client not found');
		return client;
	}

	private readUser(data: JsonObject): SuccessReply {
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

		const client = this.findClient(clientKey);
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

	private createContract(data: JsonObject): SuccessReply {
		rejectUnknownFields(data, ['action', 'clientKey', 'userKey', 'contract'], 'data');
		const clientKey = requiredString(data, 'clientKey', 'data');
		const userKey = optionalString(data, 'userKey', 'data');
		const contract = requiredObject(data, 'contract', 'data');
		rejectUnknownFields(contract, ['name', 'templateKey'], 'data.contract');
		const name = requiredString(contract, 'name', 'data.contract');
		const templateKey = optionalString(contract, 'templateKey', 'data.contract');

		const client = this.findClient(clientKey);
		let user: UserRecord | undefined;
		if (userKey !== undefined) {
			user = this.usersByKey.get(userKey);
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
		if (templateKey !== undefined && !this.templates.has(templateKey)) {
			throw new ApiError(404, `Template not found: ${templateKey}`);
		}

		const createTime = formatTime(new Date());
		const contractKey = newKey('ctr_');
		this.contracts.push(
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
}
