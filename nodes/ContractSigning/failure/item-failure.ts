/**
 * Why an item failed and what that means for its record, returned by a step in place of its
 * result. The fields throw `UserError` and a stopped wait `Stopped`: output.ts and turns.ts
 * turn them into failures.
 */
import type { JsonObject } from 'n8n-workflow';

export const NOTHING_SENT =
	'Nothing was sent to the service: run the item again once this is corrected.';

export const TRY_LATER =
	'This is usually temporary: run the workflow again later, or turn on Retry On Fail in the node’s Settings.';

/**
 * What a failed request says about the record it was for:
 * - `refused`: the service did not act, and sending the same again gets the same answer;
 * - `busy`: the service did not act and asks to be asked again later (429, 503, a refused connection);
 * - `unknown`: the service may have acted (5xx, timeout, cut connection, incomplete reply).
 */
export type Outcome = 'refused' | 'busy' | 'unknown';

/** Nothing was sent: `input`, the item's fields or the credential; `stopped`, the execution. */
export type FailureKind = 'input' | 'stopped' | Outcome;

export interface FailureDetails {
	/** HTTP status, the service's code, or the network error code. */
	code?: string;
	/** The service's reply, masked. */
	reply?: JsonObject;
	retryAfterMs?: number;
	/** The item must not be sent again in this run: the service may have created its record. */
	final?: boolean;
}

export class ItemFailure {
	constructor(
		readonly kind: FailureKind,
		readonly message: string,
		readonly description: string,
		readonly details: FailureDetails = {},
	) {}

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

export class Stopped extends Error {}

export function stoppedFailure(): ItemFailure {
	return new ItemFailure('stopped', 'The execution was stopped', NOTHING_SENT);
}
