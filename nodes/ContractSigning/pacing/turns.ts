/**
 * Sends an item in its turns until the service acts: a turn at the run's own cap (the Max
 * Requests options), then at the account's pace (pace.ts), and while the service says it is busy
 * (429, 503, no connection), a wait within the user's limits for a busy service before the next
 * turn. One Retry-After holds back every request to the account.
 */
import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import { ItemFailure, NOTHING_SENT } from '../failure/item-failure';
import { PerRun } from '../run/per-run';
import { runStateOf, stopOrTimeout, type StopOrTimeout, type StopSignal } from '../run/run-state';
import { postOnce, type ItemRequest } from '../wire/request';
import { moreTime } from '../wire/transport-failure';
import { accountPaces } from './account-paces';
import {
	LIMITS_SHOWN,
	paceLimitsOf,
	waitLimitsOf,
	type PaceLimits,
	type WaitLimits,
} from './limits';
import { MOST_AT_ONCE, Pace, type PaceOutcome } from './pace';
import { pause, pauseBefore } from './waits';

/** The item's request on its way: its paces, its stop signal and what ends its wait for turns. */
interface InTurns {
	request: ItemRequest;
	/** The account's pace, shared by every execution that sends with the same account. */
	pace: Pace;
	/** The run's own pace with the Max Requests limits the user set, which learns nothing; none when the user set neither. */
	cap?: Pace;
	/** The run's requests go only while fewer than this many of the account's are under way. */
	ceiling: number;
	/** Aborts when the execution is stopped. */
	cancel: StopSignal;
	turns: TurnSignal;
}

/** The service's reply body once it acted, or the failure when it did not or may have. */
export async function sendUntilServed(request: ItemRequest): Promise<IDataObject | ItemFailure> {
	const { context, access } = request;
	const run = runStateOf(context.getExecuteData());
	const cancel = run.stopOf(
		context.getExecutionCancelSignal?.() ??
			run.endOfExecution(context.onExecutionFinish?.bind(context)),
	);
	const { cap, ceiling, maxAtOnce } = runLimitsOf(context);
	const turns = turnSignal(context, cancel);
	const item: InTurns = {
		request,
		pace: accountPaces.of(access.account.origin, access.account.key),
		cap,
		ceiling,
		cancel,
		turns,
	};
	if (maxAtOnce !== undefined) item.pace.openTo(maxAtOnce);
	let busy: BusyWaits | undefined;
	try {
		for (;;) {
			const reply = item.cap ? await sendWithinCap(item, item.cap) : await sendAtPace(item);
			if (!(reply instanceof ItemFailure) || reply.kind !== 'busy') return reply;
			// Past the user's Timeout every turn fails at once: waits between them would only add up.
			if (item.turns.timeout?.timedOut()) return reply;
			busy ??= new BusyWaits(item);
			const givenUp = await busy.waitOrGiveUp(reply);
			if (givenUp) return givenUp;
		}
	} finally {
		turns.timeout?.release();
	}
}

/** The run's cap and its ceiling at the account's pace, and the Max Requests at Once the user set. */
type RunLimits = Pick<InTurns, 'cap' | 'ceiling'> & Pick<PaceLimits, 'maxAtOnce'>;

const runLimits = new PerRun<RunLimits>();

/** The run's limits, read for its first request. */
function runLimitsOf(context: IExecuteSingleFunctions): RunLimits {
	return runLimits.of(context.getExecuteData(), () => {
		const limits = paceLimitsOf(context);
		const capped = limits.maxAtOnce !== undefined || limits.maxPerSecond !== undefined;
		return {
			cap: capped ? new Pace(limits) : undefined,
			ceiling: Math.max(MOST_AT_ONCE, limits.maxAtOnce ?? 0),
			maxAtOnce: limits.maxAtOnce,
		};
	});
}

/** One send in its turn at the run's cap, the Max Requests the user set, then at the account's pace. */
async function sendWithinCap(item: InTurns, cap: Pace): Promise<IDataObject | ItemFailure> {
	const cappedAt = await takeTurn(item, cap);
	if (cappedAt instanceof ItemFailure) return cappedAt;
	try {
		return await sendAtPace(item);
	} finally {
		cap.done(cappedAt, 'other');
	}
}

/** One send in its turn at the account's pace, which learns how it ended. */
async function sendAtPace(item: InTurns): Promise<IDataObject | ItemFailure> {
	const { pace } = item;
	const sentAt = await takeTurn(item, pace, item.ceiling);
	if (sentAt instanceof ItemFailure) return sentAt;
	let reply: IDataObject | ItemFailure | undefined;
	try {
		reply = await postOnce(item.request, item.cancel);
	} finally {
		pace.done(sentAt, paceOutcome(reply));
	}
	return reply;
}

function paceOutcome(reply: IDataObject | ItemFailure | undefined): PaceOutcome {
	if (reply === undefined) return 'other';
	if (!(reply instanceof ItemFailure)) return 'accepted';
	return reply.kind === 'busy' ? 'busy' : 'other';
}

interface TurnSignal {
	signal: StopSignal;
	/** Settings → Request Options → Timeout as the user set it, which also ends the item's wait for its turns. */
	timeout?: StopOrTimeout & { ms: number };
}

/**
 * What ends an item's wait for its turns: the run's stop, and the Timeout when the user set it.
 * Only an item with a Timeout has a signal of its own.
 */
function turnSignal(context: IExecuteSingleFunctions, cancel: StopSignal): TurnSignal {
	const { timeout } = context.getNodeParameter('requestOptions', {}) as { timeout?: unknown };
	if (typeof timeout !== 'number' || !(timeout > 0)) return { signal: cancel };
	const ending = stopOrTimeout(cancel, timeout);
	return { signal: ending.signal, timeout: { ...ending, ms: timeout } };
}

/** The item's turn at a pace, as the time it may be sent; a failure when the Timeout passed first. */
async function takeTurn(
	{ request, cancel, turns }: InTurns,
	pace: Pace,
	ceiling?: number,
): Promise<number | ItemFailure> {
	try {
		return await pace.turn(request.context.getExecuteData(), turns.signal, ceiling);
	} catch (error) {
		if (cancel.aborted || !turns.timeout?.timedOut()) {
			throw new NodeOperationError(request.context.getNode(), (error as Error).message);
		}
	}
	return new ItemFailure(
		'busy',
		`The item had no turn at the service within the node’s Timeout (${seconds(turns.timeout.ms)})`,
		`The service was busy with this account’s other requests, and the item waited for its turn. ${NOTHING_SENT} ${moreTime(String(turns.timeout.ms))} Or run the workflow again later.`,
		{ code: 'ETIMEDOUT' },
	);
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

/** An item's waits for a busy service, within the limits the user set for it. */
class BusyWaits {
	private limits?: WaitLimits;

	private retries = 0;

	private waitedMs = 0;

	private refusedAt = 0;

	constructor(private readonly item: InTurns) {}

	/** Waits before the item is sent again; the failure to give when the limits are reached. */
	async waitOrGiveUp(failure: ItemFailure): Promise<ItemFailure | undefined> {
		const { request, pace, cancel } = this.item;
		// While other requests to the account get through, the service is pacing them, not stuck.
		if (pace.lastAcceptedAt > this.refusedAt) {
			this.retries = 0;
			this.waitedMs = 0;
		}
		this.refusedAt = Date.now();
		const { retryAfterMs } = failure.details;
		const nextMs = pauseBefore(this.retries, retryAfterMs);
		this.limits ??= waitLimitsOf(request.context);
		if (this.retries >= this.limits.maxRetries || this.waitedMs + nextMs > this.limits.maxWaitMs) {
			return failure.with(this.stillBusy(failure, nextMs));
		}
		if (retryAfterMs !== undefined) pace.holdUntil(Date.now() + nextMs);
		await pause(nextMs, cancel);
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
		const limit = ['429', '503'].includes(String(failure.details.code))
			? ` If you know the service’s limit, set ${LIMITS_SHOWN.rate} to it; or run the workflow again later.`
			: '';
		return `${failure.description} ${tried}, ${LIMITS_SHOWN.waits}.${asked}${limit}`;
	}
}
