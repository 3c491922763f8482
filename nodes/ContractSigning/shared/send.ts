import {
	NodeApiError,
	NodeOperationError,
	UserError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INode,
	type INodeExecutionData,
	type INodePropertyRouting,
	type JsonObject,
} from 'n8n-workflow';
import { finishEnvelope, type EnvelopeRules, type WireField } from './envelope';
import { checkReply, describeTransportFailure, withoutSecret, type Resource } from './reply';

const CREDENTIAL_TYPE = 'contractSigningApi';

export type SimplifyReply = (reply: IDataObject, sent: IDataObject) => IDataObject;

export interface Operation {
	url: string;
	action: string;
	resource: Resource;
	fields: WireField[];
	rules: EnvelopeRules;
	simplify: SimplifyReply;
	/** Reshapes what the fields gave before the rules apply. */
	normalize?: (body: IDataObject) => IDataObject;
}

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) {
		node[key] ??= {};
		node = node[key] as IDataObject;
	}
	node[keys[keys.length - 1]] = value as IDataObject[string];
}

/** The request body as the operation's fields give it, each read once for this item. */
function readFields(context: IExecuteSingleFunctions, operation: Operation): IDataObject {
	const body: IDataObject = { data: { action: operation.action } };
	for (const { property, path, onlyWhen } of operation.fields) {
		if (onlyWhen && context.getNodeParameter(onlyWhen.parameter, '') !== onlyWhen.value) continue;
		setPath(body, path, context.getNodeParameter(property.name, property.default));
	}
	return body;
}

/** Errors made from the service's own reply, as opposed to transport failures. */
const replyErrors = new WeakSet<object>();

/** The postReceive step of every operation: a reply the node can use, or the service's message. */
function requireSuccess(resource: Resource) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const check = checkReply(response.statusCode, response.body, resource);
		if (check.ok) return items;
		// A service may echo the key it refused; the error, which n8n stores, must not carry it.
		const { apiKey } = await this.getCredentials<{ apiKey?: string }>(CREDENTIAL_TYPE);
		const body = withoutSecret(response.body, apiKey);
		const failed = withoutSecret(check, apiKey);
		const reply =
			typeof body === 'object' && body !== null
				? (body as JsonObject)
				: { message: failed.message };
		const error = new NodeApiError(this.getNode(), reply, {
			message: failed.message,
			description: failed.description,
			httpCode: failed.httpCode,
			itemIndex: this.getItemIndex(),
		});
		replyErrors.add(error);
		throw error;
	};
}

interface Failure {
	error: NodeApiError | NodeOperationError;
	/** HTTP status, the service's code, or the network error code; none for refused input. */
	code?: string;
}

/**
 * One error per cause, each naming what to do. Network failures are rebuilt from their message
 * and code only, so no request details (headers with the API key) travel on; their code is kept
 * apart, since n8n rewrites the message of an error whose code it recognises.
 */
function asFailure(node: INode, error: unknown, itemIndex: number): Failure {
	if (error instanceof UserError) {
		return {
			error: new NodeOperationError(node, error.message, {
				description: error.description ?? undefined,
				itemIndex,
			}),
		};
	}
	if (error instanceof NodeApiError && replyErrors.has(error)) {
		return { error, code: error.httpCode ?? undefined };
	}
	const failure = error as { message?: string; cause?: { code?: string; message?: string } };
	const code = failure.cause?.code;
	const { message, description } = describeTransportFailure(
		code ?? '',
		failure.cause?.message ?? '',
		failure.message ?? String(error),
	);
	return { error: new NodeApiError(node, { message }, { message, description, itemIndex }), code };
}

/**
 * Sends one item's request. n8n calls this in place of its own send because the routing sets
 * `paginate`: it is the one place where the envelope is finished and checked, the reply shaped,
 * and every failure (refused input, service error, no connection) either thrown or, with
 * "On Error: Continue", returned as an item paired with its input.
 */
function sendGuarded(operation: Operation) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const pairedItem = { item: itemIndex };
		try {
			const normalize = operation.normalize ?? ((body: IDataObject) => body);
			const envelope = finishEnvelope(normalize(readFields(this, operation)), operation.rules);
			const [reply] = await this.makeRoutingRequest({
				...requestData,
				options: { ...requestData.options, body: envelope },
			});
			const json = this.getNodeParameter('simplify', true)
				? operation.simplify(reply.json, envelope)
				: reply.json;
			return [{ json, pairedItem }];
		} catch (error) {
			const { error: nodeError, code } = asFailure(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			const details = {
				...(code ? { code } : {}),
				...(nodeError.description ? { description: nodeError.description } : {}),
			};
			return [{ json: { error: nodeError.message, details }, pairedItem }];
		}
	};
}

/**
 * The routing of an operation: a POST of the `data` envelope, built from the operation's fields
 * and sent and checked as above. The fields carry no routing of their own: n8n evaluates the
 * expression of every routed field once more per item to find the base URL.
 */
export function operationRouting(operation: Operation): INodePropertyRouting {
	return {
		request: { method: 'POST', url: operation.url, ignoreHttpStatusErrors: true },
		send: { paginate: true },
		operations: { pagination: sendGuarded(operation) },
		output: { postReceive: [requireSuccess(operation.resource)] },
	};
}
