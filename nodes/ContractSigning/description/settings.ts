/** The settings every operation shows below its fields, read in output.ts and limits.ts. */
import type { INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	hint: 'On: one flat item with the keys the next steps map, such as clientKey. Off: the service’s full reply.',
};

export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_MAX_WAIT_SECONDS = 60;

const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries When Busy',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 20 },
	default: DEFAULT_MAX_RETRIES,
	description:
		'How many times to send an item again while the service is busy or refuses the connection. 0 fails the item at once.',
};

const maxWaitOption: INodeProperties = {
	displayName: 'Max Wait When Busy (Seconds)',
	name: 'maxWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 3600 },
	default: DEFAULT_MAX_WAIT_SECONDS,
	description: 'How long to wait in all for a busy service, for each item',
};

const maxAtOnceOption: INodeProperties = {
	displayName: 'Max Requests at Once',
	name: 'maxAtOnce',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000 },
	default: 10,
	description:
		'How many requests may wait for the service’s answer at the same time. Without this option, the node finds the number by itself.',
};

const maxPerSecondOption: INodeProperties = {
	displayName: 'Max Requests per Second',
	name: 'maxPerSecond',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 10,
	description:
		'The most requests per second to send, such as the limit of your service plan. Without this option, the node slows down when the service says it is busy.',
};

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [maxAtOnceOption, maxPerSecondOption, maxRetriesOption, maxWaitOption],
};
