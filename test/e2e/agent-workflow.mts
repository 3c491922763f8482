/**
 * The workflow in which n8n's AI Agent uses this node's tool variant twice (Client → Create,
 * Contract → Create, fields from `$fromAI`) with an OpenAI chat model: started by hand with a
 * fixed prompt (the agent test) or by a chat message (the recording).
 */
import { CREDENTIAL_TYPE, NODE_TYPE } from './n8n-instance.mts';

export interface CredentialRef {
	id: string;
	name: string;
}

export interface AgentWorkflowOptions {
	id: string;
	trigger: 'manual' | 'chat';
	contractSigning: CredentialRef;
	openAi: CredentialRef;
	/** The tools without Settings → On Error → Continue, which the README asks for. */
	withoutContinue?: boolean;
}

export const AGENT_PROMPT =
	'Create a client for Ada Lovelace (ada@example.com, CRM id crm-77), then a contract named "Service agreement" for that client. Tell me the keys.';

const fromAi = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;

function triggerNode(trigger: AgentWorkflowOptions['trigger']) {
	const base = { id: 'a9e7c0de-0000-4000-8000-000000000001', position: [0, 0], parameters: {} };
	return trigger === 'manual'
		? { ...base, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 }
		: {
				...base,
				name: 'When chat message received',
				type: '@n8n/n8n-nodes-langchain.chatTrigger',
				typeVersion: 1.1,
				webhookId: 'a9e7c0de-0000-4000-8000-0000000000c1',
				parameters: { options: {} },
			};
}

export function agentWorkflow(options: AgentWorkflowOptions) {
	const trigger = triggerNode(options.trigger);
	const contractSigning = { [CREDENTIAL_TYPE]: options.contractSigning };
	// With a chat trigger the agent reads the chat message; otherwise its prompt is fixed.
	const prompt = options.trigger === 'manual' ? { promptType: 'define', text: AGENT_PROMPT } : {};
	// The agent reads a refusal only from an item: n8n hands it an empty result for a thrown error.
	const onError = options.withoutContinue ? {} : { onError: 'continueRegularOutput' };
	return {
		id: options.id,
		name: 'An AI agent creates a client and a contract',
		nodes: [
			trigger,
			{
				id: 'a9e7c0de-0000-4000-8000-000000000002',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 2,
				position: [260, 0],
				parameters: { ...prompt, options: {} },
			},
			{
				id: 'a9e7c0de-0000-4000-8000-000000000003',
				name: 'Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [120, 240],
				credentials: { openAiApi: options.openAi },
				parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			},
			{
				id: 'a9e7c0de-0000-4000-8000-000000000004',
				name: 'Create Client',
				...onError,
				type: `${NODE_TYPE}Tool`,
				typeVersion: 1,
				position: [320, 240],
				credentials: contractSigning,
				parameters: {
					resource: 'client',
					operation: 'create',
					fullname: fromAi('fullname', 'Full name of the client'),
					email: fromAi('email', 'Email address of the client'),
					customKey: fromAi('customKey', 'The client’s id in the CRM'),
					// The person becomes the client's first, default user: contracts are created as them.
					users: {
						user: [
							{
								fullname: fromAi('fullname', 'Full name of the client'),
								email: fromAi('email', 'Email address of the client'),
							},
						],
					},
				},
			},
			{
				id: 'a9e7c0de-0000-4000-8000-000000000005',
				name: 'Create Contract',
				...onError,
				type: `${NODE_TYPE}Tool`,
				typeVersion: 1,
				position: [520, 240],
				credentials: contractSigning,
				parameters: {
					resource: 'contract',
					operation: 'create',
					clientKey: fromAi('clientKey', 'clientKey returned by the client tool'),
					name: fromAi('name', 'Name of the contract'),
				},
			},
		],
		connections: {
			[trigger.name]: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Create Client': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
			'Create Contract': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}
