/**
 * Sends an item in its turns until the service acts, pausing while it is busy within the user's
 * limits. A Retry-After the item waits out holds back every request to the account; one beyond
 * its limits fails the item and holds nothing: the other items wait without a limit.
 */
import type { IDataObject } from 'n8n-workflow';
import { ItemFailure, stoppedFailure } from '../failure/item-failure';
import { isBusyCode } from '../wire/reply';
import { postOnce, type ItemRequest } from '../wire/request';
import { accountPaces } from './account-paces';
import {
	optionsOf,
	requestLimits,
	waitLimits,
	type RequestLimits,
	type WaitLimits,
} from './limits';
import type { Pace } from './pace';
import { pause, pauseBefore } from './waits';

export async function sendUntilServed(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, access, run } = request;
	// The account's pace, shared by every execution that sends with it.
	const pace = accountPaces.of(access.account.origin, access.account.key);
	const limits = run.keep(requestLimits, () => requestLimits(optionsOf(context)));
	let retries = 0;
	let waitedMs = 0;
	let waits: WaitLimits | undefined;
	for (;;) {
		const reply = await sendInTurn(request, pace, limits);
		if (!(reply instanceof ItemFailure) || reply.kind !== 'busy') return reply;
		const { retryAfterMs } = reply.details;
		const nextMs = pauseBefore(retries, retryAfterMs);
		waits ??= waitLimits(optionsOf(context));
		if (retries >= waits.maxRetries || waitedMs + nextMs > waits.maxWaitMs) {
			return reply.with(stillBusy(reply, retries, waitedMs, nextMs));
		}
		if (retryAfterMs !== undefined) pace.holdUntil(Date.now() + nextMs);
		const stopped = await pause(nextMs, run.stop).then(() => undefined, stoppedFailure);
		if (stopped) return stopped;
		waitedMs += nextMs;
		retries += 1;
	}
}

/** One send in its turn at the account's pace, which learns how it ended. */
async function sendInTurn(request: ItemRequest, pace: Pace, limits: RequestLimits) {
	const { run } = request;
	const sentAt = await pace.waitForTurn(run, run.stop, limits).catch(stoppedFailure);
	if (sentAt instanceof ItemFailure) return sentAt;
	let ended: 'served' | 'busy' | undefined;
	try {
		const reply = await postOnce(request);
		if (!(reply instanceof ItemFailure)) ended = 'served';
		else if (reply.kind === 'busy') ended = 'busy';
		return reply;
	} finally {
		pace.requestEnded(run, sentAt, ended);
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
