import { describe, expect, it } from 'vitest';
import { ItemFailure } from '../../../nodes/ContractSigning/failure/item-failure';
import { RetryMemory, type ItemResult } from '../../../nodes/ContractSigning/item/retry-memory';

const busy = () => new ItemFailure('busy', 'The service is busy', 'Try again later.');
const unknown = () =>
	new ItemFailure('unknown', 'The request timed out', 'Look for the client.', { final: true });

describe('RetryMemory', () => {
	it('gives an earlier output (as a copy) and a final failure again, and nothing for the rest', async () => {
		const memory = new RetryMemory();
		const created = { clientKey: 'cli_1' };
		const timedOut = unknown();
		memory.keep(0, Promise.resolve(created));
		memory.keep(1, Promise.resolve(busy()));
		memory.keep(2, Promise.resolve(timedOut));

		const again = await memory.finalResult(0);
		expect(again).toEqual(created);
		expect(again).not.toBe(created);
		expect(await memory.finalResult(1)).toBeUndefined();
		expect(await memory.finalResult(2)).toBe(timedOut);
		expect(await memory.finalResult(3)).toBeUndefined();
	});

	it('waits for a try still under way, and gives its result only if it is final', async () => {
		const memory = new RetryMemory();
		let finish: (result: ItemResult) => void = () => {};
		memory.keep(0, new Promise<ItemResult>((resolve) => (finish = resolve)));
		let given: ItemResult | undefined | 'waiting' = 'waiting';
		const asked = memory.finalResult(0).then((result) => (given = result));
		await Promise.resolve();
		expect(given).toBe('waiting');

		finish({ clientKey: 'cli_1' });
		await asked;
		expect(given).toEqual({ clientKey: 'cli_1' });

		memory.keep(1, Promise.resolve(busy()));
		expect(await memory.finalResult(1)).toBeUndefined();
	});
});
