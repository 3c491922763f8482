/**
 * The won-deal examples (examples/deal-won-*.json): one workflow per CRM, each the CRM's own steps
 * up to Deal Fields, then the same steps to one client per customer and one contract per deal, with
 * the data table "Won deals" as the memory across executions. Written from here so that the four
 * stay the same where they should; test/deal-examples.test.mts checks that the files are what
 * this writes.
 *
 *   npm run examples     (writes the files)
 */

type Json = Record<string, unknown>;

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Json;
	notes?: string;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	onError?: 'continueRegularOutput' | 'continueErrorOutput';
}

interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	>;
	settings: Json;
	active: false;
	pinData: Json;
}

/** The data table every won-deal example keeps its deals in, and its columns. */
export const WON_DEALS_TABLE = {
	name: 'Won deals',
	columns: [
		'dealId',
		'customerId',
		'contractName',
		'fullname',
		'email',
		'organization',
		'clientKey',
		'contractKey',
		'status',
		'error',
	],
};

export const TEMPLATE_KEY = 'tpl_service_agreement';
const CONTRACT_SIGNING = {
	contractSigningApi: { id: 'csDemoCredential', name: 'Contract Signing account' },
};
const CONTRACT_SIGNING_NODE = 'n8n-nodes-contract-signing.contractSigning';
/** Retry On Fail as every Contract Signing step of the examples has it. */
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };

/** A stable node id: the example's number, then the node's. */
const nodeId = (example: number, node: number) =>
	`d${example}a1b2c3-0000-4000-8000-${String(node).padStart(12, '0')}`;

/** The table as the examples pick it: by its name (n8n 2.3 and later). */
const wonDeals = { __rl: true, mode: 'name', value: WON_DEALS_TABLE.name };

interface Condition {
	column: string;
	condition: 'eq';
	value?: string;
}

function tableConditions(conditions: Condition[], match: 'allConditions' | 'anyCondition') {
	return {
		matchType: match,
		filters: {
			conditions: conditions.map(({ column, condition, value }) => ({
				keyName: column,
				condition,
				...(value === undefined ? {} : { keyValue: value }),
			})),
		},
	};
}

/** The resource mapper's value for the given columns of the table. */
function tableColumns(values: Record<string, string>) {
	return {
		mappingMode: 'defineBelow',
		value: values,
		matchingColumns: [],
		schema: WON_DEALS_TABLE.columns.map((column) => ({
			id: column,
			displayName: column,
			required: false,
			defaultMatch: false,
			display: true,
			type: 'string',
			canBeUsedToMatch: true,
			removed: !(column in values),
		})),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

function ifCondition(
	leftValue: string,
	operator: { type: string; operation: string; singleValue?: boolean },
	rightValue: string | boolean = '',
) {
	return { leftValue, rightValue, operator };
}

/** The parameters of an If node whose conditions must all hold. */
function allOf(id: string, conditions: ReturnType<typeof ifCondition>[]) {
	return {
		conditions: {
			options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
			conditions: conditions.map((condition, index) => ({ id: `${id}-${index}`, ...condition })),
			combinator: 'and',
		},
		options: {},
	};
}

const equals = { type: 'number', operation: 'equals' };
const numberExists = { type: 'number', operation: 'exists', singleValue: true };
const notEmpty = { type: 'string', operation: 'notEmpty', singleValue: true };

/** One output's connections, to the named steps. */
const to = (...nodes: string[]) =>
	nodes.map((name) => ({ node: name, type: 'main' as const, index: 0 }));

/** A column of the deal's row, as the steps after Deal read it. */
const deal = (column: string) => `$('Deal').item.json.${column}`;

/**
 * A Get's settings for the first row that matches: the oldest, by id. n8n 1.x has no Order By; on
 * SQLite it reads rows in the order they were written (docs/examples.md, for PostgreSQL).
 */
const FIRST_ROW = { limit: 1, orderBy: true, orderByColumn: 'id', orderByDirection: 'ASC' };

/** What a CRM's example brings: its steps up to Deal Fields and where the keys go back. */
export interface CrmHead {
	/** The example's file, under examples/. */
	file: string;
	number: number;
	title: string;
	/** The steps from the trigger to the ones before Deal Fields, in order. */
	steps: WorkflowNode[];
	/** Their connections, up to and including those into Deal Fields. */
	connections: Workflow['connections'];
	/** Deal Fields' expressions: dealId, contractName, customerId, fullname, email, organization. */
	fields: Record<
		'dealId' | 'contractName' | 'customerId' | 'fullname' | 'email' | 'organization',
		string
	>;
	dealFieldsNote: string;
	/** The step after Save Contract that hands the keys to the CRM. */
	keysToCrm: Omit<WorkflowNode, 'id' | 'position'>;
	/** A test event held on the trigger, which Execute workflow runs with. */
	pinData?: Json;
}

/** The workflow of one CRM: its head, then the steps every won-deal example shares. */
export function dealExample(head: CrmHead): Workflow {
	const x = (column: number) => column * 240;
	let counter = 100;
	const node = (
		name: string,
		position: [number, number],
		rest: Omit<WorkflowNode, 'id' | 'name' | 'position'>,
	): WorkflowNode => ({ id: nodeId(head.number, counter++), name, position, ...rest });
	const table = (
		name: string,
		position: [number, number],
		operation: string,
		parameters: Json,
		notes: string,
	) =>
		node(name, position, {
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1,
			notes,
			parameters: { resource: 'row', operation, dataTableId: wonDeals, ...parameters },
		});
	/** A Get of the first row whose column holds the item's value. */
	const firstRow = (name: string, position: [number, number], column: string, notes: string) =>
		table(
			name,
			position,
			'get',
			{
				...tableConditions(
					[{ column, condition: 'eq', value: `={{ $json.${column} }}` }],
					'allConditions',
				),
				...FIRST_ROW,
			},
			notes,
		);
	/** An update of the deal's row. */
	const updateDeal = (
		name: string,
		position: [number, number],
		columns: Record<string, string>,
		notes: string,
	) =>
		table(
			name,
			position,
			'update',
			{
				...tableConditions(
					[{ column: 'id', condition: 'eq', value: `={{ ${deal('id')} }}` }],
					'allConditions',
				),
				columns: tableColumns(columns),
				options: {},
			},
			notes,
		);
	const start = head.steps.length;
	const shared: WorkflowNode[] = [
		node('Deal Fields', [x(start), 0], {
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			notes: head.dealFieldsNote,
			parameters: {
				assignments: {
					assignments: Object.entries(head.fields).map(([name, value], index) => ({
						id: `${nodeId(head.number, 99)}-${index}`,
						name,
						value: `={{ String(${value} ?? '').trim() }}`,
						type: 'string',
					})),
				},
				options: {},
			},
		}),
		node('Has Ids?', [x(start + 1), 0], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'A won deal needs the id of the deal and of its customer: they are how the workflow knows a deal and a customer again. Without them the run stops with an error instead of guessing.',
			parameters: allOf(nodeId(head.number, 98), [
				ifCondition('={{ $json.dealId }}', notEmpty),
				ifCondition('={{ $json.customerId }}', notEmpty),
			]),
		}),
		node('No Ids', [x(start + 2), 200], {
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			parameters: {
				errorMessage:
					'The won deal has no deal id or no customer id: in Deal Fields, map dealId and customerId to the ids your CRM sends.',
			},
		}),
		table(
			'Record Deal',
			[x(start + 2), 0],
			'insert',
			{
				columns: tableColumns({
					dealId: '={{ $json.dealId }}',
					customerId: '={{ $json.customerId }}',
					contractName: '={{ $json.contractName }}',
					fullname: '={{ $json.fullname }}',
					email: '={{ $json.email }}',
					organization: '={{ $json.organization }}',
					status: 'started',
				}),
				options: {},
			},
			`Writes the won deal to the data table "${WON_DEALS_TABLE.name}", found by its name (n8n before 2.3: pick it From list). The table holds one row per deal: its customer, then its keys and its status as the workflow goes on.`,
		),
		firstRow(
			"Deal's First Row",
			[x(start + 3), 0],
			'dealId',
			'Reads the first row written for this deal: the one just written, unless the CRM sent the deal before.',
		),
		node('First Time?', [x(start + 4), 0], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'Only the first row of a deal goes on: a deal the CRM sends again, at once or later, gets no second contract.',
			parameters: allOf(nodeId(head.number, 93), [
				ifCondition('={{ $json.id }}', equals, "={{ $('Record Deal').item.json.id }}"),
			]),
		}),
		table(
			'Forget Repeat',
			[x(start + 5), 200],
			'deleteRows',
			{
				...tableConditions(
					[{ column: 'id', condition: 'eq', value: "={{ $('Record Deal').item.json.id }}" }],
					'allConditions',
				),
				options: {},
			},
			'Deletes the row just written for the repeat: the table keeps one row per deal.',
		),
		node('Every 10 Minutes', [x(start + 3), 480], {
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			notes:
				"Once the workflow is published, tries again every 10 minutes the deals that could not finish: the service was down or busy, or the customer's client was still being made.",
			parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 10 }] } },
		}),
		table(
			'Deals to Retry',
			[x(start + 4), 480],
			'get',
			{
				...tableConditions(
					[
						{ column: 'status', condition: 'eq', value: 'retry' },
						{ column: 'status', condition: 'eq', value: 'waiting' },
					],
					'anyCondition',
				),
				returnAll: true,
			},
			'The rows with the status retry or waiting.',
		),
		table(
			'Take Over',
			[x(start + 5), 480],
			'update',
			{
				...tableConditions(
					[
						{ column: 'id', condition: 'eq', value: '={{ $json.id }}' },
						{ column: 'status', condition: 'eq', value: '={{ $json.status }}' },
					],
					'allConditions',
				),
				columns: tableColumns({ status: 'started' }),
				options: {},
			},
			'Sets the deal back to started, unless another run took it first: only the run that changed the row goes on with it.',
		),
		node('Deal', [x(start + 6), 0], {
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			notes: "The deal's row, new or tried again: the steps after this one read it here.",
			parameters: {},
		}),
		firstRow(
			"Customer's First Deal",
			[x(start + 7), 0],
			'customerId',
			"Reads the customer's first deal: it holds the customer's client once one is made.",
		),
		node('Has Client?', [x(start + 8), 0], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes: 'A customer with a client gets the contract for that client.',
			parameters: allOf(nodeId(head.number, 97), [ifCondition('={{ $json.clientKey }}', notEmpty)]),
		}),
		node('First Deal?', [x(start + 9), 200], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				"The customer's first deal makes the client. A later deal that comes before the client is made waits for it, and is tried again in 10 minutes.",
			parameters: allOf(nodeId(head.number, 96), [
				ifCondition('={{ $json.id }}', equals, `={{ ${deal('id')} }}`),
			]),
		}),
		node('Create Client', [x(start + 10), 120], {
			type: CONTRACT_SIGNING_NODE,
			typeVersion: 1,
			...RETRY,
			onError: 'continueErrorOutput',
			credentials: CONTRACT_SIGNING,
			notes:
				"Creates the customer's client, with its person as the client's first user: the default user, who gets the contracts.",
			parameters: {
				resource: 'client',
				operation: 'create',
				fullname: `={{ ${deal('fullname')} }}`,
				email: `={{ ${deal('email')} }}`,
				organization: `={{ ${deal('organization')} }}`,
				customKey: `={{ ${deal('customerId')} }}`,
				usersInput: 'list',
				usersList: `={{ ${deal('fullname')} || ${deal('email')} ? [{ fullname: ${deal('fullname')}, email: ${deal('email')} }] : [] }}`,
			},
		}),
		updateDeal(
			'Save Client',
			[x(start + 11), 120],
			{ clientKey: '={{ $json.clientKey }}' },
			"Writes the new client's key to the deal's row, the customer's first: every later deal of the customer finds it there.",
		),
		updateDeal(
			'Wait for Client',
			[x(start + 10), 320],
			{
				status: 'waiting',
				error: "The customer's first deal has not made the client yet.",
			},
			'Marks the deal waiting: Every 10 Minutes tries it again.',
		),
		node('Create Contract', [x(start + 12), 0], {
			type: CONTRACT_SIGNING_NODE,
			typeVersion: 1,
			...RETRY,
			onError: 'continueErrorOutput',
			credentials: CONTRACT_SIGNING,
			notes:
				"Creates the deal's contract from your template, for the client's default user. Set Template Key to your template's key.",
			parameters: {
				resource: 'contract',
				operation: 'create',
				clientKey: '={{ $json.clientKey }}',
				name: `={{ ${deal('contractName')} }}`,
				additionalFields: { templateKey: TEMPLATE_KEY },
			},
		}),
		updateDeal(
			'Save Contract',
			[x(start + 13), 0],
			{
				clientKey: '={{ $json.clientKey }}',
				contractKey: '={{ $json.contractKey }}',
				status: 'done',
				error: '',
			},
			"Writes the contract's key to the deal's row and marks it done.",
		),
		updateDeal(
			'Mark for Retry',
			[x(start + 13), 320],
			{
				status:
					"={{ String($json.error?.description ?? '').includes('may have been created') ? 'check' : 'retry' }}",
				error: "={{ $json.error?.message ?? 'The step failed' }}",
			},
			"When the service was down, busy or refused the request, marks the deal retry: Every 10 Minutes tries it again. When the service may have made the client or contract without saying so, marks it check: look in your Contract Signing account, then set the row's status to retry (and, if the client is there, put its key in clientKey).",
		),
	];
	const keysToCrm = {
		...head.keysToCrm,
		id: nodeId(head.number, counter++),
		position: [x(start + 14), 0] as [number, number],
	};
	const connections: Workflow['connections'] = {
		...head.connections,
		'Deal Fields': { main: [to('Has Ids?')] },
		'Has Ids?': { main: [to('Record Deal'), to('No Ids')] },
		'Record Deal': { main: [to("Deal's First Row")] },
		"Deal's First Row": { main: [to('First Time?')] },
		'First Time?': { main: [to('Deal'), to('Forget Repeat')] },
		'Every 10 Minutes': { main: [to('Deals to Retry')] },
		'Deals to Retry': { main: [to('Take Over')] },
		'Take Over': { main: [to('Deal')] },
		Deal: { main: [to("Customer's First Deal")] },
		"Customer's First Deal": { main: [to('Has Client?')] },
		'Has Client?': { main: [to('Create Contract'), to('First Deal?')] },
		'First Deal?': { main: [to('Create Client'), to('Wait for Client')] },
		'Create Client': { main: [to('Save Client'), to('Mark for Retry')] },
		'Save Client': { main: [to('Create Contract')] },
		'Create Contract': { main: [to('Save Contract'), to('Mark for Retry')] },
		'Save Contract': { main: [to(keysToCrm.name)] },
	};
	return {
		id: `csDealWon${head.file.replace(/^deal-won-|\.json$/g, '').replace(/^./, (c) => c.toUpperCase())}`,
		name: head.title,
		nodes: [...head.steps, ...shared, keysToCrm],
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: head.pinData ?? {},
	};
}

/** An If node of a head that lets only won deals through. */
function wonIf(
	example: number,
	node: number,
	position: [number, number],
	condition: string,
	notes: string,
): WorkflowNode {
	return {
		id: nodeId(example, node),
		name: 'Won?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position,
		notes,
		parameters: allOf(nodeId(example, 95), [ifCondition(`={{ ${condition} }}`, isTrue)]),
	};
}

const isTrue = { type: 'boolean', operation: 'true', singleValue: true };

/** The write-back to a CRM's own API, for the Webhook example. */
const SEND_KEYS_TO_CRM: CrmHead['keysToCrm'] = {
	name: 'Send Keys to CRM',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	...RETRY,
	onError: 'continueRegularOutput',
	notes:
		"Replace the URL (and add your CRM's credential) with your CRM's address that stores the keys on the deal, or delete this step. If the CRM cannot be reached, the keys stay in Won deals.",
	parameters: {
		method: 'POST',
		url: `=https://crm.example.com/api/deals/{{ ${deal('dealId')} }}/contract-signing`,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: `={{ { dealId: ${deal('dealId')}, clientKey: $json.clientKey, contractKey: $json.contractKey } }}`,
		options: {},
	},
};

/** The deal the Webhook example holds as its test event, and the README shows. */
export const TEST_DEAL = {
	deal: { id: 'D-1042', name: 'Service agreement – Analytical Engines', status: 'won' },
	customer: {
		id: 'C-77',
		name: 'Ada Lovelace',
		email: 'ada@example.com',
		company: 'Analytical Engines Ltd',
	},
};

export const WEBHOOK: CrmHead = {
	file: 'deal-won-webhook.json',
	number: 1,
	title: 'Won deal → contract (Webhook)',
	steps: [
		{
			id: nodeId(1, 1),
			name: 'Deal Won',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			position: [0, 0],
			webhookId: '6f3a9d2e-4b1c-4e8a-9d7f-2c5b8e1a4f60',
			notes:
				'Your CRM posts here when a deal changes, as {"deal": {"id", "name", "status"}, "customer": {"id", "name", "email", "company"}}. It answers at once, so a slow service never makes the CRM send the deal again.',
			parameters: {
				httpMethod: 'POST',
				path: 'deal-won',
				responseMode: 'onReceived',
				options: {},
			},
		},
		wonIf(
			1,
			2,
			[240, 0],
			"$json.body.deal?.status === 'won'",
			'Only a deal whose status is won goes on. A deal won before and changed since goes on too, and First Time stops it: it already has its contract.',
		),
	],
	connections: { 'Deal Won': { main: [to('Won?')] }, 'Won?': { main: [to('Deal Fields')] } },
	fields: {
		dealId: '$json.body.deal.id',
		contractName: '$json.body.deal.name',
		customerId: '$json.body.customer?.id',
		fullname: '$json.body.customer?.name',
		email: '$json.body.customer?.email',
		organization: '$json.body.customer?.company',
	},
	dealFieldsNote:
		"Your CRM's fields, in the one place the workflow reads them: dealId and contractName (the deal's id and name), customerId (the id of the customer: one client per customer), and the customer's fullname, email and organization. If your CRM sends other names, change the values here and nothing else.",
	keysToCrm: SEND_KEYS_TO_CRM,
	pinData: {
		'Deal Won': [
			{
				json: {
					headers: { 'content-type': 'application/json' },
					params: {},
					query: {},
					body: TEST_DEAL,
				},
			},
		],
	},
};

/** A step of a CRM's own, with the CRM's credential and Retry On Fail. */
function crmStep(
	example: number,
	node: number,
	step: Omit<WorkflowNode, 'id' | 'typeVersion'> & { typeVersion?: number },
	credential: Record<string, { id: string; name: string }>,
): WorkflowNode {
	return { typeVersion: 1, ...step, id: nodeId(example, node), credentials: credential };
}

const PIPEDRIVE_CREDENTIAL = {
	pipedriveApi: { id: 'pipedriveCredential', name: 'Pipedrive account' },
};
const pipedriveDeal = (field: string) => `$('Pipedrive Trigger').item.json.data.${field}`;

export const PIPEDRIVE: CrmHead = {
	file: 'deal-won-pipedrive.json',
	number: 2,
	title: 'Won deal → contract (Pipedrive)',
	steps: [
		crmStep(
			2,
			1,
			{
				name: 'Pipedrive Trigger',
				type: 'n8n-nodes-base.pipedriveTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: '1c8e5b7a-2d4f-4a9e-8b3c-6f1d0e7a5c42',
				notes:
					"Pick your Pipedrive API credential. Once the workflow is published, Pipedrive sends every change of a deal (Action Change, Entity Deal). This step gives the deal as it is now under data (id, title, status, person_id, org_id) and, under previous, the fields the change altered (Pipedrive's webhooks v2).",
				parameters: { action: 'change', entity: 'deal' },
			},
			PIPEDRIVE_CREDENTIAL,
		),
		wonIf(
			2,
			2,
			[240, 0],
			"$json.data?.status === 'won' && $json.previous?.status !== undefined && $json.previous.status !== 'won'",
			'Only the change that marks a deal won goes on: its status is won now and was something else before. Other changes of a deal, won or not, stop here.',
		),
		crmStep(
			2,
			3,
			{
				name: 'Get Person',
				type: 'n8n-nodes-base.pipedrive',
				typeVersion: 2,
				position: [480, 0],
				...RETRY,
				notes:
					"Reads the deal's contact person (Person → Get): the person becomes the client's user, who gets the contract. Pick the same Pipedrive credential.",
				parameters: {
					resource: 'person',
					operation: 'get',
					personId: '={{ $json.data.person_id }}',
				},
			},
			PIPEDRIVE_CREDENTIAL,
		),
		{
			id: nodeId(2, 4),
			name: 'Has Organization?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			position: [720, 0],
			notes:
				"A deal of an organization reads the organization's name; a person's own deal goes straight on.",
			parameters: allOf(nodeId(2, 94), [
				ifCondition(`={{ ${pipedriveDeal('org_id')} }}`, numberExists),
			]),
		},
		crmStep(
			2,
			5,
			{
				name: 'Get Organization',
				type: 'n8n-nodes-base.pipedrive',
				typeVersion: 2,
				position: [960, -120],
				...RETRY,
				notes: "Reads the deal's organization (Organization → Get) for its name.",
				parameters: {
					resource: 'organization',
					operation: 'get',
					organizationId: `={{ ${pipedriveDeal('org_id')} }}`,
				},
			},
			PIPEDRIVE_CREDENTIAL,
		),
	],
	connections: {
		'Pipedrive Trigger': { main: [to('Won?')] },
		'Won?': { main: [to('Get Person')] },
		'Get Person': { main: [to('Has Organization?')] },
		'Has Organization?': { main: [to('Get Organization'), to('Deal Fields')] },
		'Get Organization': { main: [to('Deal Fields')] },
	},
	fields: {
		dealId: pipedriveDeal('id'),
		contractName: pipedriveDeal('title'),
		customerId: `${pipedriveDeal('org_id')} ? 'organization ' + ${pipedriveDeal('org_id')} : ${pipedriveDeal('person_id')} ? 'person ' + ${pipedriveDeal('person_id')} : ''`,
		fullname: "$('Get Person').item.json.name",
		email:
			"($('Get Person').item.json.emails ?? []).find(email => email.primary)?.value ?? $('Get Person').item.json.emails?.[0]?.value",
		organization: `${pipedriveDeal('org_id')} ? $('Get Organization').item.json.name : ''`,
	},
	dealFieldsNote:
		"The deal's fields, in the one place the rest of the workflow reads them. The customer, who gets one client for all their deals, is the deal's organization, since contracts are signed for a company whoever its contact is; a deal without an organization is its person's own. The client's user is the deal's person, with the primary email.",
	keysToCrm: {
		name: 'Note on Deal',
		type: 'n8n-nodes-base.pipedrive',
		typeVersion: 2,
		...RETRY,
		onError: 'continueRegularOutput',
		credentials: PIPEDRIVE_CREDENTIAL,
		notes:
			'Adds a note with the keys to the deal in Pipedrive. To keep them in fields of the deal instead, make the fields in Pipedrive and set this step to the Deal resource and its Update operation. If Pipedrive cannot be reached, the keys stay in Won deals.',
		parameters: {
			resource: 'note',
			operation: 'create',
			content: `=Contract ready to sign in Contract Signing. Contract key: {{ $json.contractKey }}; client key: {{ $json.clientKey }}.`,
			additionalFields: { deal_id: `={{ Number(${deal('dealId')}) }}` },
		},
	},
};

const HUBSPOT_APP = {
	hubspotDeveloperApi: { id: 'hubspotDeveloperCredential', name: 'HubSpot Developer account' },
};
const HUBSPOT_KEY = {
	hubspotAppToken: { id: 'hubspotAppTokenCredential', name: 'HubSpot Service Key account' },
};
const hubspotId = (value: string) => ({ __rl: true, mode: 'id', value });

export const HUBSPOT: CrmHead = {
	file: 'deal-won-hubspot.json',
	number: 3,
	title: 'Won deal → contract (HubSpot)',
	steps: [
		crmStep(
			3,
			1,
			{
				name: 'HubSpot Trigger',
				type: 'n8n-nodes-base.hubspotTrigger',
				position: [0, 0],
				webhookId: '2d9f6c8b-3e5a-4bae-9c4d-7a2e1f8b6d53',
				notes:
					"Pick your HubSpot Developer API credential. Once the workflow is published, HubSpot sends each change of a deal's stage (Deal Property Changed, dealstage), several at a time; this step gives one item per change: dealId, and the new stage in propertyValue.",
				parameters: {
					eventsUi: { eventValues: [{ name: 'deal.propertyChange', property: 'dealstage' }] },
					additionalFields: {},
				},
			},
			HUBSPOT_APP,
		),
		wonIf(
			3,
			2,
			[240, 0],
			"$json.propertyName === 'dealstage' && $json.propertyValue === 'closedwon'",
			"Only a change to the stage Closed Won goes on. closedwon is that stage's id in HubSpot's default pipeline; in a pipeline of your own, put the id of its won stage here (HubSpot shows it in its settings of deal pipelines).",
		),
		crmStep(
			3,
			3,
			{
				name: 'Get Deal',
				type: 'n8n-nodes-base.hubspot',
				typeVersion: 2.2,
				position: [480, 0],
				...RETRY,
				notes:
					"Reads the deal (Deal → Get) for its name and its associations: the contacts and companies linked to it. Pick your HubSpot Service Key credential (a private app's token with the crm.objects.deals.read, contacts.read and companies.read scopes).",
				parameters: {
					authentication: 'appToken',
					resource: 'deal',
					operation: 'get',
					dealId: hubspotId('={{ $json.dealId }}'),
					filters: {},
				},
			},
			HUBSPOT_KEY,
		),
		crmStep(
			3,
			4,
			{
				name: 'Get Contact',
				type: 'n8n-nodes-base.hubspot',
				typeVersion: 2.2,
				position: [720, 0],
				...RETRY,
				notes:
					"Reads the deal's first contact (Contact → Get): the contact becomes the client's user, who gets the contract.",
				parameters: {
					authentication: 'appToken',
					resource: 'contact',
					operation: 'get',
					contactId: hubspotId('={{ $json.associations.associatedVids[0] }}'),
					additionalFields: {},
				},
			},
			HUBSPOT_KEY,
		),
		{
			id: nodeId(3, 5),
			name: 'Has Company?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			position: [960, 0],
			notes: "A deal of a company reads the company's name; a contact's own deal goes straight on.",
			parameters: allOf(nodeId(3, 94), [
				ifCondition(
					"={{ $('Get Deal').item.json.associations.associatedCompanyIds[0] }}",
					numberExists,
				),
			]),
		},
		crmStep(
			3,
			6,
			{
				name: 'Get Company',
				type: 'n8n-nodes-base.hubspot',
				typeVersion: 2.2,
				position: [1200, -120],
				...RETRY,
				notes: "Reads the deal's first company (Company → Get) for its name.",
				parameters: {
					authentication: 'appToken',
					resource: 'company',
					operation: 'get',
					companyId: hubspotId(
						"={{ $('Get Deal').item.json.associations.associatedCompanyIds[0] }}",
					),
					additionalFields: {},
				},
			},
			HUBSPOT_KEY,
		),
	],
	connections: {
		'HubSpot Trigger': { main: [to('Won?')] },
		'Won?': { main: [to('Get Deal')] },
		'Get Deal': { main: [to('Get Contact')] },
		'Get Contact': { main: [to('Has Company?')] },
		'Has Company?': { main: [to('Get Company'), to('Deal Fields')] },
		'Get Company': { main: [to('Deal Fields')] },
	},
	fields: {
		dealId: "$('HubSpot Trigger').item.json.dealId",
		contractName: "$('Get Deal').item.json.properties.dealname?.value",
		customerId:
			"$('Get Deal').item.json.associations.associatedCompanyIds[0] ? 'company ' + $('Get Deal').item.json.associations.associatedCompanyIds[0] : $('Get Contact').item.json.vid ? 'contact ' + $('Get Contact').item.json.vid : ''",
		fullname:
			"[$('Get Contact').item.json.properties.firstname?.value, $('Get Contact').item.json.properties.lastname?.value].filter(Boolean).join(' ')",
		email: "$('Get Contact').item.json.properties.email?.value",
		organization:
			"$('Get Deal').item.json.associations.associatedCompanyIds[0] ? $('Get Company').item.json.properties.name?.value : ''",
	},
	dealFieldsNote:
		"The deal's fields, in the one place the rest of the workflow reads them. The customer, who gets one client for all their deals, is the deal's first company, since contracts are signed for a company whoever its contact is; a deal without a company is its contact's own. The client's user is the deal's first contact.",
	keysToCrm: {
		name: 'Keys on Deal',
		type: 'n8n-nodes-base.hubspot',
		typeVersion: 2.2,
		...RETRY,
		onError: 'continueRegularOutput',
		credentials: HUBSPOT_KEY,
		notes:
			"Writes the keys to two deal properties in HubSpot: make them first in HubSpot's settings of deal properties (single-line text, internal names contract_signing_contract_key and contract_signing_client_key), or delete this step. If HubSpot cannot be reached, the keys stay in Won deals.",
		parameters: {
			authentication: 'appToken',
			resource: 'deal',
			operation: 'update',
			dealId: hubspotId(`={{ ${deal('dealId')} }}`),
			updateFields: {
				customPropertiesUi: {
					customPropertiesValues: [
						{ property: 'contract_signing_contract_key', value: '={{ $json.contractKey }}' },
						{ property: 'contract_signing_client_key', value: '={{ $json.clientKey }}' },
					],
				},
			},
		},
	},
};

const SALESFORCE_CREDENTIAL = {
	salesforceOAuth2Api: { id: 'salesforceCredential', name: 'Salesforce account' },
};
const opportunity = (field: string) => `$('Get Opportunity').item.json.${field}`;

export const SALESFORCE: CrmHead = {
	file: 'deal-won-salesforce.json',
	number: 4,
	title: 'Won opportunity → contract (Salesforce)',
	steps: [
		crmStep(
			4,
			1,
			{
				name: 'Salesforce Trigger',
				type: 'n8n-nodes-base.salesforceTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				notes:
					'Pick your Salesforce OAuth2 credential. Once the workflow is published, n8n asks Salesforce every minute for the opportunities changed since it last asked and gives one item per opportunity, with its Id and AccountId. Salesforce does not say what changed: Won? and the table tell a new win. An opportunity created less than 15 minutes before the check is left out until it changes again.',
				parameters: {
					authentication: 'oAuth2',
					triggerOn: 'opportunityUpdated',
					pollTimes: { item: [{ mode: 'everyMinute' }] },
				},
			},
			SALESFORCE_CREDENTIAL,
		),
		crmStep(
			4,
			2,
			{
				name: 'Get Opportunity',
				type: 'n8n-nodes-base.salesforce',
				typeVersion: 1.1,
				position: [240, 0],
				...RETRY,
				notes:
					"Reads the opportunity with its account's name and its primary contact in one query (Search → Query). Pick the same Salesforce credential.",
				parameters: {
					authentication: 'oAuth2',
					resource: 'search',
					operation: 'query',
					query:
						"=SELECT Id, Name, IsWon, AccountId, Account.Name, (SELECT Contact.Name, Contact.Email FROM OpportunityContactRoles WHERE IsPrimary = true) FROM Opportunity WHERE Id = '{{ $json.Id }}'",
				},
			},
			SALESFORCE_CREDENTIAL,
		),
		wonIf(
			4,
			3,
			[480, 0],
			'$json.IsWon === true',
			'Only a won opportunity goes on. One won before and changed since goes on too, and First Time? stops it: it already has its contract.',
		),
	],
	connections: {
		'Salesforce Trigger': { main: [to('Get Opportunity')] },
		'Get Opportunity': { main: [to('Won?')] },
		'Won?': { main: [to('Deal Fields')] },
	},
	fields: {
		dealId: opportunity('Id'),
		contractName: opportunity('Name'),
		customerId: `${opportunity('AccountId')} ? 'account ' + ${opportunity('AccountId')} : ''`,
		fullname: `${opportunity('OpportunityContactRoles')}?.records?.[0]?.Contact?.Name`,
		email: `${opportunity('OpportunityContactRoles')}?.records?.[0]?.Contact?.Email`,
		organization: `${opportunity('Account')}?.Name`,
	},
	dealFieldsNote:
		"The opportunity's fields, in the one place the rest of the workflow reads them. The customer, who gets one client for all their opportunities, is the opportunity's account, where Salesforce keeps the company. The client's user is the opportunity's primary contact (Contact Roles); give your opportunities one, or the client has no user to create contracts as.",
	keysToCrm: {
		name: 'Note on Opportunity',
		type: 'n8n-nodes-base.salesforce',
		typeVersion: 1.1,
		...RETRY,
		onError: 'continueRegularOutput',
		credentials: SALESFORCE_CREDENTIAL,
		notes:
			"Adds a note with the keys to the opportunity in Salesforce. To keep them in fields of the opportunity instead, make the fields in Salesforce and set this step's Operation to Update. If Salesforce cannot be reached, the keys stay in Won deals.",
		parameters: {
			authentication: 'oAuth2',
			resource: 'opportunity',
			operation: 'addNote',
			opportunityId: `={{ ${deal('dealId')} }}`,
			title: 'Contract ready to sign',
			options: {
				body: '=Contract key: {{ $json.contractKey }}; client key: {{ $json.clientKey }}.',
			},
		},
	},
};

export const HEADS: CrmHead[] = [WEBHOOK, PIPEDRIVE, HUBSPOT, SALESFORCE];

/** Each example's file under examples/ and its workflow. */
export function dealExampleFiles(): Array<{ file: string; workflow: Workflow }> {
	return HEADS.map((head) => ({ file: head.file, workflow: dealExample(head) }));
}

/** The file's text as the examples are written: tabs, a final line break. */
export const exampleText = (workflow: Workflow) => `${JSON.stringify(workflow, null, '\t')}\n`;
