/**
 * Sends an item in its turns until the service acts: a turn at the run's own cap (the Max
 * Requests options), then at the account's pace (pace.ts), and while the service says it is busy
 * (429, 503, no connection), a wait within the user's limits for a busy service before the next
 * turn. One Retry-After holds back every request to the account.
 */
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { ItemFailure, stoppedFailure } from '../failure/item-failure';
import { PerRun } from '../run/per-run';
import type { RunState } from '../run/run-state';
import { isBusyCode } from '../wire/reply';
import { postOnce, type ItemRequest } from '../wire/request';
import { accountPaces } from './account-paces';
import { LIMITS_SHOWN, paceLimitsOf, waitLimitsOf, type WaitLimits } from './limits';
import { ACCOUNT_CEILING, Pace, type PaceOutcome } from './pace';
import { pause, pauseBefore } from './waits';

/** A run's limits: its cap, the Max Requests the user set, and its ceiling at the account's pace. */
interface RunLimits {
	/** A pace of the run's own that keeps to those limits and learns nothing; none when the user set neither. */
	cap?: Pace;
	/** The run's requests go only while fewer than this many of the account's are under way. */
	ceiling: number;
	maxAtOnce?: number;
}

/** The item's request on its way, with its run's limits and the account's pace. */
interface InTurns extends RunLimits {
	request: ItemRequest;
	/** Shared by every execution that sends with the same account. */
	pace: Pace;
}

/** The service's reply body once it acted, or the failure when it did not or may have. */
export async function sendUntilServed(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, access, run } = request;
	const item: InTurns = {
		...runLimitsOf(context, run),
		request,
		pace: accountPaces.of(access.account.origin, access.account.key),
	};
	if (item.maxAtOnce !== undefined) item.pace.openTo(item.maxAtOnce);
	let busy: BusyWaits | undefined;
	for (;;) {
		const reply = item.cap ? await sendWithinCap(item, item.cap) : await sendAtPace(item);
		if (!(reply instanceof ItemFailure) || reply.kind !== 'busy') return reply;
		busy ??= new BusyWaits(item);
		const givenUp = await busy.waitOrGiveUp(reply);
		if (givenUp) return givenUp;
	}
}

const runLimits = new PerRun<RunLimits>();

/** The run's limits, read for its first request. */
function runLimitsOf(context: IExecuteSingleFunctions, run: RunState): RunLimits {
	return runLimits.of(run, () => {
		const limits = paceLimitsOf(context);
		const capped = limits.maxAtOnce !== undefined || limits.maxPerSecond !== undefined;
		return {
			cap: capped ? new Pace(limits) : undefined,
			ceiling: Math.max(ACCOUNT_CEILING, limits.maxAtOnce ?? 0),
			maxAtOnce: limits.maxAtOnce,
		};
	});
}

/** One send in its turn at the run's cap, the Max Requests the user set, then at the account's pace. */
async function sendWithinCap(item: InTurns, cap: Pace): Promise<IDataObject | ItemFailure> {
	const { run } = item.request;
	const cappedAt = await cap.waitForTurn(run, run.stop).catch(stoppedFailure);
	if (cappedAt instanceof ItemFailure) return cappedAt;
	try {
		return await sendAtPace(item);
	} finally {
		cap.requestEnded(cappedAt, 'other');
	}
}

/** One send in its turn at the account's pace, which learns how it ended. */
async function sendAtPace(item: InTurns): Promise<IDataObject | ItemFailure> {
	const { request, pace } = item;
	// A turn is refused only when the run stops.
	const sentAt = await pace
		.waitForTurn(request.run, request.run.stop, item.ceiling)
		.catch(stoppedFailure);
	if (sentAt instanceof ItemFailure) return sentAt;
	let outcome: PaceOutcome = 'other';
	try {
		const reply = await postOnce(request);
		if (!(reply instanceof ItemFailure)) outcome = 'accepted';
		else if (reply.kind === 'busy') outcome = 'busy';
		return reply;
	} finally {
		pace.requestEnded(sentAt, outcome);
	}
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** An item's waits for a busy service, within the limits the user set for it. */
class BusyWaits {
	private limits?: WaitLimits;

	private retries = 0;

	private waitedMs = 0;

	constructor(private readonly item: InTurns) {}

	/** Waits before the item is sent again; the failure to give when the limits are reached. */
	async waitOrGiveUp(failure: ItemFailure): Promise<ItemFailure | undefined> {
		const { request, pace } = this.item;
		const { retryAfterMs } = failure.details;
		const nextMs = pauseBefore(this.retries, retryAfterMs);
		this.limits ??= waitLimitsOf(request.context);
		if (this.retries >= this.limits.maxRetries || this.waitedMs + nextMs > this.limits.maxWaitMs) {
			return failure.with(this.stillBusy(failure, nextMs));
		}
		if (retryAfterMs !== undefined) pace.holdUntil(Date.now() + nextMs);
		const stopped = await pause(nextMs, request.run.stop).then(() => undefined, stoppedFailure);
		if (stopped) return stopped;
		this.waitedMs += nextMs;
		this.retries += 1;
		return undefined;
	}

	private stillBusy(failure: ItemFailure, nextMs: number): string {
		const { retries, waitedMs } = this;
		const tried =
			retries === 0
				? 'The node did not wait'
				: `The node waited ${seconds(waitedMs)} and sent it ${retries} more time${retries === 1 ? '' : 's'}`;
		const asked =
			failure.details.retryAfterMs === undefined
				? ''
				: ` The service asked to wait ${seconds(nextMs)}.`;
		const limit = isBusyCode(failure.details.code)
			? ` If you know the service’s limit, set ${LIMITS_SHOWN.rate} to it; or run the workflow again later.`
			: '';
		return `${failure.description} ${tried}, ${LIMITS_SHOWN.waits}.${asked}${limit}`;
	}
}
