/**
 * The deal events of the won-deal tests, and what n8n's CRM nodes output for them: the trigger's
 * event and each CRM step's read, shaped as those nodes in n8n 2.41.1 put them out, for the steps
 * that stand in for them in a copy of the intake (a CRM cannot be reached here). Where a shape rests
 * on the CRM's documented format rather than on n8n's own test data, its function says so.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';

/** A deal event as a test tells it: the deal, its customer, and what changed. */
export interface DealEvent {
	dealId: string;
	name: string;
	/** The deal is won now. */
	won: boolean;
	/** Something other than the status changed: the deal was won before, or never was. */
	edited?: boolean;
	/** The event is the deal's creation: it was created as it is. */
	created?: boolean;
	/** The CRM's id of the deal's stage, where it is not the default pipeline's. */
	stage?: string;
	customerId: string;
	fullname: string;
	email: string;
	company: string;
}

type Pins = Record<string, Array<{ json: Record<string, unknown> }>>;

const items = (values: Array<Record<string, unknown>>) => values.map((json) => ({ json }));

/** The body a CRM posts to the Webhook intake, as its Deal Won step documents it. */
export function webhookBody(event: DealEvent) {
	return {
		deal: { id: event.dealId, name: event.name, status: event.won ? 'won' : 'open' },
		customer: {
			id: event.customerId,
			name: event.fullname,
			email: event.email,
			company: event.company,
		},
	};
}

/**
 * The events of a batch each deal's first: the examples read a deal from the CRM only for the first
 * row written for it, so a CRM step gets one item per deal, as its pin must have.
 */
const firstOfEach = (events: DealEvent[]) =>
	events.filter((event, index) => events.findIndex((e) => e.dealId === event.dealId) === index);

/**
 * One Pipedrive Trigger event (Action All, Entity Deal), and the deal, person and organization Get
 * Deal, Get Person and Get Organization read. The trigger puts out the webhook's body as received: Pipedrive's
 * webhooks v2 (meta, data, previous), where previous holds only the fields the change altered
 * (Pipedrive's "Guide for Webhooks v2"); for a deal just added, meta.action create and previous
 * null, as that guide describes a create event (not in n8n's test data); the person and
 * organization as n8n's Pipedrive v2 test data has them
 * (packages/nodes-base/nodes/Pipedrive/test/v2/mock-data.json). The customer is the
 * organization, whose id is the event's customerId; the person's id is the organization's
 * plus 1000.
 */
export function pipedrivePins(event: DealEvent): Pins {
	const dealId = Number(event.dealId);
	const orgId = Number(event.customerId);
	const personId = orgId + 1000;
	const update_time = '2026-11-20T09:00:00Z';
	const deal = {
		id: dealId,
		title: event.name,
		status: event.won ? 'won' : 'open',
		stage_id: event.won ? 5 : 3,
		pipeline_id: 1,
		person_id: personId,
		org_id: orgId,
		owner_id: 25455458,
		value: 5000,
		currency: 'EUR',
		won_time: event.won ? '2026-11-28T10:15:29Z' : null,
		add_time: '2026-11-01T09:00:00Z',
		update_time: '2026-11-28T10:15:29Z',
		visible_to: '3',
		label_ids: [],
		custom_fields: {},
	};
	const previous = event.created
		? null
		: event.edited
			? { value: 4000, update_time }
			: event.won
				? { status: 'open', stage_id: 4, won_time: null, update_time }
				: { stage_id: 2, update_time };
	return {
		'Pipedrive Trigger': items([
			{
				meta: {
					action: event.created ? 'create' : 'change',
					entity: 'deal',
					company_id: '14712380',
					correlation_id: `c0ffee00-0000-4000-8000-${String(dealId).padStart(12, '0')}`,
					entity_id: String(dealId),
					id: `5b8e2a44-1f0c-4d7e-b9a3-${String(dealId).padStart(12, '0')}`,
					is_bulk_edit: false,
					timestamp: '2026-11-28T10:15:30.123Z',
					type: 'general',
					user_id: '25455458',
					version: '2.0',
					webhook_id: '1254803',
					webhook_owner_id: '25455458',
					change_source: 'app',
					attempt: 1,
					host: 'acme.pipedrive.com',
					permitted_user_ids: ['25455458'],
				},
				data: deal,
				previous,
			},
		]),
		// Pipedrive's API v2 gives a deal as its webhooks v2 do (n8n's Pipedrive v2 reads it so).
		'Get Deal': items([deal]),
		'Get Person': items([
			{
				id: personId,
				name: event.fullname,
				first_name: event.fullname.split(' ')[0],
				last_name: event.fullname.split(' ').slice(1).join(' '),
				add_time: '2026-11-01T09:00:00Z',
				update_time: '2026-11-01T09:00:00Z',
				visible_to: 3,
				custom_fields: {},
				owner_id: 25455458,
				label_ids: [],
				org_id: orgId,
				is_deleted: false,
				picture_id: null,
				phones: [{ label: 'work', value: '555-0100', primary: true }],
				emails: [
					{ label: 'home', value: `home-${event.email}`, primary: false },
					{ label: 'work', value: event.email, primary: true },
				],
			},
		]),
		'Get Organization': items([
			{
				id: orgId,
				name: event.company,
				add_time: '2026-11-01T09:00:00Z',
				update_time: '2026-11-01T09:00:00Z',
				visible_to: 3,
				custom_fields: {},
				owner_id: 25455458,
				label_ids: [],
				website: null,
				is_deleted: false,
				address: null,
			},
		]),
		'Note on Deal': items([{ id: 1, content: 'Contract ready to sign', deal_id: dealId }]),
	};
}

/**
 * One HubSpot Trigger batch (Deal Created; Deal Property Changed, dealstage), one item per event
 * as the trigger puts them out (HubSpot's webhook payload, objectId renamed dealId by n8n's
 * HubspotTrigger), what Get Deal reads for each deal, and what Get Contact and Get Company read
 * for the deals that are wins: HubSpot's v1 records, properties as { value } (Get Deal's
 * associations as HubSpot documents its /deals/v1/deal endpoint; hs_is_closed_won as HubSpot
 * documents the deal property, not in n8n's test data). The customer is the company, whose id is
 * the event's customerId; the contact's vid is the company's plus 1000.
 */
export function hubspotPins(events: DealEvent[]): Pins {
	const deals = firstOfEach(events);
	const wins = deals.filter((event) => event.won);
	const stage = (event: DealEvent) =>
		event.stage ?? (event.won ? 'closedwon' : 'appointmentscheduled');
	return {
		'HubSpot Trigger': items(
			events.map((event, index) => ({
				eventId: 3816279340 + index,
				subscriptionId: 25,
				portalId: 33,
				appId: 1160452,
				occurredAt: 1764324930000 + index,
				attemptNumber: 0,
				changeSource: 'CRM_UI',
				sourceId: 'userId:12345',
				...(event.created
					? { subscriptionType: 'deal.creation' }
					: {
							subscriptionType: 'deal.propertyChange',
							propertyName: 'dealstage',
							propertyValue: stage(event),
						}),
				dealId: Number(event.dealId),
			})),
		),
		'Get Deal': items(
			deals.map((event) => ({
				portalId: 33,
				dealId: Number(event.dealId),
				isDeleted: false,
				associations: {
					associatedVids: [Number(event.customerId) + 1000],
					associatedCompanyIds: [Number(event.customerId)],
					associatedDealIds: [],
					associatedTicketIds: [],
				},
				properties: {
					dealname: { value: event.name, timestamp: 1764324930000, source: 'CRM_UI' },
					dealstage: { value: stage(event), timestamp: 1764324930000, source: 'CRM_UI' },
					hs_is_closed_won: { value: String(event.won), timestamp: 1764324930000 },
					amount: { value: '5000', timestamp: 1764324930000, source: 'CRM_UI' },
				},
			})),
		),
		'Get Contact': items(
			wins.map((event) => ({
				vid: Number(event.customerId) + 1000,
				'canonical-vid': Number(event.customerId) + 1000,
				'portal-id': 33,
				'is-contact': true,
				properties: {
					firstname: { value: event.fullname.split(' ')[0] },
					lastname: { value: event.fullname.split(' ').slice(1).join(' ') },
					email: { value: event.email },
				},
			})),
		),
		'Get Company': items(
			wins.map((event) => ({
				portalId: 33,
				companyId: Number(event.customerId),
				isDeleted: false,
				properties: { name: { value: event.company, timestamp: 1764324930000 } },
			})),
		),
		'Keys on Deal': items(wins.map((event) => ({ dealId: Number(event.dealId) }))),
	};
}

/**
 * One Salesforce Trigger poll (Opportunity Updated, or Opportunity Created for opportunities
 * created as they are), one item per opportunity with the fields the trigger queries (Id,
 * AccountId, Amount, Probability, Type, LastModifiedDate), and what Get Opportunity's query
 * returns for each: the record with its account and, as SOQL nests a child relationship, its
 * primary contact role. The customer is the account, whose id is the event's customerId; an
 * empty customerId is an opportunity without an account.
 */
export function salesforcePins(events: DealEvent[]): Pins {
	const url = (type: string, id: string) => `/services/data/v59.0/sobjects/${type}/${id}`;
	return {
		[events.some((event) => event.created) ? 'Opportunity Created' : 'Opportunity Updated']: items(
			events.map((event) => ({
				attributes: { type: 'Opportunity', url: url('Opportunity', event.dealId) },
				Id: event.dealId,
				AccountId: event.customerId || null,
				Amount: 50000,
				Probability: event.won ? 100 : 60,
				Type: 'New Customer',
				LastModifiedDate: '2026-11-28T10:15:29.000+0000',
			})),
		),
		'Get Opportunity': items(
			firstOfEach(events).map((event) => ({
				attributes: { type: 'Opportunity', url: url('Opportunity', event.dealId) },
				Id: event.dealId,
				Name: event.name,
				IsWon: event.won,
				// SOQL gives null for the relationship of an opportunity without an account.
				AccountId: event.customerId || null,
				Account: event.customerId
					? {
							attributes: { type: 'Account', url: url('Account', event.customerId) },
							Name: event.company,
						}
					: null,
				OpportunityContactRoles: {
					totalSize: 1,
					done: true,
					records: [
						{
							attributes: {
								type: 'OpportunityContactRole',
								url: url('OpportunityContactRole', `00K${event.dealId.slice(3)}`),
							},
							Contact: {
								attributes: {
									type: 'Contact',
									url: url('Contact', `003${event.customerId.slice(3)}`),
								},
								Name: event.fullname,
								Email: event.email,
							},
						},
					],
				},
			})),
		),
		'Note on Opportunity': items(
			firstOfEach(events)
				.filter((event) => event.won)
				.map(() => ({ id: '0025g00000Note1AAB', success: true, errors: [] })),
		),
	};
}

/**
 * Salesforce's REST API as a test's failing Salesforce step meets it: every request answered with
 * `status` and an error body in Salesforce's documented shape (a list of `{ message, errorCode }`),
 * on 127.0.0.1. The tests' Salesforce credential holds a token whose instance URL is this server's,
 * so n8n's own Salesforce node sends to it: its error comes out as that node makes it. The error
 * codes and messages are this stand-in's choice, after Salesforce's REST API reference.
 */
export interface SalesforceStandIn {
	url: string;
	/** The status every request is answered with: 403 (a refusal) unless a test sets another. */
	status: number;
	/** The paths requested so far, in order. */
	readonly paths: string[];
	close(): Promise<void>;
}

const SALESFORCE_ERRORS: Record<number, { message: string; errorCode: string }> = {
	403: { message: 'Insufficient access rights on object id', errorCode: 'INSUFFICIENT_ACCESS' },
	503: { message: 'Server is unavailable, try again later', errorCode: 'SERVER_UNAVAILABLE' },
};

export async function startSalesforceStandIn(): Promise<SalesforceStandIn> {
	const paths: string[] = [];
	const standIn = { status: 403, paths } as SalesforceStandIn;
	const server = createServer((request, response) => {
		paths.push(request.url ?? '');
		request.resume();
		request.on('end', () => {
			const error = SALESFORCE_ERRORS[standIn.status] ?? {
				message: `HTTP ${standIn.status}`,
				errorCode: 'UNKNOWN_EXCEPTION',
			};
			response.writeHead(standIn.status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify([error]));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	standIn.url = `http://127.0.0.1:${port}`;
	standIn.close = async () => await new Promise<void>((resolve) => server.close(() => resolve()));
	return standIn;
}

/**
 * HubSpot's API as a test's failing HubSpot step meets it. The node sends to HubSpot's own HTTPS
 * address; n8n sends through the proxy HTTPS_PROXY names, and this proxy answers for HubSpot's host
 * itself, with a certificate the test's CA signed (n8n given that CA in NODE_EXTRA_CA_CERTS).
 * Every request is answered with `status` and an error body in HubSpot's documented shape; without
 * a `status`, the proxy answers 502 Bad Gateway, as a proxy that cannot reach the CRM does. The
 * bodies are this stand-in's choice, after HubSpot's API reference.
 */
export interface HubSpotStandIn {
	/** The proxy's address, for HTTPS_PROXY. */
	url: string;
	/** The certificate authority n8n must trust for HubSpot's host. */
	ca: string;
	status?: number;
	/** The paths HubSpot got, in order. */
	readonly paths: string[];
	close(): Promise<void>;
}

const TLS = new URL('./tls/', import.meta.url);

export async function startHubSpotStandIn(): Promise<HubSpotStandIn> {
	const paths: string[] = [];
	const proxy = { paths, ca: fileURLToPath(new URL('crm-ca.pem', TLS)) } as HubSpotStandIn;
	const key = readFileSync(new URL('crm.key', TLS));
	const cert = readFileSync(new URL('crm.pem', TLS));
	const crm = createServer((request, response) => {
		paths.push(request.url ?? '');
		request.resume();
		request.on('end', () => {
			const status = proxy.status!;
			const message = status === 429 ? 'Rate limit exceeded' : `Request failed (${status})`;
			const category = status === 429 ? 'RATE_LIMITS' : 'FORBIDDEN';
			response.writeHead(status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ status: 'error', message, category }));
		});
	});
	const server = createServer((_request, response) => {
		response.writeHead(405);
		response.end();
	});
	server.on('connect', (request: IncomingMessage, socket: Socket) => {
		const host = (request.url ?? '').split(':')[0];
		if (proxy.status === undefined || host !== 'api.hubapi.com') {
			socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		crm.emit('connection', new TLSSocket(socket, { isServer: true, key, cert }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	proxy.url = `http://127.0.0.1:${port}`;
	proxy.close = async () => {
		server.closeAllConnections();
		crm.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return proxy;
}
