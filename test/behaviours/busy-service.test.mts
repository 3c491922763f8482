/**
 * A busy service (429, 503, a refused connection, a name server that does not answer): the node waits as long as the service asks,
 * or backs off, within Options → Max Retries When Busy and Max Wait When Busy, and sends the
 * item again; nothing is created twice. Each item waits for itself: spacing the requests of a run
 * is Batching's part (Settings → Request Options).
 */
import dns from 'node:dns';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, useStandIn } from '../helpers.mts';
import { startStandIn } from '../service/stand-in.mts';
import {
	busyWithoutActing,
	CONTACTS,
	CREATE_CLIENT,
	failFirstRequestOf,
	onceEach,
	rateLimited,
	requestTimes,
	tally,
} from '../scenarios/contacts.mts';

const service = useStandIn();

const contacts = CONTACTS as unknown as IDataObject[];

describe('the node waits out a busy service', () => {
	it('429 with Retry-After: each contact given a busy reply is sent again after the pause, once', async () => {
		failFirstRequestOf(service(), ['crm-3', 'crm-9'], rateLimited());
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts });

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => item.customKey)).toEqual(CONTACTS.map((c) => c.crmId));
		expect(tally(service())).toEqual({ requests: 14, created: onceEach() });
		for (const crmId of ['crm-3', 'crm-9']) {
			const [turnedAway, accepted] = requestTimes(service(), crmId);
			const pause = accepted.receivedAt - turnedAway.repliedAt!;
			expect(pause).toBeGreaterThanOrEqual(1000);
		}
	});

	it('503 without Retry-After: backs off and sends again', async () => {
		service().injectFault(busyWithoutActing, { times: 2 });
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 1) });

		expect(run.error).toBeUndefined();
		expect(tally(service())).toEqual({ requests: 3, created: { 'crm-1': 1 } });
	});

	it('a connection the service refused (busy): waits, and sends once the service is up', async () => {
		const port = await freePort();
		const late = sleep(700).then(async () => await startStandIn({ port }));
		const run = await runStep(service(), CREATE_CLIENT, {
			items: contacts.slice(0, 1),
			credentials: { baseUrl: `http://127.0.0.1:${port}` },
		});
		const lateService = await late;
		try {
			expect(run.error).toBeUndefined();
			expect(tally(lateService)).toEqual({ requests: 1, created: { 'crm-1': 1 } });
		} finally {
			await lateService.close();
		}
	});

	it('a name server that does not answer (EAI_AGAIN): waits, and sends once it answers', async () => {
		// The machine's resolver is made to time out twice for the service's host name, as one
		// does while the network comes back; n8n, its request and the service are real.
		const lookups: string[] = [];
		const restore = resolverFailingFor('contract-signing.invalid', 2, lookups);
		try {
			const run = await runStep(service(), CREATE_CLIENT, {
				items: contacts.slice(0, 1),
				credentials: { baseUrl: service().url.replace('127.0.0.1', 'contract-signing.invalid') },
			});

			expect(run.error).toBeUndefined();
			expect(lookups).toEqual(['EAI_AGAIN', 'EAI_AGAIN', '127.0.0.1']);
			expect(tally(service())).toEqual({ requests: 1, created: { 'crm-1': 1 } });
		} finally {
			restore();
		}
	});

	it('a name server that never answers: nothing sent, and the error says so', async () => {
		const restore = resolverFailingFor('contract-signing.invalid', Infinity, []);
		try {
			const run = await runStep(
				service(),
				{ ...CREATE_CLIENT, options: { maxRetries: 1 } },
				{
					items: contacts.slice(0, 1),
					credentials: { baseUrl: service().url.replace('127.0.0.1', 'contract-signing.invalid') },
				},
			);

			expect(service().requests).toHaveLength(0);
			expect(run.error?.description).toBe(
				'Nothing was sent: the name server did not answer. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings. The node tried 1 more time, the most that Options → Max Retries When Busy allows.',
			);
		} finally {
			restore();
		}
	});

	it('stops at Max Retries When Busy and says so, with the service’s message', async () => {
		service().injectFault(rateLimited(), { times: 10 });
		const run = await runStep(
			service(),
			{ ...CREATE_CLIENT, options: { maxRetries: 2 } },
			{ items: contacts.slice(0, 1) },
		);

		const { requests } = service();
		expect(requests).toHaveLength(3);
		expect(requests[1].receivedAt - requests[0].repliedAt!).toBeGreaterThanOrEqual(1000);
		expect(requests[2].receivedAt - requests[1].repliedAt!).toBeGreaterThanOrEqual(1000);
		expect(run.error?.message).toBe('Too many requests');
		expect(run.error?.description).toBe(
			'The service is busy. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings. The node tried 2 more times, the most that Options → Max Retries When Busy allows.',
		);
	});

	it('does not send before the Retry-After, nor wait longer than Max Wait When Busy allows', async () => {
		// 600 s asked, 300 s allowed (the default): the node fails the item at once, and says why.
		service().injectFault(rateLimited(600));
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 1) });

		expect(service().requests).toHaveLength(1);
		expect(run.error?.description).toMatch(
			/Max Wait When Busy \(Seconds\) does not allow a longer wait; the service asked to wait 600 s more\.$/,
		);
	});

	it('a 429 in the body of an HTTP 500 is not waited out: the service failed, and may have acted', async () => {
		// Were it read as busy, the item would be sent again after the Retry-After, and answered.
		service().injectFault({
			kind: 'status',
			status: 500,
			body: { code: '429', message: 'Too many requests' },
			headers: { 'retry-after': '1' },
		});
		const run = await runStep(service(), CREATE_CLIENT, { items: contacts.slice(0, 1) });

		expect(service().requests).toHaveLength(1);
		expect(run.error?.message).toBe('Too many requests');
		expect(run.error?.description).toMatch(/^The client may have been created all the same/);
	});

	it('Retry-After with a fraction of a second is waited out as such', async () => {
		service().injectFault({
			kind: 'status',
			status: 429,
			body: { code: '429', message: 'Too many requests' },
			headers: { 'retry-after': '1.5' },
		});
		const { error } = await runStep(service(), {
			resource: 'client',
			operation: 'create',
			fullname: 'Ada',
		});

		expect(error).toBeUndefined();
		const [turnedAway, accepted] = service().requests;
		expect(accepted.receivedAt - turnedAway.repliedAt!).toBeGreaterThanOrEqual(1500);
	});
});

/**
 * Makes Node.js's resolver fail `failures` times with EAI_AGAIN for `host`, then resolve it to
 * 127.0.0.1; every other name resolves as before. Returns the undo; `lookups` records each answer.
 */
function resolverFailingFor(host: string, failures: number, lookups: string[]): () => void {
	const original = dns.lookup;
	let failed = 0;
	const lookup = (name: string, options: unknown, callback: (...args: unknown[]) => void) => {
		if (name !== host) return (original as (...args: unknown[]) => void)(name, options, callback);
		const done = typeof options === 'function' ? (options as typeof callback) : callback;
		const all = typeof options === 'object' && (options as { all?: boolean } | null)?.all;
		if (failed < failures) {
			failed += 1;
			lookups.push('EAI_AGAIN');
			const error = Object.assign(new Error(`getaddrinfo EAI_AGAIN ${name}`), {
				code: 'EAI_AGAIN',
				syscall: 'getaddrinfo',
				hostname: name,
			});
			process.nextTick(done, error);
			return;
		}
		lookups.push('127.0.0.1');
		if (all) process.nextTick(done, null, [{ address: '127.0.0.1', family: 4 }]);
		else process.nextTick(done, null, '127.0.0.1', 4);
	};
	(dns as { lookup: unknown }).lookup = lookup;
	return () => {
		(dns as { lookup: unknown }).lookup = original;
	};
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}
