/**
 * What one run of the node has sent, so that n8n's Retry On Fail never creates a record twice.
 *
 * n8n retries a node by running it again on all of its input items, with the same execute data
 * (n8n-core workflow-execute, the `for (tryIndex …)` loop around `runNode`). Keyed by that object,
 * the memory belongs to one execution, one node and one run index: a loop that runs the node
 * again gets a run of its own, and everything is garbage once n8n drops the execution.
 * Within a run, an item is known by its index alone: its fields may evaluate differently on the
 * next try (a name with `$now` in it), and it is still the same item.
 */
import { Pace, type PaceLimits } from './pace';

export class RunMemory<Attempt> {
	private readonly items = new Map<number, Promise<Attempt>>();

	private pace?: Pace;

	private credential?: Promise<unknown>;

	/**
	 * The run's own pace with the Request Rate limits the user set, read for the run's first
	 * request; it caps the run and learns nothing (the account's pace, in pace.ts, learns).
	 */
	paceOnce(limits: () => PaceLimits): Pace {
		this.pace ??= new Pace(limits());
		return this.pace;
	}

	private itemsLeft?: number;

	/**
	 * The credential for this run, read (and so decrypted) by `load` only once; forgotten when
	 * the run's last item is done, and with the run in any case.
	 */
	async credentialOnce<Credential>(load: () => Promise<Credential>): Promise<Credential> {
		this.credential ??= load();
		return (await this.credential) as Credential;
	}

	/** Counts an item of `itemCount` as done; after the last one the credential is let go. */
	itemDone(itemCount: number): void {
		this.itemsLeft ??= itemCount;
		this.itemsLeft -= 1;
		if (this.itemsLeft <= 0) {
			this.credential = undefined;
			this.itemsLeft = undefined;
		}
	}

	/**
	 * The earlier attempt of this item when `isFinal` says it must not be sent again; otherwise
	 * the result of `send`. A send still under way is waited for, not repeated.
	 */
	async once(
		itemIndex: number,
		send: () => Promise<Attempt>,
		isFinal: (attempt: Attempt) => boolean,
	): Promise<{ attempt: Attempt; replayed: boolean }> {
		const earlier = this.items.get(itemIndex);
		if (earlier) {
			const attempt = await earlier.catch(() => undefined);
			if (attempt !== undefined && isFinal(attempt)) return { attempt, replayed: true };
		}
		const attempt = send();
		this.items.set(itemIndex, attempt);
		return { attempt: await attempt, replayed: false };
	}

	private ended?: AbortController;

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

	private readonly stopping = new Set<AbortController>();

	private watched?: AbortSignal;

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

const runs = new WeakMap<object, RunMemory<unknown>>();

/** The memory of the run that `executeData` stands for. */
export function memoryOf<Attempt>(executeData: object): RunMemory<Attempt> {
	let memory = runs.get(executeData);
	if (!memory) {
		memory = new RunMemory<unknown>();
		runs.set(executeData, memory);
	}
	return memory as RunMemory<Attempt>;
}
