/**
 * A server that is not the service: it records every request it receives (method, path, the
 * X-Service-Key header, the JSON body) and answers each with an empty JSON object, or with
 * `failingStatus` (HTTP 500 unless set) while `failing` counts down (only for paths containing
 * `failingPath`, when set). A redirect's target in the
 * tests, where nothing carrying the key may arrive; the CRM that receives the keys written back
 * in the deal and repeated-delivery tests.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
	method: string;
	path: string;
	serviceKey?: string;
	/** The parsed JSON body; undefined when there was none or it was not JSON. */
	body?: unknown;
	/** The HTTP status the recorder answered with. */
	status: number;
}

export interface Recorder {
	url: string;
	requests: RecordedCall[];
	/** How many of the next requests get `failingStatus`. */
	failing: number;
	/** The status a failing request gets: HTTP 500 unless set. */
	failingStatus: number;
	/** When set, only requests whose path contains it count as the failing ones. */
	failingPath?: string;
	close(): Promise<void>;
}

function parsedJson(text: string): unknown {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

export async function startRecorder(): Promise<Recorder> {
	const requests: RecordedCall[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const fails =
				recorder.failing > 0 &&
				(recorder.failingPath === undefined || (request.url ?? '').includes(recorder.failingPath));
			const status = fails ? recorder.failingStatus : 200;
			if (fails) recorder.failing--;
			const serviceKey = request.headers['x-service-key'];
			const body = parsedJson(Buffer.concat(chunks).toString('utf8'));
			requests.push({
				method: request.method ?? '',
				path: request.url ?? '',
				...(typeof serviceKey === 'string' ? { serviceKey } : {}),
				...(body === undefined ? {} : { body }),
				status,
			});
			response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const recorder: Recorder = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		failing: 0,
		failingStatus: 500,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
	return recorder;
}
