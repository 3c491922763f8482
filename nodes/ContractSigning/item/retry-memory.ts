/**
 * What one run of the node has sent, so that n8n's Retry On Fail never creates a record twice.
 *
 * n8n retries a node by running it again on all of its input items (n8n-core workflow-execute,
 * the `for (tryIndex …)` loop around `runNode`), in the same run (run/run-state.ts): a loop that
 * runs the node again gets a run of its own. Within a run, an item is known by its index alone:
 * its fields may evaluate differently on the next try (a name with `$now` in it), and it is still
 * the same item.
 */
import { deepCopy, type IDataObject } from 'n8n-workflow';
import { ItemFailure } from '../failure/item-failure';
import { PerRun } from '../run/per-run';
import type { RunState } from '../run/run-state';

/** What a try gave an item: its output json, or its failure. */
export type ItemResult = IDataObject | ItemFailure;

/** Whether the item is not sent again in this run: it was served, or its failure is final. */
function isFinal(result: ItemResult): boolean {
	return !(result instanceof ItemFailure) || result.details.final === true;
}

export class RetryMemory {
	private readonly items = new Map<number, Promise<ItemResult>>();

	/**
	 * The item's result from an earlier try when it must not be sent again (a try still under way
	 * is waited for); an output is given as a copy, since n8n hands it on to the next steps.
	 */
	async finalResult(itemIndex: number): Promise<ItemResult | undefined> {
		const earlier = await this.items.get(itemIndex)?.catch(() => undefined);
		if (earlier === undefined || !isFinal(earlier)) return undefined;
		return earlier instanceof ItemFailure ? earlier : deepCopy(earlier);
	}

	/** This try's result for the item, kept for the tries after it. */
	keep(itemIndex: number, result: Promise<ItemResult>): void {
		this.items.set(itemIndex, result);
	}
}

const memories = new PerRun<RetryMemory>();

/** The memory of the run. */
export function retryMemoryOf(run: RunState): RetryMemory {
	return memories.of(run, () => new RetryMemory());
}
