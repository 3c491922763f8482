import { describe, expect, it } from 'vitest';
import { RetryMemory } from '../../../nodes/ContractSigning/item/retry-memory';

describe('RetryMemory.once', () => {
	type Attempt = { final: boolean; value: string };

	it('gives an earlier final attempt again without sending, and sends the rest again', async () => {
		const memory = new RetryMemory<Attempt>();
		let sent = 0;
		const send = (attempt: Attempt) => async () => {
			sent += 1;
			return attempt;
		};
		const isFinal = (attempt: Attempt) => attempt.final;
		await memory.once(0, send({ final: true, value: 'created' }), isFinal);
		await memory.once(1, send({ final: false, value: 'busy' }), isFinal);

		expect(await memory.once(0, send({ final: true, value: 'again' }), isFinal)).toEqual({
			attempt: { final: true, value: 'created' },
			replayed: true,
		});
		expect(await memory.once(1, send({ final: true, value: 'now' }), isFinal)).toEqual({
			attempt: { final: true, value: 'now' },
			replayed: false,
		});
		expect(sent).toBe(3);
	});

	it('waits for a send still under way instead of sending again', async () => {
		const memory = new RetryMemory<Attempt>();
		let sent = 0;
		let finish: (attempt: Attempt) => void = () => {};
		const isFinal = (attempt: Attempt) => attempt.final;
		const first = memory.once(
			0,
			() => {
				sent += 1;
				return new Promise<Attempt>((resolve) => (finish = resolve));
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

		expect((await second).attempt).toEqual({ final: true, value: 'first' });
		expect((await first).attempt).toEqual({ final: true, value: 'first' });
		expect(sent).toBe(1);
	});
});
