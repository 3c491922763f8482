/**
 * Sends an item in its turns until the service acts, and while it says it is busy (429, 503, no
 * connection), pauses within the user's limits before the next turn. A Retry-After the item waits
 * out holds back every request to the account; one beyond its wait limits fails the item and holds
 * nothing, since the other items wait for their turn without a limit (a 503 asking for an hour
 * would hold every execution for that hour).
 */
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { ItemFailure, stoppedFailure } from '../failure/item-failure';
import type { RunState } from '../run/run-state';
import { isBusyCode } from '../wire/reply';
import { postOnce, type ItemRequest } from '../wire/request';
import { accountPaces } from './account-paces';
import { optionsOf, requestLimits, waitLimits, type WaitLimits } from './limits';
import { ACCOUNT_CEILING, Pace } from './pace';
import { pause, pauseBefore } from './waits';

/** A run's cap, when the user set request limits, and its ceiling. */
interface RunPacing {
	cap?: Pace;
	ceiling: number;
	maxAtOnce?: number;
}

interface InTurns extends RunPacing {
	request: ItemRequest;
	/** The account's, shared by every execution that sends with it. */
	pace: Pace;
}

export async function sendUntilServed(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, access, run } = request;
	const item: InTurns = {
		...runPacingOf(context, run),
		request,
		pace: accountPaces.of(access.account.origin, access.account.key),
	};
	if (item.maxAtOnce !== undefined) item.pace.openTo(item.maxAtOnce);
	let retries = 0;
	let waitedMs = 0;
	let limits: WaitLimits | undefined;
	for (;;) {
		const reply = await sendInTurn(item);
		if (!(reply instanceof ItemFailure) || reply.kind !== 'busy') return reply;
		const { retryAfterMs } = reply.details;
		const nextMs = pauseBefore(retries, retryAfterMs);
		limits ??= waitLimits(optionsOf(context));
		if (retries >= limits.maxRetries || waitedMs + nextMs > limits.maxWaitMs) {
			return reply.with(stillBusy(reply, retries, waitedMs, nextMs));
		}
		if (retryAfterMs !== undefined) item.pace.holdUntil(Date.now() + nextMs);
		const stopped = await pause(nextMs, run.stop).then(() => undefined, stoppedFailure);
		if (stopped) return stopped;
		waitedMs += nextMs;
		retries += 1;
	}
}

function runPacingOf(context: IExecuteSingleFunctions, run: RunState): RunPacing {
	return run.keep(runPacingOf, () => {
		const limits = requestLimits(optionsOf(context));
		const capped = limits.maxAtOnce !== undefined || limits.maxPerSecond !== undefined;
		return {
			cap: capped ? new Pace(limits) : undefined,
			ceiling: Math.max(ACCOUNT_CEILING, limits.maxAtOnce ?? 0),
			maxAtOnce: limits.maxAtOnce,
		};
	});
}

/**
 * One send in its turn: at the run's cap when the user set one, then at the account's pace, which
 * learns how it ended. A turn is not given only when the run stops.
 */
async function sendInTurn(item: InTurns): Promise<IDataObject | ItemFailure> {
	const { request, pace, cap } = item;
	const { run } = request;
	const cappedAt = cap && (await cap.waitForTurn(run, run.stop).catch(stoppedFailure));
	if (cappedAt instanceof ItemFailure) return cappedAt;
	let ended: 'served' | 'busy' | undefined;
	let sentAt: number | ItemFailure | undefined;
	try {
		sentAt = await pace.waitForTurn(run, run.stop, item.ceiling).catch(stoppedFailure);
		if (sentAt instanceof ItemFailure) return sentAt;
		const reply = await postOnce(request);
		if (!(reply instanceof ItemFailure)) ended = 'served';
		else if (reply.kind === 'busy') ended = 'busy';
		return reply;
	} finally {
		if (typeof sentAt === 'number') pace.requestEnded(sentAt, ended);
		if (cappedAt !== undefined) cap?.requestEnded(cappedAt, undefined);
	}
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What the user reads when the service is still busy after the waits they allowed. */
function stillBusy(failure: ItemFailure, retries: number, waitedMs: number, nextMs: number) {
	const tried =
		retries === 0
			? 'The node did not wait'
			: `The node waited ${seconds(waitedMs)} and sent it ${retries} more time${retries === 1 ? '' : 's'}`;
	const asked =
		failure.details.retryAfterMs === undefined
			? ''
			: ` The service asked to wait ${seconds(nextMs)}.`;
	const limit = isBusyCode(failure.details.code)
		? ' If you know the service’s limit, set Options → Max Requests per Second to it; or run the workflow again later.'
		: '';
	return `${failure.description} ${tried}, as far as Max Retries When Busy and Max Wait When Busy (Seconds) in Options allow.${asked}${limit}`;
}
