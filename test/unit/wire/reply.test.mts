import { describe, expect, it } from 'vitest';
import { clientCreate } from '../../../nodes/ContractSigning/resources/client/create';
import { contractCreate } from '../../../nodes/ContractSigning/resources/contract/create';
import { ItemFailure } from '../../../nodes/ContractSigning/failure/item-failure';
import { checkReply, retryAfterMs } from '../../../nodes/ContractSigning/wire/reply';

const client = { clientKey: 'cli_1', createTime: '2026-01-01 00:00:00', users: [] };

describe('checkReply', () => {
	it.each([
		[201, { code: '201', message: 'Client created', client }],
		[201, { code: 201, message: 'Client created', client }],
		[200, { code: '200', message: 'Client created', client }],
	])('accepts HTTP %i with a 2xx code and the resource', (status, body) => {
		expect(checkReply(status, body, clientCreate)).toBe(body);
	});

	it.each([
		[200, { code: '400', message: 'data.client is required' }, 'data.client is required', '400'],
		[200, { code: 401, message: 'Invalid service key' }, 'Invalid service key', '401'],
		[400, { code: '400', message: 'Bad field' }, 'Bad field', '400'],
		[500, { code: '201', message: 'Client created', client }, 'Client created', '500'],
		[503, { message: 'Down for maintenance' }, 'Down for maintenance', '503'],
		[404, { code: '404' }, 'The service answered with code 404 and no message', '404'],
	])('refuses HTTP %i with %j, keeping the service message', (status, body, message, httpCode) => {
		const check = checkReply(status, body, clientCreate);
		expect(check).toBeInstanceOf(ItemFailure);
		expect(check).toMatchObject({ message, details: { code: httpCode } });
	});

	it.each([
		['401', "The service refused the API key. Check 'API Key' in the Contract Signing credential."],
		['403', "The service refused the API key. Check 'API Key' in the Contract Signing credential."],
		['429', 'The service is busy.'],
		[
			'500',
			'The service could not complete the request. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.',
		],
		['400', 'Check the fields of this node against the message above.'],
	])('hints what to do for code %s', (code, description) => {
		expect(checkReply(200, { code, message: 'x' }, contractCreate)).toMatchObject({ description });
	});

	it.each([
		[
			502,
			'<html><body>Bad gateway</body></html>',
			'The service sent a web page instead of data (HTTP 502)',
		],
		[200, '', 'The service sent an empty reply (HTTP 200)'],
		[200, undefined, 'The service sent an empty reply (HTTP 200)'],
		[
			200,
			'{"code":"201","mess',
			'The service sent an incomplete reply (HTTP 200): it may have been cut off',
		],
		[200, 'OK', 'The service sent a reply that is not JSON (HTTP 200)'],
		[200, [1, 2], 'The service sent a reply that is not JSON (HTTP 200)'],
	])('describes a reply that is not a JSON object: HTTP %i %j', (status, body, message) => {
		const check = checkReply(status, body, clientCreate);
		expect(check).toBeInstanceOf(ItemFailure);
		expect(check).toMatchObject({ message });
	});

	it('refuses a success without the resource the next steps need', () => {
		expect(
			checkReply(201, { code: '201', message: 'Contract created' }, contractCreate),
		).toMatchObject({
			kind: 'unknown',
			message: 'The service replied "Contract created" but sent no contract record',
		});
	});
});

describe('retryAfterMs', () => {
	const now = Date.parse('2026-11-23T10:00:00Z');

	it.each([
		['2', 2000],
		['0', 0],
		['Mon, 23 Nov 2026 10:00:05 GMT', 5000],
		['Mon, 23 Nov 2026 09:59:00 GMT', 0],
		['soon', undefined],
		[undefined, undefined],
	])('reads %j as %j ms', (value, expected) => {
		expect(retryAfterMs(value, now)).toBe(expected);
	});
});
