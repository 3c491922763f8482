import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INode,
	type JsonObject,
} from 'n8n-workflow';
import type { Outcome } from './reply';

export const NOTHING_SENT =
	'Nothing was sent to the service: run the item again once this is corrected.';

/**
 * Why an item failed:
 * - `input`: nothing was sent; the node refused the item's fields, or the credential cannot work;
 * - `refused`, `busy`, `unknown`: what the service's answer, or its silence, means for the record
 *   (see `Outcome` in reply.ts).
 */
export type FailureKind = 'input' | Outcome;

export interface FailureDetails {
	/** HTTP status, the service's code, or the network error code. */
	code?: string;
	/** The service's reply, secret masked, for the error n8n shows. */
	reply?: JsonObject;
	/** How long the service asked to wait (Retry-After), in milliseconds. */
	retryAfterMs?: number;
	/** The item must not be sent again in this run: the service may have created its record. */
	final?: boolean;
}

/**
 * An item's failure and what it means. Each step of the send path returns it in place of its
 * result; the node turns it into n8n's error, or the item's error output.
 */
export class ItemFailure {
	constructor(
		readonly kind: FailureKind,
		readonly message: string,
		readonly description: string,
		readonly details: FailureDetails = {},
	) {}

	/** The same failure, told differently or marked final. */
	with(description: string, details: FailureDetails = {}): ItemFailure {
		return new ItemFailure(this.kind, this.message, description, { ...this.details, ...details });
	}
}

/** Input the node refuses, or an expression n8n could not evaluate: nothing was sent. */
export function inputFailure(error: unknown): ItemFailure {
	const { message, description } = error as { message?: string; description?: unknown };
	return new ItemFailure(
		'input',
		message ?? String(error),
		typeof description === 'string' ? description : '',
	);
}

/** The error n8n shows for the failure. */
export function nodeErrorOf(
	node: INode,
	failure: ItemFailure,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (failure.kind === 'input') {
		return new NodeOperationError(node, failure.message, {
			description: failure.description || undefined,
			itemIndex,
		});
	}
	const { reply, code } = failure.details;
	// The code is kept out of a transport error: n8n rewrites the message of a code it knows.
	return new NodeApiError(node, reply ?? { message: failure.message }, {
		message: failure.message,
		description: failure.description,
		httpCode: reply ? code : undefined,
		itemIndex,
	});
}

/**
 * The item's output under "On Error: Continue": `error` as the only key, the one shape that both
 * n8n 1.x and 2.x route to the error output under "Continue (using error output)" (1.x accepts
 * `error`, or `error` and `message`).
 */
export function errorItemJson(
	error: Error & { description?: string | null },
	failure: ItemFailure,
): IDataObject {
	const { code } = failure.details;
	return {
		error: {
			message: error.message,
			...(code ? { code } : {}),
			...(error.description ? { description: error.description } : {}),
		},
	};
}
