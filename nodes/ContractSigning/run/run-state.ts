/**
 * What one run of the node holds while it sends: its access to the service (the credential, read
 * once), and the signals that end its waits; kept per run (per-run.ts).
 */
import { PerRun } from './per-run';

export class RunState {
	private access?: Promise<unknown>;

	private itemsLeft?: number;

	private ended?: AbortController;

	private readonly stopping = new Set<AbortController>();

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
	 * A signal of one item's own that aborts when `stopped` does, and a function that lets it go.
	 * The run listens to `stopped` once and passes it on: thousands of items each listening to the
	 * execution's signal would make Node.js warn of a leak.
	 */
	itemSignal(stopped: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
		const item = new AbortController();
		if (stopped?.aborted) item.abort();
		if (!stopped || stopped.aborted) return { signal: item.signal, release: () => {} };
		if (this.watched !== stopped) {
			this.watched = stopped;
			const stopAll = () => {
				for (const controller of this.stopping) controller.abort();
				this.stopping.clear();
			};
			stopped.addEventListener('abort', stopAll, { once: true });
		}
		this.stopping.add(item);
		return { signal: item.signal, release: () => this.stopping.delete(item) };
	}
}

const states = new PerRun<RunState>();

/** The state of the run that `executeData` stands for. */
export function runStateOf(executeData: object): RunState {
	return states.of(executeData, () => new RunState());
}
