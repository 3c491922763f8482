/**
 * A CRM import of 12 contacts, each becoming a client, with faults on some of their requests:
 * the scenarios of "each contact exactly once", shared by the in-process and the real-n8n tests.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Fault, StandIn } from '../service/stand-in.mts';

export interface Contact {
	name: string;
	email: string;
	crmId: string;
}

export const CONTACTS: Contact[] = Array.from({ length: 12 }, (_, index) => ({
	name: `Contact ${String(index + 1).padStart(2, '0')}`,
	email: `contact${index + 1}@example.com`,
	crmId: `crm-${index + 1}`,
}));

export const CREATE_CLIENT = {
	resource: 'client',
	operation: 'create',
	fullname: '={{ $json.name }}',
	email: '={{ $json.email }}',
	customKey: '={{ $json.crmId }}',
};

/** Settings → Retry On Fail, 5 tries, 10 ms apart (n8n reads 0 as its default of 1 s). */
export const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 5, waitBetweenTries: 10 };

/** The node's own waiting off, so that only n8n's Retry On Fail can send an item again. */
export const NO_WAITING = { options: { maxRetries: 0 } };

/** Settings → Request Options → Batching: `size` items at a time, `intervalMs` apart. */
export function batching(size: number, intervalMs: number) {
	return {
		requestOptions: { batching: { batch: { batchSize: size, batchInterval: intervalMs } } },
	};
}

/** The fault answers the first request of each of these contacts (by CRM id) only. */
export function failFirstRequestOf(service: StandIn, crmIds: string[], fault: Fault): void {
	for (const crmId of crmIds) {
		service.injectFault(fault, {
			path: '/v1/client',
			when: (request) => request.rawBody.includes(`"customKey":"${crmId}"`),
			times: 1,
		});
	}
}

export const busyWithoutActing: Fault = {
	kind: 'status',
	status: 503,
	body: { code: '503', message: 'Service busy' },
};

export const failedWithoutActing: Fault = {
	kind: 'status',
	status: 500,
	body: { code: '500', message: 'Signature backend unavailable' },
};

export function rateLimited(retryAfterSeconds = 1): Fault {
	return {
		kind: 'status',
		status: 429,
		body: { code: '429', message: 'Too many requests' },
		headers: { 'retry-after': String(retryAfterSeconds) },
	};
}

export interface Tally {
	/** Requests the service received for clients. */
	requests: number;
	/** Clients created per CRM id (absent: none). */
	created: Record<string, number>;
}

export function tally(service: StandIn): Tally {
	const created: Record<string, number> = {};
	for (const client of service.clients()) {
		if (client.customKey) created[client.customKey] = (created[client.customKey] ?? 0) + 1;
	}
	return {
		requests: service.requests.filter((request) => request.path === '/v1/client').length,
		created,
	};
}

/** Each contact once, except those given, which are not created at all. */
export function onceEach(except: string[] = []): Record<string, number> {
	return Object.fromEntries(
		CONTACTS.filter(({ crmId }) => !except.includes(crmId)).map(({ crmId }) => [crmId, 1]),
	);
}

/** When each request for this contact arrived and was answered, in order. */
export function requestTimes(service: StandIn, crmId: string) {
	return service.requests
		.filter((request) => request.rawBody.includes(`"customKey":"${crmId}"`))
		.map(({ receivedAt, repliedAt }) => ({ receivedAt, repliedAt }));
}

/** `count` contacts, crm-1 to crm-<count>, as a bulk run's items. */
export function contacts(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => ({
		name: `Contact ${index + 1}`,
		email: `contact${index + 1}@example.com`,
		crmId: `crm-${index + 1}`,
	}));
}
