/**
 * The settings every operation shows below its own fields, as data: Simplify, and Options with
 * the limits for a busy service and for the node's own pace. They are read where they act:
 * Simplify in item/output.ts, the limits in pacing/limits.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simple',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
	hint: 'On: a flat item with the keys the next steps map, such as clientKey, userKey and contractKey. Off: the full reply of the service.',
};

export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_MAX_WAIT_SECONDS = 60;

const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries When Busy',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 20 },
	default: DEFAULT_MAX_RETRIES,
	description: `When the service says it is busy or refuses the connection, it has not acted on the request: the node waits, as long as the service asks, and sends the item again, at most this many times. Without this option, ${DEFAULT_MAX_RETRIES} times; 0 turns waiting off.`,
};

const maxWaitOption: INodeProperties = {
	displayName: 'Max Wait When Busy (Seconds)',
	name: 'maxWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 3600 },
	default: DEFAULT_MAX_WAIT_SECONDS,
	description: `How long at most the node waits for a busy service, in all, for one item. Without this option, ${DEFAULT_MAX_WAIT_SECONDS} seconds.`,
};

const maxAtOnceOption: INodeProperties = {
	displayName: 'Max Requests at Once',
	name: 'maxAtOnce',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000 },
	default: 10,
	description:
		'How many of this node’s requests may wait for the service’s answer at the same time, within one execution. Without this option, the node starts with 10 at once and sends more while the service keeps up, at most 256 at once for all executions that use the same account. With it, the node starts with this many at once until the service says it is busy, which saves time when the service is slow to answer; a value above 256 lets this node go beyond 256.',
};

const maxPerSecondOption: INodeProperties = {
	displayName: 'Max Requests per Second',
	name: 'maxPerSecond',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 10,
	description:
		'This node never sends faster than this within one execution, such as the limit your service’s plan allows. Without this option, the node finds the service’s pace by itself, for all executions that use the same account: it starts with 10 requests at once and sends more at once while the service keeps up, and spaces requests out once the service says it is busy.',
};

export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [maxAtOnceOption, maxPerSecondOption, maxRetriesOption, maxWaitOption],
};
