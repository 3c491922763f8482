/** How n8n shows an item's failure: as the node's error, or as the item's error output. */
import { NodeApiError, NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';
import type { ItemFailure } from './item-failure';

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
 * The output under "On Error: Continue": `error` alone, the one shape n8n 1.x and 2.x both send
 * to the error output.
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
