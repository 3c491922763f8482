/**
 * A server that is not the service: it records every request it receives (method, path and
 * the X-Service-Key header) and answers each with an empty JSON object. A redirect's target
 * in the tests, where nothing carrying the key may arrive.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorder {
	url: string;
	requests: Array<{ method: string; path: string; serviceKey?: string }>;
	close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
	const requests: Recorder['requests'] = [];
	const server = createServer((request, response) => {
		const serviceKey = request.headers['x-service-key'];
		requests.push({
			method: request.method ?? '',
			path: request.url ?? '',
			...(typeof serviceKey === 'string' ? { serviceKey } : {}),
		});
		response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
