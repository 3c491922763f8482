import { describe, expect, it } from 'vitest';
import { checkReply, describeTransportFailure } from '../../nodes/ContractSigning/shared/reply';

const client = { clientKey: 'cli_1', createTime: '2026-01-01 00:00:00', users: [] };

describe('checkReply', () => {
	it.each([
		[201, { code: '201', message: 'Client created', client }],
		[201, { code: 201, message: 'Client created', client }],
		[200, { code: '200', message: 'Client created', client }],
	])('accepts HTTP %i with a 2xx code and the resource', (status, body) => {
		expect(checkReply(status, body, 'client')).toEqual({ ok: true, body });
	});

	it.each([
		[200, { code: '400', message: 'data.client is required' }, 'data.client is required', '400'],
		[200, { code: 401, message: 'Invalid service key' }, 'Invalid service key', '401'],
		[400, { code: '400', message: 'Bad field' }, 'Bad field', '400'],
		[500, { code: '201', message: 'Client created', client }, 'Client created', '500'],
		[503, { message: 'Down for maintenance' }, 'Down for maintenance', '503'],
		[404, { code: '404' }, 'The service answered with code 404 and no message', '404'],
	])('refuses HTTP %i with %j, keeping the service message', (status, body, message, httpCode) => {
		const check = checkReply(status, body, 'client');
		expect(check).toMatchObject({ ok: false, message, httpCode });
	});

	it.each([
		[
			'401',
			'The service refused the API key. Check the API Key in the Contract Signing credential.',
		],
		[
			'403',
			'The service refused the API key. Check the API Key in the Contract Signing credential.',
		],
		[
			'429',
			'The service is busy. If you know its limit, set Request Rate → Max Requests per Second to it; or run the workflow again later.',
		],
		[
			'500',
			'The service had a problem. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node settings.',
		],
		['400', 'Check the fields of this node against the message above.'],
	])('hints what to do for code %s', (code, description) => {
		expect(checkReply(200, { code, message: 'x' }, 'contract')).toMatchObject({ description });
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
		expect(checkReply(status, body, 'client')).toMatchObject({ ok: false, message });
	});

	it('refuses a success without the resource the next steps need', () => {
		expect(checkReply(201, { code: '201', message: 'Contract created' }, 'contract')).toMatchObject(
			{
				ok: false,
				message: 'The service replied "Contract created" but sent no contract record',
			},
		);
	});
});

describe('describeTransportFailure', () => {
	it('keeps n8n’s message for a refused connection and points at the Base URL', () => {
		expect(describeTransportFailure('ECONNREFUSED', 'connect ECONNREFUSED', 'refused')).toEqual({
			message: 'refused',
			description:
				'Nothing answers at the Base URL. Check the Base URL in the Contract Signing credential and that the service is up.',
			outcome: 'busy',
		});
	});

	it('calls a timeout a timeout, and points at Options → Timeout', () => {
		const { message, description } = describeTransportFailure(
			'ECONNABORTED',
			'timeout of 300ms exceeded',
			'The connection was aborted, perhaps the server is offline',
		);
		expect(message).toBe('The service did not answer in time (timeout of 300ms exceeded)');
		expect(description).toMatch(/^Raise Options → Timeout/);
	});

	it('says a cut connection is worth a retry', () => {
		expect(describeTransportFailure('ECONNRESET', 'socket hang up', 'x').message).toBe(
			'The connection closed before the reply was complete (socket hang up)',
		);
	});
});
