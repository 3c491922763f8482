/**
 * What Failed and Mark for Retry of the contract engine, given each failure as the node that
 * failed puts it out under On Error → Continue (using error output), read in n8n-nodes-base 2.41.1:
 * Pipedrive v2 (`actions/<resource>/get.operation.js`) and HubSpot v2 (`HubspotV2.node.js`) give
 * `{ error: error.message }`, text only; Salesforce (`Salesforce.node.js`) gives the message with
 * `httpCode` beside it; the Contract Signing node gives `{ error: { message, code, description } }`.
 * The HTTP Request node's (its error itself) is met in test/e2e/won-deals.e2e.mts, the CRM refusing
 * the keys with 503 and 429 to a real HTTP Request node, and so are the Salesforce node's and the
 * HubSpot node's, their reads answered 503 and 429 (waited out) and 403 (counted) by stand-ins;
 * Pipedrive's there only with the CRM unreachable. The messages are
 * n8n's own, made here by n8n-workflow's NodeApiError as those nodes make them. The expressions
 * are evaluated as JavaScript with `$json`, `$('Deal')` and `$now`; a real n8n runs them in
 * test/e2e/won-deals.e2e.mts.
 */
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import {
	MAX_TRIES,
	SUMMARY_HOUR,
	TELL_AFTER_HOURS,
	WON_DEALS_TABLE,
} from '../scripts/deal-examples.mts';

type Json = Record<string, unknown>;

const workflow = JSON.parse(
	readFileSync(new URL('../examples/contract-engine.json', import.meta.url), 'utf8'),
) as { nodes: Array<{ name: string; parameters: Json }> };
const step = (name: string) => workflow.nodes.find((node) => node.name === name)!.parameters;
const assignments = (
	step('What Failed').assignments as { assignments: Array<{ name: string; value: string }> }
).assignments;
const expression = (value: string) => value.replace(/^=\{\{([\s\S]*)\}\}$/, '$1');

function evaluate(value: string, json: Json, deal: Json): unknown {
	const $ = (name: string) => {
		if (name !== 'Deal') throw new Error(`no step ${name} here`);
		return { item: { json: deal } };
	};
	const run = new Function('$json', '$', '$now', `return (${expression(value)});`);
	return run(json, $, DateTime.now());
}

/** What Failed's status and tries, then the told Mark for Retry writes, for a deal's failure. */
function whatFailed(failure: Json, deal: Json = {}) {
	const row = { tries: '0', told: '', createdAt: new Date().toISOString(), ...deal };
	const out: Json = {};
	for (const { name, value } of assignments) out[name] = evaluate(value, failure, row);
	const columns = (step('Mark for Retry').columns as { value: Json }).value;
	out.told = evaluate(columns.told as string, out, row);
	return out;
}

const node: INode = {
	id: 'crm',
	name: 'Get Deal',
	type: 'n8n-nodes-base.pipedrive',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};
/** The error a CRM node's request helper throws: a reply's HTTP status, or a network code. */
const httpError = (statusCode: number) =>
	new NodeApiError(node, { message: `Request failed with status code ${statusCode}`, statusCode });
const networkError = (code: string) =>
	new NodeApiError(
		node,
		Object.assign(new Error(`getaddrinfo ${code} api.crm.example`), {
			code,
		}) as unknown as JsonObject,
	);
/** As the Pipedrive and HubSpot nodes put it out: the message alone. */
const asText = (error: NodeApiError) => ({ error: error.message });
/** As the Salesforce node puts it out. */
const asSalesforce = (error: NodeApiError) => ({
	error: error.message,
	description: error.description ?? null,
	httpCode: error.httpCode ?? null,
	errorCode: null,
	fields: null,
});
/** A failure as each CRM node puts it out, named for the test's title. */
const asEachCrm = (what: string, error: NodeApiError): Array<[string, Json]> => [
	[`Pipedrive or HubSpot, ${what}`, asText(error)],
	[`Salesforce, ${what}`, asSalesforce(error)],
];

describe('What Failed: a busy or unreachable CRM or service is waited out, not counted', () => {
	const busy: Array<[string, Json]> = [
		...[429, 500, 502, 503, 504].flatMap((status) =>
			asEachCrm(`HTTP ${status}`, httpError(status)),
		),
		...[
			'ECONNREFUSED',
			'ECONNRESET',
			'ETIMEDOUT',
			'EAI_AGAIN',
			'ENOTFOUND',
			'EHOSTUNREACH',
		].flatMap((code) => asEachCrm(code, networkError(code))),
		['Contract Signing, 503', { error: { message: 'Busy', code: '503' } }],
		['Contract Signing, ECONNREFUSED', { error: { message: 'Refused', code: 'ECONNREFUSED' } }],
	];
	it.each(busy)('%s: retry, tries unchanged', (_what, failure) => {
		expect(whatFailed(failure, { tries: '2' })).toMatchObject({ status: 'retry', tries: '2' });
	});
});

describe('What Failed: a refusal is counted, and a deal refused too often is failed', () => {
	const refused: Array<[string, Json]> = [
		...[400, 401, 403, 404, 422].flatMap((status) =>
			asEachCrm(`HTTP ${status}`, httpError(status)),
		),
		['a message of its own, as text', { error: 'Deal not found' }],
		['Contract Signing, 400', { error: { message: 'Template not found', code: '400' } }],
	];
	it.each(refused)('%s: counted', (_what, failure) => {
		expect(whatFailed(failure)).toMatchObject({ status: 'retry', tries: '1' });
		expect(whatFailed(failure, { tries: String(MAX_TRIES - 1) })).toMatchObject({
			status: 'failed',
			tries: String(MAX_TRIES),
			told: 'no',
		});
	});

	it('a create the service did not confirm: check, for a person', () => {
		const failure = {
			error: {
				message: 'Timeout',
				code: 'ECONNABORTED',
				description: 'The client may have been created all the same.',
			},
		};
		expect(whatFailed(failure)).toMatchObject({ status: 'check', told: 'no' });
	});
});

describe(`Mark for Retry: a deal still not finished ${TELL_AFTER_HOURS} hours after it was recorded is told of, once`, () => {
	const busy = asText(httpError(503));
	const recorded = (hours: number) => DateTime.now().minus({ hours }).toISO();

	it('recorded a while ago: not yet', () => {
		expect(whatFailed(busy, { createdAt: recorded(TELL_AFTER_HOURS - 1) }).told).toBe('');
	});

	it(`recorded over ${TELL_AFTER_HOURS} hours ago: told`, () => {
		expect(whatFailed(busy, { createdAt: recorded(TELL_AFTER_HOURS + 1) }).told).toBe('no');
	});

	it('a deal waiting for its customer’s client: told by the same rule', () => {
		const told = (step('Wait for Client').columns as { value: Json }).value.told as string;
		const deal = (hours: number, told = '') => ({ createdAt: recorded(hours), told });
		expect(evaluate(told, {}, deal(TELL_AFTER_HOURS - 1))).toBe('');
		expect(evaluate(told, {}, deal(TELL_AFTER_HOURS + 1))).toBe('no');
		expect(evaluate(told, {}, deal(TELL_AFTER_HOURS + 1, 'yes'))).toBe('yes');
	});

	it('told of already: not again', () => {
		const deal = { createdAt: recorded(TELL_AFTER_HOURS + 1), told: 'yes' };
		expect(whatFailed(busy, deal).told).toBe('yes');
	});
});

/** A step's text evaluated as n8n would, with `rows` the output of the step it reads. */
function text(name: string, reads: string, rows: Json[]): string {
	const value = step(name).text as string;
	const $ = (other: string) => {
		if (other !== reads) throw new Error(`no step ${other} here`);
		return { all: () => rows.map((json) => ({ json })) };
	};
	return new Function('$', `return (${expression(value)});`)($) as string;
}

describe('Tell a Person: what the sweep says of each deal', () => {
	const message = (rows: Json[]) => text('Tell a Person', 'Deals for a Person', rows);

	it('a deal still tried again: how long, its problem, and that it goes on by itself', () => {
		const text = message([
			{ dealId: 'D-1', status: 'retry', problem: 'The service refused the connection' },
			{
				dealId: 'D-2',
				status: 'waiting',
				problem: 'The customer’s first deal has not made the client yet.',
			},
		]);
		expect(text).toContain(
			`Deal D-1: still not finished ${TELL_AFTER_HOURS} hours after it was won (The service refused the connection). It is tried again every 10 minutes`,
		);
		expect(text).toContain(
			`Deal D-2: still not finished ${TELL_AFTER_HOURS} hours after it was won`,
		);
		expect(text.startsWith('2 won deal(s)')).toBe(true);
		// Where the person changes a row, as the README says.
		expect(text).toContain(
			`(in n8n: Overview → Data tables → ${WON_DEALS_TABLE.name}; double-click a cell to change it, Enter saves it)`,
		);
	});

	it('a failed deal and one to check keep their own fixes', () => {
		const text = message([
			{ dealId: 'D-3', status: 'failed', tries: '3', problem: 'Template not found' },
			{ dealId: 'D-4', status: 'check', customerId: 'C-4', clientKey: '' },
		]);
		expect(text).toContain('Deal D-3: refused 3 times (Template not found). Correct this');
		expect(text).toContain('Deal D-4: the service may have made its client (Custom Key C-4)');
	});
});

describe('Daily Summary: the deals not done, every day', () => {
	const summary = (rows: Json[]) => text('Daily Summary', 'Open Deals', rows);

	it('names each deal not done with its status and problem', () => {
		const message = summary([
			{ id: 1, dealId: 'D-5', status: 'retry', problem: 'The service refused the connection' },
			{ id: 2, dealId: 'D-6', status: 'waiting', problem: '' },
		]);
		expect(message).toContain(
			`2 won deal(s) in the data table ${WON_DEALS_TABLE.name} are not done: Deal D-5: retry (The service refused the connection); Deal D-6: waiting.`,
		);
		expect(message).toContain(`This summary comes every day at ${SUMMARY_HOUR}`);
	});

	it('with none (Open Deals puts out one empty item): every deal done, and it still comes', () => {
		const message = summary([{}]);
		expect(
			message.startsWith(`Every won deal in the data table ${WON_DEALS_TABLE.name} is done.`),
		).toBe(true);
		expect(message).toContain('if it stops coming');
	});
});
