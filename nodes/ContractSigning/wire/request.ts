/**
 * One request of an item, as n8n's routing prepared it (timeout, proxy, SSL options, allowed
 * domains), sent with `httpRequestWithAuthentication` as Okta sends (`nodes/Okta/UserFunctions.ts`):
 * n8n reads the credential and its `authenticate` adds the key. What comes back is masked.
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import type { Access } from '../account/access';
import type { ItemFailure } from '../failure/item-failure';
import { CREDENTIAL_TYPE } from '../run/n8n';
import type { RunState } from '../run/run-state';
import { checkReply, type ExpectedReply, type ReplyHeaders } from './reply';
import { describeTransportFailure, networkError, notSent } from './transport-failure';

/** An item's request: what n8n prepared for it, the envelope, and what its reply must hold. */
export interface ItemRequest {
	context: IExecutePaginationFunctions;
	run: RunState;
	requestData: DeclarativeRestApiSettings.ResultOptions;
	envelope: IDataObject;
	access: Access;
	expected: ExpectedReply;
}

/** Posts the item once: the reply body when the service acted, else the failure. */
export async function postOnce(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, requestData, envelope, access } = request;
	let response: IN8nHttpFullResponse;
	try {
		const options = { ...requestData.options, body: envelope, returnFullResponse: true };
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			options as IHttpRequestOptions,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const { code, detail, sent } = networkError(error);
		const masked = access.mask.text(detail);
		const { timeout } = requestData.options;
		return sent ? describeTransportFailure(code ?? '', masked, timeout) : notSent(masked);
	}
	const { mask } = access;
	const headers = mask.value(response.headers) as ReplyHeaders;
	return checkReply(response.statusCode, mask.value(response.body), request.expected, headers);
}
