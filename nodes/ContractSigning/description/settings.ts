/**
 * The settings every operation shows below its own fields, as data: Simplify, and the limits for
 * a busy service and for the node's own pace. Version 1 of the node shows the limits in two
 * collections of its own, Retry When Busy and Request Rate; later versions gather them in
 * Options, as n8n's own nodes do, under the same parameter names inside. Each version shows and
 * reads only its own, so a saved version-1 workflow keeps its limits. They are read where they
 * act: Simplify in item/output.ts, the limits in pacing/limits.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

/** The node's version whose limits sit in collections of their own. */
export const FIRST_VERSION = 1;

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a flat item with the keys the next steps map (such as clientKey, userKey, contractKey) instead of the full reply of the service',
	hint: 'Off: the full reply of the service, with its code and message',
};

export const DEFAULT_MAX_RETRIES = 5;
export const DEFAULT_MAX_WAIT_SECONDS = 60;

const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries When Busy',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 20 },
	default: DEFAULT_MAX_RETRIES,
	description: `When the service says it is busy (429 or 503) or refuses the connection, it has not acted on the request: the node waits, as long as the service asks, and sends the item again, at most this many times. Without this option, ${DEFAULT_MAX_RETRIES} times; 0 turns waiting off.`,
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
	displayOptions: { hide: { '@version': [FIRST_VERSION] } },
	options: [maxAtOnceOption, maxPerSecondOption, maxRetriesOption, maxWaitOption],
};

/** Version 1's collection for a busy service. */
export const retryWhenBusyField: INodeProperties = {
	displayName: 'Retry When Busy',
	name: 'retryWhenBusy',
	type: 'collection',
	placeholder: 'Add Limit',
	default: {},
	displayOptions: { show: { '@version': [FIRST_VERSION] } },
	description:
		'When the service says it is busy (429 or 503) or refuses the connection, it has not acted on the request: the node waits, as long as the service asks, and sends that item again',
	options: [
		{
			...maxRetriesOption,
			displayName: 'Max Retries',
			description: 'How many times at most one item is sent again. 0 turns waiting off.',
		},
		{
			...maxWaitOption,
			displayName: 'Max Wait (Seconds)',
			description: 'How long at most the node waits for one item, in all',
		},
	],
};

/** Version 1's collection for the node's own pace. */
export const requestRateField: INodeProperties = {
	displayName: 'Request Rate',
	name: 'requestRate',
	type: 'collection',
	placeholder: 'Add Limit',
	default: {},
	displayOptions: { show: { '@version': [FIRST_VERSION] } },
	description:
		'The node finds the service’s pace by itself, for all executions that use the same account at once: it starts with 10 requests at once and sends more at once while the service keeps up (at most 256), and takes turns and spaces requests out once the service says it is busy. Add a limit to cap this node’s own requests.',
	options: [maxPerSecondOption, maxAtOnceOption],
};
