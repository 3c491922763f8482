/**
 * The node's `requestOperations.pagination`, which n8n's routing calls for each item once the
 * request is built and checked: it sends with `this.makeRoutingRequest` (n8n's own send, then the
 * operation's `postReceive`), as n8n's Okta node wraps its send, and adds three things routing
 * leaves to the node: a busy service waited out, Retry On Fail that never sends a finished item
 * again, and the item's error as its output under On Error → Continue. Each operation's routing,
 * `operationRouting`, sends its item here.
 */
import {
	NodeApiError,
	sleep,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
	type INodePropertyRouting,
	type JsonObject,
} from 'n8n-workflow';
import { finishEnvelope, whereToLook, type EnvelopeRules } from './envelope';
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_WAIT_SECONDS } from './fields';
import { checkReply, TRY_LATER, type ExpectedReply, type Outcome } from './reply';
import { earlierResult, keepResult, sentOf, type ItemResult } from './sent';

const CHECK = "Check 'Base URL' in the Contract Signing credential";
/** Network failures by code: whether the request left, and the hint n8n's own message lacks. */
const NETWORK: Record<string, [Outcome, string]> = {
	ECONNREFUSED: ['busy', `Nothing answers at the Base URL. ${CHECK} and that the service is up.`],
	EAI_AGAIN: ['busy', `Nothing was sent: the name server did not answer. ${TRY_LATER}`],
	ENOTFOUND: ['refused', `Nothing was sent: the Base URL’s host name is unknown. ${CHECK}.`],
	ECONNABORTED: [
		'unknown',
		`The reply did not come in time. ${TRY_LATER} To give the service more time, add Timeout under the node’s Settings → Request Options.`,
	],
	ERR_INVALID_URL: ['refused', `Nothing was sent: the Base URL is not a web address. ${CHECK}.`],
	TLS: [
		'refused',
		`Nothing was sent: the service’s secure connection could not be trusted. ${CHECK}; for a certificate of your own organisation, turn on Ignore SSL Issues under the node’s Settings → Request Options.`,
	],
	// No network code and not axios's: it came before the request, such as a credential n8n cannot read.
	'': ['refused', 'Nothing was sent. Check the Contract Signing credential.'],
};
const TLS =
	/^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|ERR_TLS_|ERR_SSL_|EPROTO$|HOSTNAME_MISMATCH$)/;

type Failure = NodeApiError & { context: { outcome?: Outcome; retryAfterMs?: number } };

/** The network's code of a failed request, which n8n 1.x and 2.x both put in the error's `httpCode`. */
function networkCode(error: Failure): string | undefined {
	const code = error.httpCode;
	return typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? code : undefined;
}

/** What a failure means for the item; a network failure gets the hint n8n's message lacks. */
function classify(error: Failure): Outcome {
	if (error.context?.outcome) return error.context.outcome;
	const network = networkCode(error) ?? '';
	// No route to the host is, like a refused connection, a request that never left.
	let code = TLS.test(network) ? 'TLS' : network.replace(/^E(HOST|NET)UNREACH$/, 'ECONNREFUSED');
	if (!code && (error.cause as { isAxiosError?: unknown })?.isAxiosError) code = 'sent';
	const [outcome, hint] = NETWORK[code] ?? ['unknown', TRY_LATER];
	Object.assign(error, { description: hint, context: { ...error.context, outcome } });
	return outcome;
}

/**
 * The pause before try `attempt + 1`: Retry-After, stretched by up to half, or a backoff doubling
 * from 1 s to 20 s, spread over half to one and a half its length, whichever is longer. The spread
 * keeps items turned away together from returning together; a backoff that stops growing at 20 s
 * keeps the last of a storm from sleeping while the service is free.
 */
export function pauseBefore(attempt: number, retryAfterMs = 0, random = Math.random): number {
	const backoff = Math.min(20_000, 1000 * 2 ** attempt);
	return Math.round(Math.max(retryAfterMs * (1 + random() / 2), backoff * (0.5 + random())));
}

/**
 * Waits `ms`, or less if the execution is stopped: n8n aborts the execution's cancel signal on Stop
 * (and puts it on each request, so none is sent after it).
 */
async function pauseUnlessStopped(ms: number, signal: AbortSignal | undefined): Promise<void> {
	let stop = () => {};
	const stopped = new Promise<void>((resolve) => (stop = resolve));
	signal?.addEventListener('abort', stop, { once: true });
	await Promise.race([sleep(ms), stopped]);
	signal?.removeEventListener('abort', stop);
}

/** The item's reply; a busy service is asked again within the item's limits, unless the execution stopped. */
async function sendWhileBusy(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[] | undefined> {
	const signal = context.getExecutionCancelSignal();
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const maxRetries = Number(options.maxRetries ?? DEFAULT_MAX_RETRIES);
	const giveUpAt = Date.now() + Number(options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000;
	for (let attempt = 0; !signal?.aborted; attempt++) {
		try {
			return await context.makeRoutingRequest(requestData);
		} catch (caught) {
			const error = caught as Failure;
			if (classify(error) !== 'busy') throw error;
			const { retryAfterMs } = error.context;
			const pause = pauseBefore(attempt, retryAfterMs);
			if (attempt >= maxRetries) {
				error.description += ` The node tried ${attempt} more time${attempt === 1 ? '' : 's'}, the most that Options → Max Retries When Busy allows.`;
				throw error;
			}
			if (Date.now() + pause > giveUpAt) {
				const asked = retryAfterMs
					? `; the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s more`
					: '';
				error.description += ` The node stopped waiting: Options → Max Wait When Busy (Seconds) does not allow a longer wait${asked}.`;
				throw error;
			}
			await pauseUnlessStopped(pause, signal);
		}
	}
	return undefined;
}

/**
 * The item's output: its result, or its error, as an item under On Error → Continue (in the one
 * shape n8n 1.x and 2.x both send to the error output) or thrown.
 */
function asItems(context: IExecutePaginationFunctions, result: ItemResult): INodeExecutionData[] {
	const pairedItem = { item: context.getItemIndex() };
	if ('json' in result) return result.json.map((json) => ({ json, pairedItem }));
	if (context.continueOnFail()) return [{ json: { error: result.error }, pairedItem }];
	const { message, description, code } = result.error as Record<string, string | undefined>;
	throw new NodeApiError(context.getNode(), result.error as JsonObject, {
		message,
		description,
		httpCode: code,
		itemIndex: context.getItemIndex(),
	});
}

export async function sendItem(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const remember = this.getNode().retryOnFail === true;
	const sent = sentOf(this);
	const earlier = sent.refused ?? (remember ? earlierResult(this) : undefined);
	try {
		if (earlier) return asItems(this, earlier);
		const items = await sendWhileBusy(this, requestData);
		const result = { json: (items ?? []).map((item) => item.json) };
		if (remember && items) keepResult(this, result);
		return asItems(this, result);
	} catch (caught) {
		// Stopped: n8n no longer waits for this run's output, so its error would reach no one.
		if (this.getExecutionCancelSignal()?.aborted) return [];
		const error = caught as Failure;
		const mayExist = error.context?.outcome === 'unknown' ? whereToLook(sent) : undefined;
		if (mayExist) error.description = mayExist;
		const { message, description } = error;
		const code = error.httpCode;
		const failed = {
			error: { message, ...(code && { code }), ...(description && { description }) },
		};
		if (mayExist && remember) keepResult(this, failed);
		if (this.continueOnFail()) return asItems(this, failed);
		throw error;
	} finally {
		sentOf(this, true);
	}
}

/**
 * An operation's routing: its envelope, `{ data: { action } }` made by `finishEnvelope` from its
 * rules, posted to `url` through the node's send (`paginate`), and its reply checked by `checkReply`.
 */
export function operationRouting(
	url: string,
	action: string,
	rules: EnvelopeRules,
	expected: ExpectedReply,
): INodePropertyRouting {
	return {
		request: { method: 'POST', url, body: { data: { action } } },
		send: { paginate: true, preSend: [finishEnvelope(rules, action)] },
		output: { postReceive: [checkReply(expected)] },
	};
}
