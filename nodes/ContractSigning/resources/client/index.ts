import type { INodeProperties } from 'n8n-workflow';
import { operationRouting } from '../../shared/send';
import {
	clientCreateFields,
	clientMayExist,
	clientCreateRules,
	normalizeClientBody,
	simplifyClientCreated,
} from './create';

/** The operations of the Client resource. */
export const clientOperation: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['client'] } },
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a client with its users',
			description:
				'Create a client from a full name, email, organization, custom key and/or users (at least one). Returns clientKey, and userKey for each user; the first user is the default user.',
			routing: operationRouting({
				url: '/v1/client',
				action: 'create',
				resource: 'client',
				fields: clientCreateFields,
				rules: clientCreateRules,
				normalize: normalizeClientBody,
				simplify: simplifyClientCreated,
				mayExist: clientMayExist,
			}),
		},
	],
	default: 'create',
};
