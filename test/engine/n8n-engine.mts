/**
 * Runs workflows through n8n's own engine (n8n-core's WorkflowExecute), with this package
 * loaded from its build the way n8n loads a community package.
 */
import {
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type IVersionedNodeType,
} from 'n8n-workflow';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const NODE_TYPE = 'n8n-nodes-contract-signing.contractSigning';
export const CREDENTIAL_TYPE = 'contractSigningApi';
const ITEMS_NODE_TYPE = 'test.items';

/** A start node that emits the items the test gives it. */
class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: ITEMS_NODE_TYPE,
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

export interface LoadedPackage {
	nodeTypes: INodeTypes;
	credentialTypes: Record<string, ICredentialType>;
	nodeType: INodeType;
}

let loaded: Promise<LoadedPackage> | undefined;

/**
 * A declarative node given the `execute` n8n's server gives it (packages/cli's node-types.ts,
 * 1.123.81 and 2.41.1 alike): its routing run with the execution's context, cancel signal included.
 * Without it, n8n-core runs the routing in a context of its own, without that signal.
 */
function runsAsInN8n(nodeType: INodeType): INodeType {
	const declarative = nodeType.description?.requestDefaults !== undefined;
	const { execute, supplyData, poll, trigger, webhook, methods } = nodeType;
	if (!execute && !supplyData && !poll && !trigger && (declarative || (!webhook && !methods))) {
		nodeType.execute = async function (this: IExecuteFunctions) {
			const routing = new RoutingNode(this as ConstructorParameters<typeof RoutingNode>[0], nodeType);
			return (await routing.runNode()) ?? [];
		};
	}
	return nodeType;
}
const extraNodeTypes: Record<string, INodeType | IVersionedNodeType> = {};

/** Makes a node type of the test's own (or another package's, under its full name) available to the workflows it runs. */
export function registerNodeType(
	nodeType: INodeType | IVersionedNodeType,
	name = nodeType.description.name,
): void {
	extraNodeTypes[name] = nodeType;
}

export function loadPackage(): Promise<LoadedPackage> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		const types: Record<string, INodeType | IVersionedNodeType> = {
			[ITEMS_NODE_TYPE]: new ItemsNode(),
		};
		for (const [name, data] of Object.entries(loader.nodeTypes)) {
			types[`${loader.packageName}.${name}`] = data.type;
		}
		const credentialTypes: Record<string, ICredentialType> = {};
		for (const [name, data] of Object.entries(loader.credentialTypes)) {
			credentialTypes[name] = data.type;
		}
		const nodeTypes: INodeTypes = {
			getByName: (name) => types[name] ?? extraNodeTypes[name],
			getByNameAndVersion: (name, version) => {
				const type = types[name] ?? extraNodeTypes[name];
				if (!type) throw new Error(`Unknown node type ${name}`);
				return runsAsInN8n('nodeVersions' in type ? type.getNodeType(version) : type);
			},
			getKnownTypes: () => ({}),
		};
		return { nodeTypes, credentialTypes, nodeType: types[NODE_TYPE] as INodeType };
	})();
	return loaded;
}

/** Hands out the test's credential and applies its `authenticate`, as n8n's server does. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly credentialTypes: Record<string, ICredentialType>,
		private readonly data: CredentialSource,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	/**
	 * A generic `authenticate` as n8n's server applies it (packages/cli credentials-helper): each
	 * value resolved as an expression with `$credentials`, set at its place in the request.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.credentialTypes[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') {
			throw new Error(`The credential type ${typeName} has no authenticate`);
		}
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', {
						$credentials: credentials,
					})
				: value;
		const options = { ...requestOptions } as IHttpRequestOptions & Record<string, IDataObject>;
		for (const [place, values] of Object.entries(authenticate.properties)) {
			options[place] = { ...(options[place] ?? {}) };
			for (const [key, value] of Object.entries(values as IDataObject)) {
				options[place][key] = resolve(value) as IDataObject[string];
			}
		}
		return options;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the engine for declarative nodes');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return { ...(typeof this.data === 'function' ? this.data() : this.data) };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes[type]?.properties ?? [];
	}
}

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export interface Step {
	name: string;
	parameters: IDataObject;
	onError?: OnError;
	type?: string;
	settings?: Partial<INode>;
}

export interface WorkflowRun {
	run: IRun;
	/** Items on each output of a node (index 0 = main, 1 = error output), by node name. */
	outputs(nodeName: string): INodeExecutionData[][];
	/** The error that stopped the workflow, if any. */
	error: IRun['data']['resultData']['error'];
}

/** The credential's data, or a function that gives it (or throws as n8n does when it cannot read it) for each read. */
export type CredentialSource =
	| ICredentialDataDecryptedObject
	| (() => ICredentialDataDecryptedObject);

export interface RunOptions {
	credentials: CredentialSource;
	items?: IDataObject[];
	/** Cancels the execution, as the editor's stop button does, once this settles. */
	cancelWhen?: Promise<unknown>;
}

let executions = 0;

/** Runs Items → steps[0] → steps[1] … through WorkflowExecute and returns what n8n recorded. */
export async function runWorkflow(steps: Step[], options: RunOptions): Promise<WorkflowRun> {
	const { nodeTypes, credentialTypes, nodeType } = await loadPackage();
	const source: INode = {
		id: 'items',
		name: 'Items',
		type: ITEMS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.items ?? [{}]) },
	};
	const nodes: INode[] = [
		source,
		...steps.map((step, index) => ({
			id: `step-${index}`,
			name: step.name,
			type: step.type ?? NODE_TYPE,
			// The node as a user adds it today; a step gives `settings.typeVersion` for an older one.
			typeVersion: step.type ? 1 : (nodeType.description.defaultVersion ?? 1),
			position: [(index + 1) * 200, 0] as [number, number],
			parameters: step.parameters as INode['parameters'],
			credentials: { [CREDENTIAL_TYPE]: { id: '1', name: 'Contract Signing account' } },
			...(step.onError ? { onError: step.onError } : {}),
			...step.settings,
		})),
	];
	const connections: Workflow['connectionsBySourceNode'] = {};
	nodes.slice(0, -1).forEach((node, index) => {
		connections[node.name] = {
			main: [[{ node: nodes[index + 1].name, type: NodeConnectionTypes.Main, index: 0 }]],
		};
	});
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	// Each run its own execution, as in n8n: runs at once are told apart by their execution's id.
	const executionId = `test-execution-${++executions}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'test-workflow',
		name: 'Test workflow',
		nodes,
		connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		settings: { executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	});
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper(credentialTypes, options.credentials),
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/formBaseUrl',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/formWaitingBaseUrl',
		formTestBaseUrl: 'http://127.0.0.1:5678/formTestBaseUrl',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhookBaseUrl',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhookWaitingBaseUrl',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhookTestBaseUrl',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcpBaseUrl',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcpTestBaseUrl',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	const running = new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: source,
	});
	void options.cancelWhen?.then(() => running.cancel());
	const run = await running;
	const runData = run.data.resultData.runData;
	return {
		run,
		error: run.data.resultData.error,
		outputs: (nodeName) => (runData[nodeName]?.[0]?.data?.main ?? []).map((items) => items ?? []),
	};
}
