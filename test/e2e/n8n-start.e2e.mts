/**
 * The tests' own `n8n start` (startN8n in n8n-instance.mts), when another server of the tests
 * takes the port it was to use before n8n binds it: n8n exits saying that its port is already in
 * use, and startN8n starts it again on another port, ready to serve.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { expect, it } from 'vitest';
import { startN8n } from './n8n-instance.mts';
import { useN8n } from './suite.mts';

const suite = useN8n('n8n start', {});

it('a port taken before n8n binds it: n8n starts on another port, ready to serve', async () => {
	// A server that holds the port and hangs up on whoever connects.
	const taken: Server = createServer((socket) => socket.destroy());
	await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
	const { port } = taken.address() as AddressInfo;
	try {
		const n8n = await startN8n(suite.home, { port });
		try {
			expect(new URL(n8n.url).port).not.toBe(String(port));
			expect((await fetch(`${n8n.url}/healthz/readiness`)).ok).toBe(true);
		} finally {
			await n8n.stop();
		}
	} finally {
		await new Promise<void>((resolve) => taken.close(() => resolve()));
	}
});
