/**
 * What one run of the node has sent, so that Retry On Fail never creates a record twice. n8n
 * retries a node by running it again on all its items (n8n-core workflow-execute, the
 * `for (tryIndex …)` loop around `runNode`) in the same run. An item is known by its index alone:
 * its fields may evaluate differently on the next try (`$now`), and it is still the same item.
 */
import { deepCopy, type IDataObject } from 'n8n-workflow';
import { ItemFailure } from '../failure/item-failure';
import type { RunState } from '../run/run-state';

export type ItemResult = IDataObject | ItemFailure;

export class RetryMemory {
	private readonly items = new Map<number, Promise<ItemResult>>();

	/**
	 * The item's result from an earlier try when it must not be sent again (a try still under way
	 * is waited for); an output is given as a copy, since n8n hands it on to the next steps.
	 */
	async finalResult(itemIndex: number): Promise<ItemResult | undefined> {
		const earlier = await this.items.get(itemIndex)?.catch(() => undefined);
		if (!(earlier instanceof ItemFailure)) return earlier && deepCopy(earlier);
		return earlier.details.final === true ? earlier : undefined;
	}

	keep(itemIndex: number, result: Promise<ItemResult>): void {
		this.items.set(itemIndex, result);
	}
}

export function retryMemoryOf(run: RunState): RetryMemory {
	return run.keep(RetryMemory, () => new RetryMemory());
}
