import { describe, expect, it } from 'vitest';
import { RetryMemory } from '../../../nodes/ContractSigning/item/retry-memory';

describe('RetryMemory.once', () => {
	type Result = { final: boolean; value: string };

	it('gives an earlier final result again without sending, and sends the rest again', async () => {
		const memory = new RetryMemory<Result>();
		let sent = 0;
		const send = (result: Result) => async () => {
			sent += 1;
			return result;
		};
		const isFinal = (result: Result) => result.final;
		await memory.once(0, send({ final: true, value: 'created' }), isFinal);
		await memory.once(1, send({ final: false, value: 'busy' }), isFinal);

		expect(await memory.once(0, send({ final: true, value: 'again' }), isFinal)).toEqual({
			result: { final: true, value: 'created' },
			replayed: true,
		});
		expect(await memory.once(1, send({ final: true, value: 'now' }), isFinal)).toEqual({
			result: { final: true, value: 'now' },
			replayed: false,
		});
		expect(sent).toBe(3);
	});

	it('waits for a send still under way instead of sending again', async () => {
		const memory = new RetryMemory<Result>();
		let sent = 0;
		let finish: (result: Result) => void = () => {};
		const isFinal = (result: Result) => result.final;
		const first = memory.once(
			0,
			() => {
				sent += 1;
				return new Promise<Result>((resolve) => (finish = resolve));
			},
			isFinal,
		);
		const second = memory.once(
			0,
			async () => {
				sent += 1;
				return { final: true, value: 'second' };
			},
			isFinal,
		);
		finish({ final: true, value: 'first' });

		expect((await second).result).toEqual({ final: true, value: 'first' });
		expect((await first).result).toEqual({ final: true, value: 'first' });
		expect(sent).toBe(1);
	});

	it('sends again, once it has ended, a send still under way whose result is not final', async () => {
		const memory = new RetryMemory<Result>();
		const sent: string[] = [];
		let finish: (result: Result) => void = () => {};
		const isFinal = (result: Result) => result.final;
		const first = memory.once(
			0,
			() => {
				sent.push('first');
				return new Promise<Result>((resolve) => (finish = resolve));
			},
			isFinal,
		);
		const second = memory.once(
			0,
			async () => {
				sent.push('second');
				return { final: true, value: 'second' };
			},
			isFinal,
		);
		await Promise.resolve();
		expect(sent).toEqual(['first']);
		finish({ final: false, value: 'busy' });

		expect(await second).toEqual({ result: { final: true, value: 'second' }, replayed: false });
		expect((await first).result).toEqual({ final: false, value: 'busy' });
		expect(sent).toEqual(['first', 'second']);
	});
});
