import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** The Client Key field, the same in every operation that works on an existing client. */
export function clientKeyField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Client Key',
		name: 'clientKey',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.clientKey }}',
		description:
			'Key of the client, as returned by Client → Create. Map it from an earlier step with an expression.',
		displayOptions,
		routing: { send: { type: 'body', property: 'data.clientKey' } },
	};
}

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat item with the keys the next steps map (such as clientKey, userKey, contractKey) instead of the full reply of the service',
	hint: 'Off: the full reply of the service, with its code and message',
};
