/**
 * What one run of the node has sent, so that n8n's Retry On Fail never creates a record twice.
 *
 * n8n retries a node by running it again on all of its input items (n8n-core workflow-execute,
 * the `for (tryIndex …)` loop around `runNode`), in the same run (run/run-state.ts): a loop that
 * runs the node again gets a run of its own. Within a run, an item is known by its index alone:
 * its fields may evaluate differently on the next try (a name with `$now` in it), and it is still
 * the same item.
 */
import { PerRun } from '../run/per-run';
import type { RunState } from '../run/run-state';

export class RetryMemory<Result> {
	private readonly items = new Map<number, Promise<Result>>();

	/**
	 * The result of this item's earlier try when `isFinal` says it must not be sent again; otherwise
	 * the result of `send`. A send still under way is waited for; sent again only if its result
	 * is not final.
	 */
	async once(
		itemIndex: number,
		send: () => Promise<Result>,
		isFinal: (result: Result) => boolean,
	): Promise<{ result: Result; replayed: boolean }> {
		const earlier = this.items.get(itemIndex);
		if (earlier) {
			const result = await earlier.catch(() => undefined);
			if (result !== undefined && isFinal(result)) return { result, replayed: true };
		}
		const sending = send();
		this.items.set(itemIndex, sending);
		return { result: await sending, replayed: false };
	}
}

const memories = new PerRun<RetryMemory<unknown>>();

/** The memory of the run. */
export function retryMemoryOf<Result>(run: RunState): RetryMemory<Result> {
	return memories.of(run, () => new RetryMemory<unknown>()) as RetryMemory<Result>;
}
