/**
 * replyFailure: what a reply of the service means for the item (the record, or a failure: refused,
 * busy or unknown), and retryAfterMs: how long the service asked to be left alone. Both called
 * directly with replies as n8n hands them to the operation's postReceive.
 */
import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import {
	replyFailure,
	retryAfterMs,
	TRY_LATER,
	type ExpectedReply,
} from '../../../nodes/ContractSigning/shared/reply';

const client: ExpectedReply = {
	member: 'client',
	key: 'clientKey',
	notFoundHint: "Check 'Base URL' in the Contract Signing credential.",
};
const contract: ExpectedReply = {
	member: 'contract',
	key: 'contractKey',
	notFoundHint: 'Check the keys this node sends: the service does not know one of them.',
};
const created = { clientKey: 'cli_1', createTime: '2026-01-01 00:00:00', users: [] };

function reply(statusCode: number, body: unknown, headers: IDataObject = {}): IN8nHttpFullResponse {
	return { statusCode, headers, body: body as IN8nHttpFullResponse['body'] };
}

describe('replyFailure: a reply that holds the record', () => {
	it.each([
		[201, { code: '201', message: 'Client created', client: created }],
		[201, { code: 201, message: 'Client created', client: created }],
		[200, { code: '200', message: 'Client created', client: created }],
		[200, { message: 'Client created', client: created }],
		[201, { code: '201', client: { clientKey: 42 } }],
	])('is no failure: HTTP %i with %j', (status, body) => {
		expect(replyFailure(reply(status, body), client)).toBeUndefined();
	});
});

describe('replyFailure: outside 2xx, the HTTP status decides', () => {
	it.each([
		[500, '404', 'unknown'],
		[500, '429', 'unknown'],
		[500, '201', 'unknown'],
		[502, '400', 'unknown'],
		[404, '500', 'refused'],
		[400, '200', 'refused'],
		[503, '400', 'busy'],
		[429, '201', 'busy'],
	])(
		'HTTP %i with code %s in the body: %s, with the HTTP status as code',
		(status, code, outcome) => {
			const failure = replyFailure(reply(status, { code, message: 'Said' }), client);
			expect(failure).toMatchObject({ outcome, code: String(status), message: 'Said' });
		},
	);

	it('a 5xx the service may have acted on: try later', () => {
		expect(replyFailure(reply(500, { code: '404', message: 'Client not found' }), client)).toEqual({
			message: 'Client not found',
			description: `The service could not complete the request. ${TRY_LATER}`,
			code: '500',
			outcome: 'unknown',
			reply: { code: '404', message: 'Client not found' },
		});
	});
});

describe('replyFailure: within 2xx, the body’s code decides', () => {
	it.each([
		['404', 'refused', contract.notFoundHint],
		[
			'401',
			'refused',
			"The service refused the API key. Check 'API Key' in the Contract Signing credential.",
		],
		[
			'403',
			'refused',
			"The service refused the API key. Check 'API Key' in the Contract Signing credential.",
		],
		['400', 'refused', 'Check the fields of this node against the message above.'],
		[
			'409',
			'refused',
			'The service cannot do this in the current state of the record. Check the keys and fields this node sends.',
		],
		['429', 'busy', `The service is busy. ${TRY_LATER}`],
		['503', 'busy', `The service is busy. ${TRY_LATER}`],
		['500', 'unknown', `The service could not complete the request. ${TRY_LATER}`],
	])('HTTP 200 with code %s: %s', (code, outcome, description) => {
		expect(replyFailure(reply(200, { code, message: 'Said' }), contract)).toEqual({
			message: 'Said',
			description,
			code,
			outcome,
			reply: { code, message: 'Said' },
		});
		expect(
			replyFailure(reply(200, { code: Number(code), message: 'Said' }), contract),
		).toMatchObject({ code, outcome });
	});

	it('a success without the record’s key: unknown, the record may exist', () => {
		for (const body of [
			{ code: '201', message: 'Contract created' },
			{ code: '201', message: 'Contract created', contract: {} },
			{ code: '201', message: 'Contract created', contract: { contractKey: '  ' } },
			{ code: '201', message: 'Contract created', contract: 'ctr_1' },
		]) {
			expect(replyFailure(reply(201, body), contract)).toMatchObject({
				message: 'The service replied "Contract created" but sent no contract with its contractKey',
				description: `The reply lacks the contractKey the next steps need. ${TRY_LATER}`,
				code: '201',
				outcome: 'unknown',
			});
		}
	});

	it('an error that comes with the record’s key contradicts itself: unknown', () => {
		const body = { code: '409', message: 'Conflict', client: created };
		expect(replyFailure(reply(200, body), client)).toMatchObject({
			code: '409',
			outcome: 'unknown',
			description: `The service could not complete the request. ${TRY_LATER}`,
		});
	});

	it('an error without a message says its code', () => {
		expect(replyFailure(reply(200, { code: '404' }), client)).toMatchObject({
			message: 'The service answered with code 404 and no message',
			description: client.notFoundHint,
			outcome: 'refused',
		});
	});

	it('shortens a message longer than anyone reads, and keeps the code and message of a very long reply', () => {
		const said = 'x'.repeat(2500);
		const failure = replyFailure(
			reply(400, { code: '400', message: said, trace: 'y'.repeat(20_000) }),
			client,
		);
		expect(failure?.message).toBe(`${'x'.repeat(2000)}… (500 more characters)`);
		expect(failure?.reply).toEqual({
			code: '400',
			message: failure?.message,
			note: expect.stringMatching(/^The rest of the reply \(\d+ characters\) is not kept\.$/),
		});
	});
});

describe('replyFailure: a redirect', () => {
	it('is refused and names where it leads: the node follows none', () => {
		const failure = replyFailure(
			reply(307, '', { location: 'https://elsewhere.example/v1/client' }),
			client,
		);
		expect(failure).toEqual({
			message: 'The service address redirects to https://elsewhere.example/v1/client (HTTP 307)',
			description:
				"Nothing was sent there: the node does not follow redirects. If the service has moved, enter its new address as 'Base URL' in the Contract Signing credential.",
			code: '307',
			outcome: 'refused',
			reply: {
				message: 'The service address redirects to https://elsewhere.example/v1/client (HTTP 307)',
			},
		});
	});

	it('without a Location, and with a JSON body', () => {
		expect(replyFailure(reply(301, { code: '201', client: created }), client)).toMatchObject({
			message: 'The service address redirects to another address (HTTP 301)',
			outcome: 'refused',
		});
	});
});

describe('replyFailure: a reply that is not a JSON object', () => {
	it.each([
		[
			502,
			'<html><body>Bad gateway</body></html>',
			'The service sent a web page instead of data (HTTP 502)',
			'unknown',
		],
		[
			503,
			'  <!doctype html><p>Maintenance</p>',
			'The service sent a web page instead of data (HTTP 503)',
			'busy',
		],
		[
			404,
			'<html>Not found</html>',
			'The service sent a web page instead of data (HTTP 404)',
			'refused',
		],
		[200, '', 'The service sent an empty reply (HTTP 200)', 'unknown'],
		[200, undefined, 'The service sent an empty reply (HTTP 200)', 'unknown'],
		[200, null, 'The service sent an empty reply (HTTP 200)', 'unknown'],
		[200, 'OK', 'The service sent a reply that is not JSON (HTTP 200)', 'unknown'],
		[200, '{"code":"201","mess', 'The service sent a reply that is not JSON (HTTP 200)', 'unknown'],
		[201, [created], 'The service sent a reply that is not JSON (HTTP 201)', 'unknown'],
		[400, 42, 'The service sent a reply that is not JSON (HTTP 400)', 'refused'],
	])('HTTP %i %j: "%s", %s', (status, body, message, outcome) => {
		expect(replyFailure(reply(status, body), client)).toMatchObject({
			message,
			outcome,
			code: String(status),
			reply: { message },
		});
	});

	it('within 2xx, points at the Base URL: something else may answer there', () => {
		expect(replyFailure(reply(200, '<html>Welcome</html>'), client)?.description).toBe(
			`Check that 'Base URL' in the Contract Signing credential points to the service. ${TRY_LATER}`,
		);
	});
});

describe('retryAfterMs', () => {
	const now = Date.parse('2026-11-23T10:00:00Z');

	it.each([
		['2', 2000],
		[' 2 ', 2000],
		['0', 0],
		['1.5', 1500],
		['0.0004', 1],
		[['3', '9'], 3000],
		[4, 4000],
		['Mon, 23 Nov 2026 10:00:05 GMT', 5000],
		['Mon, 23 Nov 2026 09:59:00 GMT', 0],
		['soon', undefined],
		['', undefined],
		[undefined, undefined],
		[null, undefined],
	])('reads %j as %j ms', (value, expected) => {
		expect(retryAfterMs(value, now)).toBe(expected);
	});
});
