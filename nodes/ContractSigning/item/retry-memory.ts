/**
 * What one run of the node has sent, so that Retry On Fail, which runs the node again on all its
 * items (n8n-core workflow-execute, `for (tryIndex …)`), never creates a record twice. An item is
 * known by its index alone: its fields may evaluate differently on the next try (`$now`).
 */
import { deepCopy, type IDataObject } from 'n8n-workflow';
import { ItemFailure } from '../failure/item-failure';
import type { RunState } from '../run/run-state';

export type ItemResult = IDataObject | ItemFailure;

export class RetryMemory {
	private readonly items = new Map<number, Promise<ItemResult>>();

	/** An earlier try's result (awaited) that must stand; an output as a copy, as n8n hands it on. */
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
