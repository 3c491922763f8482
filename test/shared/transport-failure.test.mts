import { describe, expect, it } from 'vitest';
import { describeTransportFailure } from '../../nodes/ContractSigning/shared/transport-failure';

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
