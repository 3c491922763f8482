import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';
import { finishEnvelope, InputProblem, type EnvelopeRules } from './envelope';
import { checkReply, type Resource } from './reply';

export type SimplifyReply = (reply: IDataObject, sent: IDataObject) => IDataObject;

/**
 * The envelope each item sent, for the output step of the same item. Keyed by the item's
 * execution context, which n8n passes to both steps, so no field is evaluated twice.
 */
const sentEnvelopes = new WeakMap<object, IDataObject>();

/** Builds a preSend step: finishes the envelope, or refuses the item before any request. */
export function prepareEnvelope(
	rules: EnvelopeRules,
	normalize: (body: IDataObject) => IDataObject = (body) => body,
) {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		try {
			const envelope = finishEnvelope(normalize(requestOptions.body as IDataObject), rules);
			sentEnvelopes.set(this, envelope);
			return { ...requestOptions, body: envelope };
		} catch (error) {
			const problem = error instanceof InputProblem;
			throw new NodeOperationError(this.getNode(), problem ? error.message : error, {
				description: problem ? error.fix : undefined,
				itemIndex: this.getItemIndex(),
			});
		}
	};
}

/** Builds the postReceive step shared by every operation: one response check, one error path. */
export function handleReply(resource: Resource, simplify: SimplifyReply) {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const pairedItem = { item: itemIndex };
		const check = checkReply(response.statusCode, response.body, resource);
		if (!check.ok) {
			if (this.continueOnFail()) {
				return [
					{
						json: {
							error: check.message,
							details: { httpCode: check.httpCode, description: check.description },
						},
						pairedItem,
					},
				];
			}
			const reply =
				typeof response.body === 'object' && response.body !== null
					? (response.body as JsonObject)
					: { message: check.message };
			throw new NodeApiError(this.getNode(), reply, {
				message: check.message,
				description: check.description,
				httpCode: check.httpCode,
				itemIndex,
			});
		}
		const json = this.getNodeParameter('simplify', true)
			? simplify(check.body, sentEnvelopes.get(this) ?? {})
			: check.body;
		return [{ json, pairedItem }];
	};
}
