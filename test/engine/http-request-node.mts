/**
 * n8n's HTTP Request node, from the pinned n8n that the end-to-end tests install (n8n-nodes-base
 * is not a dependency of this package), made available to the workflows of n8n-engine.mts, and
 * Contract → Create as a user builds it with that node and this package's credential.
 */
import type { IDataObject, IVersionedNodeType } from 'n8n-workflow';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ensureN8n } from '../e2e/n8n-runtime.mts';
import { CREDENTIAL_TYPE, registerNodeType } from './n8n-engine.mts';

/** The name n8n-core knows it by: it gives this node type access to any credential type. */
export const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';
export const HTTP_REQUEST_VERSION = 4.2;

/** Registers the HTTP Request node of the pinned n8n (installed if missing) and returns its version. */
export async function registerHttpRequestNode(): Promise<string> {
	const { root } = await ensureN8n();
	const nodesBase = join(root, 'node_modules', 'n8n-nodes-base');
	const require = createRequire(join(nodesBase, 'package.json'));
	const { HttpRequest } = require('./dist/nodes/HttpRequest/HttpRequest.node.js') as {
		HttpRequest: new () => IVersionedNodeType;
	};
	registerNodeType(new HttpRequest(), HTTP_REQUEST_NODE_TYPE);
	return (require('./package.json') as { version: string }).version;
}

/** POST {url}/v1/contract with the credential's key and the envelope built from the item. */
export function httpRequestContractCreate(serviceUrl: string): IDataObject {
	return {
		method: 'POST',
		url: `${serviceUrl}/v1/contract`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: CREDENTIAL_TYPE,
		sendBody: true,
		specifyBody: 'json',
		jsonBody:
			"={{ JSON.stringify({ data: { action: 'create', clientKey: $json.clientKey, contract: { name: $json.name } } }) }}",
		options: {},
	};
}
