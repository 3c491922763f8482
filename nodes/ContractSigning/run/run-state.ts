/**
 * What one run of the node holds while it sends: its access to the service (the credential, read
 * once), and the signals that end its waits; kept per run (per-run.ts).
 */
import { PerRun } from './per-run';

export class RunState {
	private access?: Promise<unknown>;

	private itemsLeft?: number;

	private ended?: AbortController;

	private readonly stop = new RunStop();

	private watched?: AbortSignal;

	/**
	 * The access for this run, made by `load` only once (so the credential is read and decrypted
	 * once); forgotten when the run's last item is done, and with the run in any case.
	 */
	async accessOnce<Access>(load: () => Promise<Access>): Promise<Access> {
		this.access ??= load();
		return (await this.access) as Access;
	}

	/** Counts an item of `itemCount` as done; after the last one the access is let go. */
	itemDone(itemCount: number): void {
		this.itemsLeft ??= itemCount;
		this.itemsLeft -= 1;
		if (this.itemsLeft <= 0) {
			this.access = undefined;
			this.itemsLeft = undefined;
		}
	}

	/**
	 * A signal that aborts when the execution ends, a cancelled one included. n8n-core runs a
	 * declarative node without the execution's cancel signal, but its finish hook also fires on
	 * cancellation; n8n versions without that hook give no signal.
	 */
	endOfExecution(onFinish?: (handler: () => unknown) => void): AbortSignal | undefined {
		if (!this.ended && onFinish) {
			const ended = new AbortController();
			onFinish(() => ended.abort());
			this.ended = ended;
		}
		return this.ended?.signal;
	}

	/**
	 * The run's stop: it aborts when `stopped` does, and every wait of every item listens to it.
	 * One for the run, listening to `stopped` once: thousands of items each listening to the
	 * execution's signal, or each with an AbortController of its own, would make Node.js warn of a
	 * leak, or hold about a kilobyte more for every item waiting for its turn.
	 */
	stopOf(stopped: AbortSignal | undefined): RunStop {
		if (stopped && this.watched !== stopped) {
			this.watched = stopped;
			const stopAll = () => this.stop.abort(stopped.reason);
			if (stopped.aborted) stopAll();
			else stopped.addEventListener('abort', stopAll, { once: true });
		}
		return this.stop;
	}
}

/** What a wait listens to for the end of the execution: a run's stop, or an `AbortSignal`. */
export interface StopSignal {
	readonly aborted: boolean;
	readonly reason?: unknown;
	addEventListener(type: 'abort', listener: StopListener, options?: { once?: boolean }): void;
	removeEventListener(type: 'abort', listener: StopListener): void;
}

type StopListener = (() => void) | { handleEvent: () => void };

/** A signal that aborts when `stop` does or `timeoutMs` has passed, and what ended it. */
export interface StopOrTimeout {
	signal: AbortSignal;
	timedOut: () => boolean;
	/** Lets go of `stop` and of the timeout, once what the signal ends is over. */
	release: () => void;
}

/**
 * `stop` and a timeout joined by hand, rather than with `AbortSignal.any`: `stop` may be a run's
 * stop, and its listener is let go as soon as the signal is no longer needed.
 */
export function stopOrTimeout(stop: StopSignal, timeoutMs: number): StopOrTimeout {
	const controller = new AbortController();
	const timeout = AbortSignal.timeout(timeoutMs);
	const onStop = () => controller.abort(stop.reason);
	const onTimeout = () => controller.abort(timeout.reason);
	if (stop.aborted) onStop();
	stop.addEventListener('abort', onStop, { once: true });
	timeout.addEventListener('abort', onTimeout, { once: true });
	return {
		signal: controller.signal,
		timedOut: () => timeout.aborted,
		release: () => {
			stop.removeEventListener('abort', onStop);
			timeout.removeEventListener('abort', onTimeout);
		},
	};
}

/**
 * A run's stop, the part of `AbortSignal` the waits use, with any number of listeners: each is
 * called once, when the run stops, unless it was removed before.
 */
export class RunStop implements StopSignal {
	aborted = false;

	reason?: unknown;

	private readonly listeners = new Set<StopListener>();

	addEventListener(_type: 'abort', listener: StopListener): void {
		this.listeners.add(listener);
	}

	removeEventListener(_type: 'abort', listener: StopListener): void {
		this.listeners.delete(listener);
	}

	abort(reason?: unknown): void {
		if (this.aborted) return;
		this.aborted = true;
		this.reason = reason;
		const listeners = [...this.listeners];
		this.listeners.clear();
		for (const listener of listeners) {
			if (typeof listener === 'function') listener();
			else listener.handleEvent();
		}
	}
}

const states = new PerRun<RunState>();

/** The state of the run that `executeData` stands for. */
export function runStateOf(executeData: object): RunState {
	return states.of(executeData, () => new RunState());
}
