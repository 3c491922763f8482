/**
 * The stand-in's fault modes: what a real network service does when it misbehaves, injected for
 * the requests a test picks.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { actionOf, type JsonObject, type Route } from './routes.mts';
import type { RecordedRequest } from './stand-in.mts';

export type Fault =
	| { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
	/** Does what was asked (creates the record), then answers with an error all the same. */
	| { kind: 'afterActing'; status: number; body?: unknown }
	| { kind: 'redirect'; location: string; status?: number }
	| { kind: 'html'; status?: number }
	| { kind: 'empty'; status?: number }
	| { kind: 'truncated' }
	| { kind: 'missingResource' }
	| { kind: 'bodyCode'; code: string | number; message: string }
	| { kind: 'delay'; ms: number }
	| { kind: 'close' }
	/** Starts a 200 reply and never ends it: one space (valid leading JSON whitespace) every `everyMs`. */
	| { kind: 'trickle'; everyMs?: number }
	/** Takes the request and never answers: not a byte, until the caller gives up. */
	| { kind: 'silent' };

export interface InjectOptions {
	/** Only requests to this exact path, e.g. '/v1/contract'. */
	path?: string;
	/** Only requests with this `data.action`: with `path`, one operation, e.g. Contract → Create. */
	action?: string;
	/** How many matching requests the fault applies to; default 1. */
	times?: number;
	when?: (req: RecordedRequest) => boolean;
}

interface QueuedFault {
	fault: Fault;
	path?: string;
	action?: string;
	remaining: number;
	when?: (req: RecordedRequest) => boolean;
}

/** How the stand-in replies: the code as it is set to send it, and a JSON body. */
export interface Replies {
	code: (status: number) => string | number;
	sendJson: (
		res: ServerResponse,
		status: number,
		body: unknown,
		headers?: Record<string, string>,
	) => void;
}

/** The faults injected and not yet used up, first injected first applied. */
export class Faults {
	private readonly queued: QueuedFault[] = [];

	constructor(private readonly replies: Replies) {}

	inject(fault: Fault, options: InjectOptions = {}): void {
		this.queued.push({
			fault,
			path: options.path,
			action: options.action,
			remaining: options.times ?? 1,
			when: options.when,
		});
	}

	clear(): void {
		this.queued.length = 0;
	}

	/** The fault for this request, if one applies; counts it as used. */
	take(record: RecordedRequest): Fault | undefined {
		const index = this.queued.findIndex(
			(queued) =>
				(queued.path === undefined || queued.path === record.path) &&
				(queued.action === undefined || queued.action === actionOf(record)) &&
				(queued.when === undefined || queued.when(record)),
		);
		if (index === -1) return undefined;
		const queued = this.queued[index];
		queued.remaining -= 1;
		if (queued.remaining <= 0) this.queued.splice(index, 1);
		return queued.fault;
	}

	/** Answers the request, for the operation it asked for if the service has it, as the fault says. */
	apply(res: ServerResponse, fault: Fault, route: Route | undefined): void {
		const { code, sendJson } = this.replies;
		if (res.destroyed) return;
		switch (fault.kind) {
			case 'status':
			case 'afterActing': {
				const message = STATUS_CODES[fault.status] ?? 'Injected error';
				const headers = fault.kind === 'status' ? fault.headers : undefined;
				sendJson(res, fault.status, fault.body ?? { code: code(fault.status), message }, headers);
				return;
			}
			case 'redirect': {
				res.writeHead(fault.status ?? 307, { location: fault.location, 'content-length': 0 });
				res.end();
				return;
			}
			case 'html': {
				const status = fault.status ?? 502;
				const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
				const page = `<html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
				res.writeHead(status, {
					'content-type': 'text/html; charset=utf-8',
					'content-length': Buffer.byteLength(page),
				});
				res.end(page);
				return;
			}
			case 'empty': {
				res.writeHead(fault.status ?? 200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': 0,
				});
				res.end();
				return;
			}
			case 'truncated': {
				const text = JSON.stringify(this.sampleSuccessBody(route));
				const cut = text.slice(0, Math.floor(text.length / 2));
				res.writeHead(200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': Buffer.byteLength(cut),
				});
				res.end(cut);
				return;
			}
			case 'missingResource': {
				// Simplest form: no state is created, only code and message are sent.
				const shape = route?.success ?? { status: 200, message: 'OK' };
				sendJson(res, shape.status, { code: code(shape.status), message: shape.message });
				return;
			}
			case 'bodyCode': {
				sendJson(res, 200, { code: fault.code, message: fault.message });
				return;
			}
			case 'close': {
				const text = JSON.stringify(this.sampleSuccessBody(route));
				res.writeHead(200, {
					'content-type': 'application/json; charset=utf-8',
					'content-length': Buffer.byteLength(text),
				});
				res.write(text.slice(0, Math.floor(text.length / 2)), () => res.destroy());
				return;
			}
			case 'trickle': {
				res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
				res.flushHeaders();
				const drip = setInterval(() => res.write(' '), fault.everyMs ?? 500);
				drip.unref();
				res.once('close', () => clearInterval(drip));
				return;
			}
			case 'delay':
				// Handled before the normal reply; nothing to send here.
				return;
			case 'silent':
				return;
		}
	}

	/** A plausible success body for the operation, used by faults; no state is created. */
	private sampleSuccessBody(route: Route | undefined): JsonObject {
		const { code } = this.replies;
		if (!route) return { code: code(200), message: 'OK', result: {} };
		const { status, message, resourceName, sample } = route.success;
		return { code: code(status), message, [resourceName]: sample() };
	}
}
