import { NodeApiError, type JsonObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import {
	describeTransportFailure,
	networkError,
} from '../../../nodes/ContractSigning/wire/transport-failure';

describe('describeTransportFailure', () => {
	it('says a refused connection is one, and points at the Base URL', () => {
		expect(
			describeTransportFailure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'),
		).toMatchObject({
			message: 'The service refused the connection',
			description:
				"Nothing answers at the Base URL. Check 'Base URL' in the Contract Signing credential and that the service is up.",
			kind: 'busy',
		});
	});

	it('waits out a name server that did not answer (EAI_AGAIN), and refuses an unknown host (ENOTFOUND)', () => {
		expect(
			describeTransportFailure('EAI_AGAIN', 'getaddrinfo EAI_AGAIN sign.example.com'),
		).toMatchObject({
			message: 'The Base URL’s host name could not be looked up',
			description:
				'Nothing was sent: the name server did not answer. This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.',
			kind: 'busy',
		});
		expect(
			describeTransportFailure('ENOTFOUND', 'getaddrinfo ENOTFOUND sign.example.com'),
		).toMatchObject({
			message: 'The Base URL’s host name is unknown',
			description: "Nothing was sent. Check 'Base URL' in the Contract Signing credential.",
			kind: 'refused',
		});
	});

	it('calls a timeout a timeout, and points at the Timeout in the node’s Settings', () => {
		const { message, description } = describeTransportFailure(
			'ECONNABORTED',
			'timeout of 300ms exceeded',
			300,
		);
		expect(message).toBe('The service did not answer in time (timeout of 300ms exceeded)');
		expect(description).toMatch(
			/^To give the service more time, open the node’s Settings, add Timeout under Request Options and enter more than 300, such as 600 \(it counts milliseconds\)/,
		);
	});

	// Timeout counts milliseconds and is 10000 when added: a hint that named no value, or seconds,
	// would have a user cut the node's own 300000 without Timeout down to 10000.
	it.each([300, 10_000, 300_000])(
		'after %i ms, names a Timeout that gives more time than the request had',
		(hadMs) => {
			const { description } = describeTransportFailure(
				'ECONNABORTED',
				`timeout of ${hadMs}ms exceeded`,
				hadMs,
			);
			const [, more, suggested] = /more than (\d+), such as (\d+)/.exec(description) ?? [];
			expect(Number(more)).toBe(hadMs);
			expect(Number(suggested)).toBeGreaterThan(hadMs);
		},
	);

	it('keeps a network code out of the message, where n8n would put its own words', () => {
		expect(describeTransportFailure('ECONNRESET', 'read ECONNRESET').message).toBe(
			'The connection closed before the reply was complete',
		);
		const other = describeTransportFailure('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.9:443');
		expect(other.message).toBe('The request to the service failed');
		expect(other.description).toBe(
			"Check 'Base URL' in the Contract Signing credential. What the network said: connect EHOSTUNREACH 10.0.0.9:443.",
		);
		const tls = describeTransportFailure('EPROTO', 'write EPROTO wrong version number');
		expect(tls.message).toBe('The service’s secure connection could not be trusted');
		expect(tls.description).toMatch(/^Nothing was sent\. /);
	});

	it('says a cut connection is worth a retry', () => {
		expect(describeTransportFailure('ECONNRESET', 'socket hang up').message).toBe(
			'The connection closed before the reply was complete (socket hang up)',
		);
	});
});

describe('networkError, through the NodeApiError httpRequestWithAuthentication throws', () => {
	const node = {
		id: '1',
		name: 'Create Client',
		type: 'n8n-nodes-contract-signing.contractSigning',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	const timeout = Object.assign(new Error('timeout of 2000ms exceeded'), {
		code: 'ECONNABORTED',
		isAxiosError: true,
	});

	it('n8n 2.x: the request’s own error is the cause', () => {
		expect(networkError(new NodeApiError(node, timeout as unknown as JsonObject))).toEqual({
			code: 'ECONNABORTED',
			detail: 'timeout of 2000ms exceeded',
			sent: true,
		});
		const refusal = new Error('The Contract Signing API credential sends its key only to …');
		expect(networkError(new NodeApiError(node, refusal as unknown as JsonObject))).toMatchObject({
			sent: false,
		});
	});

	it('n8n 1.x: no cause, the code in httpCode and the network’s text first in messages', () => {
		// NodeApiError as n8n-workflow 1.123.81 leaves it: its `cause` field reset after the constructor.
		const oneX = (code: string | null, text: string) =>
			Object.assign(new Error('n8n’s own words'), {
				name: 'NodeApiError',
				cause: undefined,
				httpCode: code,
				messages: [text],
			});
		expect(networkError(oneX('ECONNABORTED', 'timeout of 2000ms exceeded'))).toEqual({
			code: 'ECONNABORTED',
			detail: 'timeout of 2000ms exceeded',
			sent: true,
		});
		expect(networkError(oneX(null, 'The Contract Signing API credential sends …'))).toEqual({
			code: undefined,
			detail: 'The Contract Signing API credential sends …',
			sent: false,
		});
	});
});
