/**
 * The won-deal examples: examples/contract-engine.json, the same steps for every CRM, and the
 * intakes (examples/intake-*.json), each a CRM's own steps, which give the engine its deals.
 * Written from here; test/deal-examples.test.mts checks that the files are what this writes.
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
	executeOnce?: boolean;
	alwaysOutputData?: boolean;
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

/**
 * The data table every won-deal example keeps its deals in, and its columns. The failure's text is
 * in `problem`, not `error`: n8n's Retry On Fail runs a step again whenever its first output item
 * has an `error` field, and every row a table step puts out would have one.
 */
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
		'problem',
		'tries',
		'told',
	],
};

/** The engine's table of deals: the same, and the id of the intake each deal came from. */
export const ENGINE_TABLE = {
	name: WON_DEALS_TABLE.name,
	columns: [...WON_DEALS_TABLE.columns, 'intakeId'],
};

/**
 * The table of each deal's customer: a row per deal, written (Add Customer) once its customer is
 * known and before its client or contract is made. The customer's first row names the deal that
 * makes its client, and holds the client's key once made (Keep Client): which deal makes it is decided by the order the customer's rows were written in,
 * not by which deal is oldest, so a deal whose read from the CRM is late cannot make a second one.
 */
export const CUSTOMERS_TABLE = {
	name: 'Won deal customers',
	columns: ['customerId', 'dealId', 'clientKey'],
};

/** How long a deal's row may stay in a step before the sweep takes its run for stopped. */
export const STOPPED_AFTER_MINUTES = 30;
/** How many refusals a deal is tried for before a person is asked to correct it. */
export const MAX_TRIES = 3;
/** How long a won deal may keep waiting or being tried again before a person is told of it. */
export const TELL_AFTER_HOURS = 24;
/** What the Contract Signing node says of a create whose record may exist. */
const MAY_EXIST = 'may have been created';

export const TEMPLATE_KEY = 'tpl_service_agreement';
const CONTRACT_SIGNING = {
	contractSigningApi: { id: 'csDemoCredential', name: 'Contract Signing account' },
};
const CONTRACT_SIGNING_NODE = 'n8n-nodes-contract-signing.contractSigning';
/** Retry On Fail as every Contract Signing and data table step of the examples has it. */
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };

/** A stable node id: the example's number, then the node's. */
const nodeId = (example: number, node: number) =>
	`d${example}a1b2c3-0000-4000-8000-${String(node).padStart(12, '0')}`;

/** A table as the examples pick it: by its name (n8n 2.3 and later). */
const byName = (table: { name: string }) => ({ __rl: true, mode: 'name', value: table.name });

interface Condition {
	column: string;
	condition: 'eq' | 'neq' | 'lt';
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
function tableColumns(values: Record<string, string>, columns = WON_DEALS_TABLE.columns) {
	return {
		mappingMode: 'defineBelow',
		value: values,
		matchingColumns: [],
		schema: columns.map((column) => ({
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
const stringEquals = { type: 'string', operation: 'equals' };

/** A table step's filter for the row on its input, unless another run changed its status first. */
const sameRow = tableConditions(
	[
		{ column: 'id', condition: 'eq', value: '={{ $json.id }}' },
		{ column: 'status', condition: 'eq', value: '={{ $json.status }}' },
	],
	'allConditions',
);

/** The SMTP credential of the examples' e-mails, the same as examples/alert-by-email.json's. */
export const SMTP = { smtp: { id: 'csAlertSmtp', name: 'SMTP account' } };
/** Where the examples' e-mails go until a person puts their own address in Tell a Person. */
const TO_EMAIL = 'you@example.com';
const FROM_EMAIL = 'n8n <n8n@example.com>';
/** The hour of the day Daily Summary is sent at, in the workflow's time zone. */
export const SUMMARY_HOUR = 9;

/** Tell a Person's message: each deal that needs a person, and what to do for it. */
const TELL_A_PERSON = [
	`$('Deals for a Person').all().length + ' won deal(s) in the data table ${WON_DEALS_TABLE.name} need you (in n8n: Overview → Data tables → ${WON_DEALS_TABLE.name}; double-click a cell to change it, Enter saves it). ' +`,
	"$('Deals for a Person').all().map(({ json: row }) => 'Deal ' + row.dealId + ': ' + (row.status === 'retry' || row.status === 'waiting'",
	`? 'still not finished ${TELL_AFTER_HOURS} hours after it was won (' + row.problem + '). It is tried again every 10 minutes: if your CRM or the Contract Signing service is down, it goes on once they are back; otherwise correct what the message says.'`,
	": row.status === 'failed'",
	"? (Number(row.tries) ? 'refused ' + row.tries + ' times (' : 'not finished (') + row.problem + '). Correct this, then set its status to retry.'",
	": row.clientKey ? 'the service may have made its contract “' + row.contractName + '” for the client ' + row.clientKey + ' without saying so. Look for it in your Contract Signing account and, if it is there, put its key in contractKey; then set its status to retry.'",
	": 'the service may have made its client (Custom Key ' + row.customerId + ') without saying so. Look for it in your Contract Signing account and, if it is there, put its key in clientKey; then set its status to retry.')).join(' ')",
].join(' ');

/** Daily Summary's message: the deals not done yet, and that the e-mail comes every day. */
const DAILY_SUMMARY = [
	"($('Open Deals').all().filter(({ json: row }) => row.id).length",
	`? $('Open Deals').all().filter(({ json: row }) => row.id).length + ' won deal(s) in the data table ${WON_DEALS_TABLE.name} are not done: ' +`,
	"$('Open Deals').all().filter(({ json: row }) => row.id).map(({ json: row }) => 'Deal ' + row.dealId + ': ' + row.status + (row.problem ? ' (' + row.problem + ')' : '')).join('; ') + '.'",
	`: 'Every won deal in the data table ${WON_DEALS_TABLE.name} is done.') +`,
	`' Tell a Person e-mails you of each deal only a person can finish. This summary comes every day at ${SUMMARY_HOUR}: if it stops coming, this workflow, n8n or its e-mail is not working.'`,
].join(' ');

/** One output's connections, to the named steps. */
const to = (...nodes: string[]) =>
	nodes.map((name) => ({ node: name, type: 'main' as const, index: 0 }));

/** A column of the deal's row, as the steps after Deal read it. */
const deal = (column: string) => `$('Deal').item.json.${column}`;

/** Every status a deal's row can have. */
const STATUSES = [
	'new',
	'making client',
	'making contract',
	'sending keys',
	'retry',
	'waiting',
	'check',
	'failed',
	'done',
] as const;
type Status = (typeof STATUSES)[number];

/**
 * A table step's filter for the deal's own row, as the steps after Deal know it, while its status
 * is one of those the step expects: a run that n8n's Retry resumes after the sweep moved the deal
 * on (or a person finished it) finds no row, so it writes, makes and sends nothing more.
 */
const dealRow = (expects: Status[]) =>
	tableConditions(
		[
			{ column: 'id', condition: 'eq', value: `={{ ${deal('id')} }}` },
			...(expects.length === 1
				? [{ column: 'status', condition: 'eq' as const, value: expects[0] }]
				: STATUSES.filter((status) => !expects.includes(status)).map((status) => ({
						column: 'status',
						condition: 'neq' as const,
						value: status,
					}))),
		],
		'allConditions',
	);

/** Retry On Fail as a CRM's read has it, its failures to What Failed. */
const READ = { ...RETRY, onError: 'continueErrorOutput' as const };

/**
 * A Get's settings for the first row that matches: the oldest, by id. n8n 1.x has no Order By; on
 * SQLite it reads rows in the order they were written (docs/examples.md, for PostgreSQL).
 */
/**
 * Every row a Get finds, by id; Order By for n8n 2.x, whose Get sorts, while 1.x's Get passes no
 * order to the database: the steps after it sort the rows and keep the first (oldestRow).
 */
const ALL_ROWS = { returnAll: true, orderBy: true, orderByColumn: 'id', orderByDirection: 'ASC' };

/** What the engine brings: its steps up to Record Deal, the reads of the deal and where the keys go back. */
export interface CrmHead {
	/** The example's file, under examples/. */
	file: string;
	/** The workflow's id. */
	id: string;
	/** Its table of deals. */
	table: typeof WON_DEALS_TABLE;
	number: number;
	title: string;
	/** The steps from the trigger to the ones before Record Deal, in order. */
	steps: WorkflowNode[];
	/** Their connections, up to and including those into Make Table and Record Deal. */
	connections: Workflow['connections'];
	/**
	 * For deals given with little more than their id (from a CRM's intake): the steps that read the
	 * deal. The deal is recorded first, so that a read that fails leaves a row the retry finds; the
	 * reads start from the deal's row and end in Deal Fields, whose values are then saved to the
	 * row. Each position is [column, row] from where the reads start.
	 */
	lookups: {
		/** The sticky note over the steps that read the deal. */
		sticky: string;
		/** What Record Deal writes: what the intake gives. */
		record: Record<string, string>;
		recordNote: string;
		steps: WorkflowNode[];
		/** Their connections, those into Deal Fields, Not Won and What Failed included. */
		connections: Workflow['connections'];
	};
	/** Deal Fields' expressions: dealId, contractName, customerId, fullname, email, organization. */
	fields: Record<
		'dealId' | 'contractName' | 'customerId' | 'fullname' | 'email' | 'organization',
		string
	>;
	dealFieldsNote: string;
	/** The sticky note over its first steps. */
	sticky: string;
	/**
	 * The step One Run per Deal hands each recorded or retried deal to: it starts the run that
	 * finishes the deal, and lets the intake have its answer, now that the deal is kept.
	 */
	recorded: Omit<WorkflowNode, 'id' | 'position'>;
	/**
	 * The step the run ends at, after `recorded`: the deal's row as new items for the intake, since
	 * `recorded` starts another run to finish the deal and gives out the very list of items that run
	 * was started with.
	 */
	recordedEndsWith: Omit<WorkflowNode, 'id' | 'position'>;
	/**
	 * The step after Save Contract that gives the CRM the keys; its failures go to What Failed,
	 * which counts a refusal and waits out a busy CRM, and the sweep sends them again. It has no
	 * Retry On Fail, so that every failure is counted there.
	 */
	keysToCrm: Omit<WorkflowNode, 'id' | 'position' | 'onError'>;
}

/** The engine's workflow: its head, then the steps that finish a deal. */
export function dealExample(head: CrmHead): Workflow {
	const x = (column: number) => column * 240;
	const wonDeals = head.table;
	const dealColumns = (values: Record<string, string>) => tableColumns(values, wonDeals.columns);
	let counter = 100;
	const node = (
		name: string,
		position: [number, number],
		rest: Omit<WorkflowNode, 'id' | 'name' | 'position'>,
	): WorkflowNode => ({ id: nodeId(head.number, counter++), name, position, ...rest });
	/** An If step whose conditions must all hold; `idNumber` makes its conditions' stable ids. */
	const ifStep = (
		name: string,
		position: [number, number],
		idNumber: number,
		notes: string,
		conditions: ReturnType<typeof ifCondition>[],
	) =>
		node(name, position, {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes,
			parameters: allOf(nodeId(head.number, idNumber), conditions),
		});
	const table = (
		name: string,
		position: [number, number],
		operation: string,
		parameters: Json,
		notes: string,
		of: { name: string } = wonDeals,
	) =>
		node(name, position, {
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1,
			...RETRY,
			notes,
			parameters: { resource: 'row', operation, dataTableId: byName(of), ...parameters },
		});
	/** A Get of the rows whose column holds the deal's value. */
	const rowsOf = (name: string, position: [number, number], column: string, notes: string) =>
		table(
			name,
			position,
			'get',
			{
				...tableConditions(
					[{ column, condition: 'eq', value: `={{ ${deal(column)} }}` }],
					'allConditions',
				),
				...ALL_ROWS,
			},
			notes,
		);
	/** An update of the deal's row. */
	const updateDeal = (
		name: string,
		position: [number, number],
		expects: Status[],
		columns: Record<string, string>,
		notes: string,
	) =>
		table(
			name,
			position,
			'update',
			{ ...dealRow(expects), columns: dealColumns(columns), options: {} },
			notes,
		);
	/** A delete of the deal's row, while it is new. */
	const deleteDeal = (name: string, position: [number, number], notes: string) =>
		table(name, position, 'deleteRows', { ...dealRow(['new']), options: {} }, notes);
	/** A step that makes the table the first time the workflow runs, and finds it after. */
	const makeTable = (
		name: string,
		position: [number, number],
		{ name: tableName, columns }: { name: string; columns: string[] },
		notes: string,
	) =>
		node(name, position, {
			type: 'n8n-nodes-base.dataTable',
			typeVersion: 1.1,
			...RETRY,
			executeOnce: true,
			notes,
			parameters: {
				resource: 'table',
				operation: 'create',
				tableName,
				columns: { column: columns.map((column) => ({ name: column, type: 'string' })) },
				options: { createIfNotExists: true },
			},
		});
	const lookups = head.lookups;
	/** The column of Record Deal, less 2. */
	const start = Math.max(...head.steps.map((step) => step.position[0])) / x(1);
	/** The column of Add Customer: one further right for Has Customer?. */
	const c = start + 10;
	/** Where a step of the reads from the CRM goes: above the row of the deal's own steps. */
	const above = (column: number, row = 0): [number, number] => [x(c + column), -760 + row];
	const afterLookups = Math.max(...lookups.steps.map((step) => step.position[0])) + 1;
	/**
	 * What the failure on What Failed's input says: its HTTP status or network code (the HTTP
	 * Request node's `status`, other nodes' `httpCode`, the Contract Signing node's `code`), and
	 * whether the Contract Signing node says the record may exist.
	 */
	const failure = {
		code: "String($json.error?.status ?? $json.error?.httpCode ?? $json.error?.code ?? '')",
		message: "String(typeof $json.error === 'string' ? $json.error : '')",
		mayExist: `String($json.error?.description ?? '').includes('${MAY_EXIST}')`,
	};
	/**
	 * A busy or unreachable service or CRM, which is waited out and not counted: by its code, or,
	 * from a node that gives its error as text only (Pipedrive, HubSpot), by n8n's own message for
	 * such a code (n8n-workflow's NodeApiError and NodeError, 2.41.1).
	 */
	const waits = `/^(408|429|5\\d\\d|E[A-Z_]+)$/.test(${failure.code}) || /^(The service is receiving too many requests|The service (failed|was not able) to process|Bad gateway|Service unavailable|Gateway timed out|The service refused the connection|The connection (to the server was closed|cannot be established|timed out|was aborted)|The host is unreachable|The DNS server returned an error)/.test(${failure.message})`;
	const counts = `!(${failure.mayExist} || ${waits})`;
	/** A deal recorded longer ago than TELL_AFTER_HOURS, of which no one was told yet. */
	const tellNow = `${deal('told')} !== 'yes' && new Date(${deal('createdAt')}).getTime() < $now.minus({ hours: ${TELL_AFTER_HOURS} }).toMillis() ? 'no' : ${deal('told')} || ''`;
	/** A deal marked waiting, for Every 10 Minutes to try again; told of once it is old. */
	const markWaiting = (name: string, position: [number, number], problem: string, notes: string) =>
		updateDeal(
			name,
			position,
			['new'],
			{ status: 'waiting', problem, told: `={{ ${tellNow} }}` },
			notes,
		);
	const tries = `Number(${deal('tries')} || 0) + (${counts} ? 1 : 0)`;
	const failedStatus = `${failure.mayExist} ? 'check' : ${tries} >= ${MAX_TRIES} ? 'failed' : 'retry'`;
	const shared: WorkflowNode[] = [
		node('Deal Fields', above(afterLookups), {
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
		node('Has Ids?', above(afterLookups + 1), {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'A won deal needs the id of the deal and of its customer: they are how the workflow knows a deal and a customer again. Without them the run stops with an error instead of guessing.',
			parameters: allOf(nodeId(head.number, 98), [
				ifCondition('={{ $json.dealId }}', notEmpty),
				ifCondition('={{ $json.customerId }}', notEmpty),
			]),
		}),
		makeTable(
			'Make Table',
			[x(start + 2), -200],
			wonDeals,
			`Makes the data tables "${WON_DEALS_TABLE.name}" and, next, "${CUSTOMERS_TABLE.name}" with their columns the first time the workflow runs, and finds them on every run after (Table → Create, Reuse Existing Tables). It runs before Record Deal, and first in each run of Every 10 Minutes. n8n 1.x has no Table → Create: there, make the tables as the README says and delete this step and the next.`,
		),
		makeTable(
			'Make Customer Table',
			[x(start + 3), -400],
			CUSTOMERS_TABLE,
			`Makes the data table "${CUSTOMERS_TABLE.name}" the first time the workflow runs, and finds it on every run after.`,
		),
		updateDeal(
			'No Ids',
			above(afterLookups + 2, 200),
			['new'],
			{
				status: 'failed',
				problem:
					'The won deal has no customer in the CRM: give it one there (or map customerId in Deal Fields).',
				told: 'no',
			},
			'A won deal without a customer cannot get a client: a person is asked to give it one.',
		),
		table(
			'Record Deal',
			[x(start + 2), 0],
			'insert',
			{
				columns: dealColumns({ ...lookups.record, status: 'new', tries: '0' }),
				options: {},
			},
			`${lookups.recordNote} to the data table "${WON_DEALS_TABLE.name}", found by its name (n8n before 2.3: pick it From list). The table holds one row per deal: its customer, its keys, and its status, which says before each step what the step is about to do.`,
		),
		node('Deal', [x(start + 3), 0], {
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			notes:
				"The deal's row, new, tried again, or back with what was read from the CRM: the steps after this one read it here.",
			parameters: {},
		}),
		rowsOf(
			"Deal's Rows",
			[x(start + 4), 0],
			'dealId',
			'Reads the rows written for this deal: the one just written, and any the CRM sent before.',
		),
		ifStep(
			'First Time?',
			[x(start + 7), 0],
			93,
			'Only the first row of a deal goes on: a deal the CRM sends again, at once or later, gets no second contract.',
			[ifCondition('={{ $json.id }}', equals, `={{ ${deal('id')} }}`)],
		),
		deleteDeal(
			'Forget Repeat',
			[x(start + 9), 300],
			'Deletes the row just written for the repeat: the table keeps one row per deal.',
		),
		ifStep(
			'Still Reading?',
			[x(start + 8), 240],
			88,
			"A deal's first event may still be being read from the CRM: if the CRM says it is not won, its row is deleted. An event that comes meanwhile waits, so that a win heard then is not lost.",
			[ifCondition("={{ $json.status === 'new' && !$json.customerId }}", isTrue)],
		),
		markWaiting(
			'Wait for First Event',
			[x(start + 9), 480],
			"The deal's first event was still being read from the CRM.",
			"Marks this event of the deal waiting: Every 10 Minutes tries it again, once the first event's read has ended. If that one went on, this one is then deleted as a repeat; if the deal was not won then, this one is read from the CRM.",
		),
		ifStep(
			'Has Contract?',
			[x(start + 8), 0],
			92,
			'A deal whose contract is made, tried again because its keys did not reach the CRM, goes straight to giving them back.',
			[ifCondition(`={{ ${deal('contractKey')} }}`, notEmpty)],
		),
		ifStep(
			'Has Customer?',
			[x(start + 9), 120],
			89,
			"A deal recorded from the CRM's event has only its id: its customer and contact are read from the CRM first (the steps above), saved to its row, and the deal comes back here.",
			[ifCondition(`={{ ${deal('customerId')} }}`, notEmpty)],
		),
		...lookups.steps.map((step) => ({
			...step,
			position: above(step.position[0], step.position[1]),
		})),
		updateDeal(
			'Save Details',
			above(afterLookups + 2),
			['new'],
			{
				customerId: '={{ $json.customerId }}',
				contractName: '={{ $json.contractName }}',
				fullname: '={{ $json.fullname }}',
				email: '={{ $json.email }}',
				organization: '={{ $json.organization }}',
			},
			"Writes what was read from the CRM to the deal's row, and takes the deal back to Deal: from there it goes on as a deal whose customer is known.",
		),
		deleteDeal(
			'Not Won',
			above(lookups.steps.find((step) => step.name === 'Won?')!.position[0], -200),
			'Deletes the row of a deal that is not won: the table keeps won deals only.',
		),
		table(
			'Add Customer',
			[x(c), 120],
			'upsert',
			{
				...tableConditions(
					[
						{ column: 'customerId', condition: 'eq', value: `={{ ${deal('customerId')} }}` },
						{ column: 'dealId', condition: 'eq', value: `={{ ${deal('dealId')} }}` },
					],
					'allConditions',
				),
				columns: tableColumns(
					{ customerId: `={{ ${deal('customerId')} }}`, dealId: `={{ ${deal('dealId')} }}` },
					CUSTOMERS_TABLE.columns,
				),
				options: {},
			},
			`Writes the deal's customer to the data table "${CUSTOMERS_TABLE.name}", once per deal: the customer's rows there, in the order they were written, decide which deal makes its client.`,
			CUSTOMERS_TABLE,
		),
		table(
			"Customer's Rows",
			[x(c + 1), 120],
			'get',
			{
				...tableConditions(
					[{ column: 'customerId', condition: 'eq', value: `={{ ${deal('customerId')} }}` }],
					'allConditions',
				),
				...ALL_ROWS,
			},
			"Reads the customer's rows, one per deal: the first is the deal that makes the customer's client, and holds the client's key once it is made.",
			CUSTOMERS_TABLE,
		),
		ifStep(
			'Has Client?',
			[x(c + 4), 120],
			97,
			"A customer with a client gets the contract for that client; so does the deal that makes the client once a person put the client's key in its row.",
			[
				ifCondition(
					`={{ $json.clientKey || ($json.dealId === ${deal('dealId')} ? ${deal('clientKey')} : '') }}`,
					notEmpty,
				),
			],
		),
		table(
			'Keep Client',
			[x(c + 9), 120],
			'update',
			{
				...tableConditions(
					[
						{
							column: 'id',
							condition: 'eq',
							value: `={{ $("Customer's First Deal").item.json.id }}`,
						},
					],
					'allConditions',
				),
				columns: tableColumns(
					{ clientKey: `={{ $json.clientKey || ${deal('clientKey')} }}` },
					CUSTOMERS_TABLE.columns,
				),
				options: {},
			},
			"Writes the client's key to the customer's first row: every later deal of the customer finds it there.",
			CUSTOMERS_TABLE,
		),
		updateDeal(
			'Making Contract',
			[x(c + 10), 120],
			['new', 'making contract'],
			{ clientKey: '={{ $json.clientKey }}', status: 'making contract' },
			"Says in the deal's row that its contract is about to be made, for the customer's client: if the run stops before the contract's key is saved, the contract may exist, and a person is asked to look.",
		),
		ifStep(
			'First Deal?',
			[x(c + 5), 320],
			96,
			"The deal named by the customer's first row makes the client. Another deal that comes before the client is made waits for it, and is tried again in 10 minutes.",
			[ifCondition('={{ $json.dealId }}', stringEquals, `={{ ${deal('dealId')} }}`)],
		),
		updateDeal(
			'Making Client',
			[x(c + 6), 320],
			['new'],
			{ status: 'making client' },
			"Says in the deal's row that the customer's client is about to be made: if the run stops before the client's key is saved, the client may exist, and a person is asked to look.",
		),
		node('Create Client', [x(c + 7), 320], {
			type: CONTRACT_SIGNING_NODE,
			typeVersion: 1,
			...RETRY,
			onError: 'continueErrorOutput',
			credentials: CONTRACT_SIGNING,
			notes:
				"Creates the customer's client, with its person as the client's first user: the default user, who creates its contracts.",
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
			[x(c + 8), 320],
			['making client'],
			{ clientKey: '={{ $json.clientKey }}', status: 'making contract' },
			"Writes the new client's key to the deal's row; Keep Client gives it to the customer's first row next, and the contract is made.",
		),
		markWaiting(
			'Wait for Client',
			[x(c + 6), 520],
			"The customer's first deal has not made the client yet.",
			`Marks the deal waiting: Every 10 Minutes tries it again. A deal still waiting ${TELL_AFTER_HOURS} hours after it was recorded is told of once.`,
		),
		node('Create Contract', [x(c + 11), 120], {
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
			[x(c + 12), 120],
			['making contract'],
			{
				clientKey: '={{ $json.clientKey }}',
				contractKey: '={{ $json.contractKey }}',
				status: 'sending keys',
			},
			"Writes the contract's key to the deal's row. The keys go to the CRM next; the deal is done once the CRM has taken them.",
		),
		updateDeal(
			'Done',
			[x(c + 14), 0],
			['new', 'sending keys'],
			{ status: 'done', problem: '', tries: '0', told: '' },
			'The CRM took the keys: the deal is done, and no one needs to be told of it.',
		),
		node('What Failed', [x(c + 14), 480], {
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			notes: `What a failed step means for the deal. The service may have made the record without saying so: check, and a person is asked to look. A busy or unreachable service or CRM: retry, as often as it takes, and a person is told of a deal still not finished ${TELL_AFTER_HOURS} hours after it was recorded. Any other refusal: retry, and after ${MAX_TRIES} refusals failed, and a person is asked to correct it.`,
			parameters: {
				assignments: {
					assignments: [
						['status', `={{ ${failedStatus} }}`],
						['tries', `={{ String(${tries}) }}`],
						[
							'problem',
							"={{ typeof $json.error === 'string' ? $json.error : $json.error?.message ?? 'The step failed' }}",
						],
					].map(([name, value], index) => ({
						id: `${nodeId(head.number, 91)}-${index}`,
						name,
						value,
						type: 'string',
					})),
				},
				options: {},
			},
		}),
		updateDeal(
			'Mark for Retry',
			[x(c + 15), 480],
			['new', 'making client', 'making contract', 'sending keys'],
			{
				status: '={{ $json.status }}',
				tries: '={{ $json.tries }}',
				problem: '={{ $json.problem }}',
				told: `={{ $json.status === 'retry' ? ${tellNow} : 'no' }}`,
			},
			`Writes what failed to the deal's row: Every 10 Minutes tries a retry again, and tells a person of a check or a failed deal, and of one still not finished ${TELL_AFTER_HOURS} hours after it was recorded.`,
		),
		node('Every 10 Minutes', [x(start), 1240], {
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			notes: `Once the workflow is published, every 10 minutes: finds the table, finds the deals whose run stopped (their row unchanged for ${STOPPED_AFTER_MINUTES} minutes in a step), tries again the deals that could not finish, then tells a person of the deals that need one, in that order (top to bottom, as n8n runs the steps after one).`,
			parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 10 }] } },
		}),
		table(
			'Stopped Runs',
			[x(start + 1), 1000],
			'get',
			{
				...tableConditions(
					[
						...['done', 'retry', 'waiting', 'check', 'failed'].map((status) => ({
							column: 'status',
							condition: 'neq' as const,
							value: status,
						})),
						{
							column: 'updatedAt',
							condition: 'lt',
							value: `={{ $now.minus(${STOPPED_AFTER_MINUTES}, 'minutes').toISO() }}`,
						},
					],
					'allConditions',
				),
				returnAll: true,
			},
			`The deals whose run stopped: in a step (new, making client, making contract, sending keys) and unchanged for ${STOPPED_AFTER_MINUTES} minutes, far longer than a run takes.`,
		),
		node('Was Creating?', [x(start + 2), 1000], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'A run that stopped while making the client or the contract may have made it: a person looks. One that stopped before, or while sending the keys, is tried again.',
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
					conditions: ['making client', 'making contract'].map((status, index) => ({
						id: `${nodeId(head.number, 90)}-${index}`,
						...ifCondition('={{ $json.status }}', stringEquals, status),
					})),
					combinator: 'or',
				},
				options: {},
			},
		}),
		table(
			'Mark Check',
			[x(start + 3), 900],
			'update',
			{
				...sameRow,
				columns: dealColumns({
					status: 'check',
					problem:
						"={{ 'The run stopped while ' + $json.status + ': the service may have made the ' + ($json.status === 'making client' ? 'client' : 'contract') + '.' }}",
					told: 'no',
				}),
				options: {},
			},
			'The deal may have a record the workflow cannot see: a person is asked to look.',
		),
		table(
			'Mark Retry',
			[x(start + 3), 1100],
			'update',
			{
				...sameRow,
				columns: dealColumns({ status: 'retry' }),
				options: {},
			},
			'Nothing was made, or only the keys were not given back: tried again.',
		),
		table(
			'Deals to Retry',
			[x(start + 1), 1240],
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
			[x(start + 2), 1240],
			'update',
			{ ...sameRow, columns: dealColumns({ status: 'new' }), options: {} },
			'Sets the deal back to new, unless another run took it first: only the run that changed the row hands it on, to a run of its own.',
		),
		table(
			'Deals for a Person',
			[x(start + 1), 1440],
			'get',
			{
				...tableConditions([{ column: 'told', condition: 'eq', value: 'no' }], 'allConditions'),
				returnAll: true,
			},
			`The deals only a person can finish (check or failed), and those still not finished ${TELL_AFTER_HOURS} hours after they were recorded, that no one was told of yet.`,
		),
		node('Tell a Person', [x(start + 2), 1440], {
			type: 'n8n-nodes-base.emailSend',
			typeVersion: 2.1,
			executeOnce: true,
			...RETRY,
			notes:
				'Set To Email to the address that must hear of these deals, From Email to one your mail server sends from, and pick your SMTP credential (the one Alert by Email uses). One e-mail names each deal and what to do. If it cannot be sent, this run fails (its Error Workflow runs) and the deals are told of at the next sweep.',
			credentials: SMTP,
			parameters: {
				fromEmail: FROM_EMAIL,
				toEmail: TO_EMAIL,
				subject: `=n8n: {{ $('Deals for a Person').all().length }} won deal(s) need you`,
				emailFormat: 'text',
				text: `={{ ${TELL_A_PERSON} }}`,
				options: { appendAttribution: false },
			},
		}),
		node('Once Told', [x(start + 3), 1440], {
			type: 'n8n-nodes-base.merge',
			typeVersion: 3,
			notes: 'The deals again, once the e-mail went: a deal is marked told only then.',
			parameters: {
				mode: 'chooseBranch',
				chooseBranchMode: 'waitForAll',
				output: 'specifiedInput',
				useDataOfInput: 1,
			},
		}),
		table(
			'Mark Told',
			[x(start + 4), 1440],
			'update',
			{ ...sameRow, columns: dealColumns({ told: 'yes' }), options: {} },
			'Each deal is told of once.',
		),
		node('Every Day', [x(start), 1640], {
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			notes: `Once the workflow is published, every day at ${SUMMARY_HOUR}: finds the table, then sends a summary of the deals not done yet, so that you notice when these e-mails stop coming.`,
			parameters: { rule: { interval: [{ field: 'days', triggerAtHour: SUMMARY_HOUR }] } },
		}),
		{
			...table(
				'Open Deals',
				[x(start + 1), 1640],
				'get',
				{
					...tableConditions(
						[{ column: 'status', condition: 'neq', value: 'done' }],
						'allConditions',
					),
					returnAll: true,
				},
				'The deals not done yet; an empty item when there is none, so that the summary goes all the same.',
			),
			alwaysOutputData: true,
		},
		node('Daily Summary', [x(start + 2), 1640], {
			type: 'n8n-nodes-base.emailSend',
			typeVersion: 2.1,
			executeOnce: true,
			...RETRY,
			notes:
				'Sends to the addresses of Tell a Person, with the same SMTP credential: pick it here too.',
			credentials: SMTP,
			parameters: {
				fromEmail: "={{ $('Tell a Person').params.fromEmail }}",
				toEmail: "={{ $('Tell a Person').params.toEmail }}",
				subject: "=n8n: won deals on {{ $now.toFormat('yyyy-LL-dd') }}",
				emailFormat: 'text',
				text: `={{ ${DAILY_SUMMARY} }}`,
				options: { appendAttribution: false },
			},
		}),
	];
	const oneRunPerDeal: WorkflowNode = {
		id: nodeId(head.number, 96),
		name: 'One Run per Deal',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [x(start + 3), -200],
		notes:
			'Hands Finish Later one deal at a time, so that each run of this workflow finishes one deal and calls back the one intake that deal came from.',
		parameters: { batchSize: 1, options: {} },
	};
	const recorded: WorkflowNode = {
		...head.recorded,
		id: nodeId(head.number, counter++),
		position: [x(start + 4), -200],
	};
	const retryOneByOne: WorkflowNode = {
		id: nodeId(head.number, 97),
		name: 'Retry One by One',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [x(start + 3), 1240],
		notes:
			'Hands Finish Now one deal at a time, so that each run of this workflow finishes one deal and calls back the one intake that deal came from.',
		parameters: { batchSize: 1, options: {} },
	};
	const finishNow: WorkflowNode = {
		...head.recorded,
		id: nodeId(head.number, 88),
		name: 'Finish Now',
		position: [x(start + 4), 1240],
		parameters: { ...head.recorded.parameters, options: {} },
		onError: 'continueRegularOutput',
		notes:
			"Finishes the deal in a run of its own and waits for it, so that a deal that fails there is told of by this run's Tell a Person.",
	};
	const keysToCrm: WorkflowNode = {
		...head.keysToCrm,
		onError: 'continueErrorOutput',
		id: nodeId(head.number, counter++),
		position: [x(c + 13), 0] as [number, number],
	};
	const recordedEndsWith: WorkflowNode = {
		...head.recordedEndsWith,
		id: nodeId(head.number, counter++),
		position: [x(start + 4), -400],
	};
	/**
	 * The first of a Get's rows by id, in n8n's Sort and Limit: n8n 1.x's Get reads rows in the
	 * order the database holds them, which an update changes.
	 */
	const oldestRow = (rows: string, name: string, column: number, row: number): WorkflowNode[] => [
		node(`${rows} by Id`, [x(column), row], {
			type: 'n8n-nodes-base.sort',
			typeVersion: 1,
			notes: 'Puts the rows in the order they were written.',
			parameters: {
				type: 'simple',
				sortFieldsUi: { sortField: [{ fieldName: 'id', order: 'ascending' }] },
				options: {},
			},
		}),
		node(name, [x(column + 1), row], {
			type: 'n8n-nodes-base.limit',
			typeVersion: 1,
			notes: 'Keeps the first row written.',
			parameters: { maxItems: 1, keep: 'firstItems' },
		}),
	];
	const oldestRows = [
		...oldestRow("Deal's Rows", "Deal's First Row", start + 5, 0),
		...oldestRow("Customer's Rows", "Customer's First Deal", c + 2, 120),
	];
	const connections: Workflow['connections'] = {
		...head.connections,
		...lookups.connections,
		'Deal Fields': { main: [to('Has Ids?')] },
		'Has Ids?': { main: [to('Save Details'), to('No Ids')] },
		'Save Details': { main: [to('Deal')] },
		'Record Deal': { main: [to(oneRunPerDeal.name)] },
		[oneRunPerDeal.name]: { main: [to(recordedEndsWith.name), to(recorded.name)] },
		[recorded.name]: { main: [to(oneRunPerDeal.name)] },
		'Make Table': { main: [to('Make Customer Table')] },
		Deal: { main: [to("Deal's Rows")] },
		"Deal's Rows": { main: [to("Deal's Rows by Id")] },
		"Deal's Rows by Id": { main: [to("Deal's First Row")] },
		"Deal's First Row": { main: [to('First Time?')] },
		'First Time?': { main: [to('Has Contract?'), to('Still Reading?')] },
		'Still Reading?': { main: [to('Wait for First Event'), to('Forget Repeat')] },
		'Has Contract?': { main: [to(keysToCrm.name), to('Has Customer?')] },
		'Has Customer?': { main: [to('Add Customer'), to(lookups.steps[0].name)] },
		'Add Customer': { main: [to("Customer's Rows")] },
		"Customer's Rows": { main: [to("Customer's Rows by Id")] },
		"Customer's Rows by Id": { main: [to("Customer's First Deal")] },
		"Customer's First Deal": { main: [to('Has Client?')] },
		'Has Client?': { main: [to('Keep Client'), to('First Deal?')] },
		'Keep Client': { main: [to('Making Contract')] },
		'Making Contract': { main: [to('Create Contract')] },
		'First Deal?': { main: [to('Making Client'), to('Wait for Client')] },
		'Making Client': { main: [to('Create Client')] },
		'Create Client': { main: [to('Save Client'), to('What Failed')] },
		'Save Client': { main: [to('Keep Client')] },
		'Create Contract': { main: [to('Save Contract'), to('What Failed')] },
		'Save Contract': { main: [to(keysToCrm.name)] },
		[keysToCrm.name]: { main: [to('Done'), to('What Failed')] },
		'What Failed': { main: [to('Mark for Retry')] },
		'Every 10 Minutes': {
			main: [to('Make Table', 'Stopped Runs', 'Deals to Retry', 'Deals for a Person')],
		},
		'Stopped Runs': { main: [to('Was Creating?')] },
		'Was Creating?': { main: [to('Mark Check'), to('Mark Retry')] },
		'Deals to Retry': { main: [to('Take Over')] },
		'Take Over': { main: [to(retryOneByOne.name)] },
		[retryOneByOne.name]: { main: [[], to(finishNow.name)] },
		[finishNow.name]: { main: [to(retryOneByOne.name)] },
		'Deals for a Person': { main: [to('Tell a Person', 'Once Told')] },
		'Tell a Person': { main: [[{ node: 'Once Told', type: 'main' as const, index: 1 }]] },
		'Once Told': { main: [to('Mark Told')] },
		'Every Day': { main: [to('Make Table', 'Open Deals')] },
		'Open Deals': { main: [to('Daily Summary')] },
	};
	const nodes = [
		...head.steps,
		...shared,
		oneRunPerDeal,
		recorded,
		recordedEndsWith,
		keysToCrm,
		retryOneByOne,
		finishNow,
		...oldestRows,
	];
	const named = (names: string[]) => nodes.filter((step) => names.includes(step.name));
	const sweep = [
		'Every 10 Minutes',
		'Stopped Runs',
		'Was Creating?',
		'Mark Check',
		'Mark Retry',
		'Deals to Retry',
		'Take Over',
		'Retry One by One',
		'Finish Now',
		'Deals for a Person',
		'Tell a Person',
		'Once Told',
		'Mark Told',
		'Every Day',
		'Open Deals',
		'Daily Summary',
	];
	const reads = [
		...lookups.steps.map((step) => step.name),
		'Deal Fields',
		'Has Ids?',
		'No Ids',
		'Save Details',
		'Not Won',
	];
	const crm = head.steps.map((step) => step.name);
	const stickies = [
		sticky(nodeId(head.number, 80), 'Sticky Note', head.sticky, named(crm), 4),
		sticky(nodeId(head.number, 81), 'Sticky Note1', lookups.sticky, named(reads), 4),
		sticky(
			nodeId(head.number, 82),
			'Sticky Note2',
			`## One client per customer, one contract per deal\nThe deal's row in the data table **${WON_DEALS_TABLE.name}** says each step before it is taken. Set your Template Key in **Create Contract**. **What Failed** takes the failures of the creates, the reads from the CRM and the keys: the deal is tried again every 10 minutes, or a person is told.`,
			nodes.filter((step) => ![...crm, ...reads, ...sweep].includes(step.name)),
			7,
		),
		sticky(
			nodeId(head.number, 83),
			'Sticky Note3',
			"## Every 10 minutes, once published\nFinds the runs that stopped, tries again the deals that can go on, and e-mails you of each deal only a person can finish (**Tell a Person**: your address and SMTP credential); every day, a summary (**Daily Summary**). Pick Alert by Email as the Error Workflow in the workflow's settings for a step that fails (README).",
			named(sweep),
			6,
		),
	];
	return {
		id: head.id,
		name: head.title,
		nodes: [...nodes, ...stickies],
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** A sticky note behind the given steps, with room above them for its text. */
function sticky(
	id: string,
	name: string,
	content: string,
	steps: WorkflowNode[],
	color: number,
): WorkflowNode {
	const xs = steps.map((step) => step.position[0]);
	const ys = steps.map((step) => step.position[1]);
	const [left, top] = [Math.min(...xs) - 60, Math.min(...ys) - 160];
	return {
		id,
		name,
		type: 'n8n-nodes-base.stickyNote',
		typeVersion: 1,
		position: [left, top],
		parameters: {
			content,
			width: Math.max(Math.max(...xs) + 160 - left, 440),
			height: Math.max(...ys) + 160 - top,
			color,
		},
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

/** The write-back to a CRM's own API, for the Webhook intake. */
const SEND_KEYS_TO_CRM: CrmHead['keysToCrm'] = {
	name: 'Send Keys to CRM',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	notes:
		"Replace the URL (and add your CRM's credential) with your CRM's address that stores the keys on the deal, and each Name under Body Parameters with the field your CRM takes for it; to keep the keys only in Won deals, deactivate this step (right-click, Deactivate). If the CRM refuses them or cannot be reached, Every 10 Minutes sends them again.",
	parameters: {
		method: 'POST',
		url: '=https://crm.example.com/api/deals/{{ $json.dealId }}/contract-signing',
		sendBody: true,
		bodyParameters: {
			parameters: [
				{ name: 'dealId', value: '={{ $json.dealId }}' },
				{ name: 'clientKey', value: '={{ $json.clientKey }}' },
				{ name: 'contractKey', value: '={{ $json.contractKey }}' },
			],
		},
		options: {},
	},
};

/** The header and secret the CRM sends with each deal (n8n's Header Auth), which the user makes. */
export const CRM_SECRET = {
	httpHeaderAuth: { id: 'crmSecretCredential', name: 'CRM secret' },
};

/** The deal the Webhook intake holds as its test event, and the README shows. */
export const TEST_DEAL = {
	deal: { id: 'D-1042', name: 'Service agreement – Analytical Engines', status: 'won' },
	customer: {
		id: 'C-77',
		name: 'Ada Lovelace',
		email: 'ada@example.com',
		company: 'Analytical Engines Ltd',
	},
};

/** The test deal held on the Webhook intake's trigger, which Execute workflow runs with. */
const TEST_EVENT = {
	headers: { 'content-type': 'application/json' },
	params: {},
	query: {},
	body: TEST_DEAL,
};

/**
 * A CRM's own steps, which its intake is made of: the trigger gives the engine the deal's id; the
 * reads give it the deal's fields when it calls back; the write gives the CRM the keys.
 */
export interface CrmSide {
	/** The deal's id in the trigger's event. */
	dealId: string;
	/** The trigger, and Won? where the event tells whether the deal is won. */
	steps: WorkflowNode[];
	/** Their connections, up to and including those into Deal Id. */
	connections: Workflow['connections'];
	/**
	 * The steps that read the deal from the CRM, each position [column, row] from where the reads
	 * start, and their connections, those into Deal Fields, Not Won and CRM Failed included.
	 */
	reads: { steps: WorkflowNode[]; connections: Workflow['connections'] };
	/** Deal Fields' expressions. */
	fields: CrmHead['fields'];
	dealFieldsNote: string;
	/** The step that gives the CRM the keys; its failures go to CRM Failed. */
	keysToCrm: CrmHead['keysToCrm'];
}

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
const PIPEDRIVE_WEBHOOK_LOGIN = {
	httpBasicAuth: { id: 'pipedriveWebhookLogin', name: 'Pipedrive webhook login' },
};
const pipedriveDeal = (field: string) => `$('Get Deal').item.json.${field}`;

export const PIPEDRIVE: CrmSide = {
	dealId: '$json.data.id',
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
					"Pick your Pipedrive API credential, and in Credential for Basic Auth make a new one with a user name and a long random password: n8n gives them to Pipedrive with the webhook, and turns away any delivery without them. Once the workflow is published, Pipedrive sends every deal added or changed (Action All, Entity Deal). This step gives the deal as it is now under data (id, title, status, person_id, org_id) and, under previous, the fields the change altered, or nothing for a deal just added (Pipedrive's webhooks v2).",
				parameters: { incomingAuthentication: 'basicAuth', action: '*', entity: 'deal' },
			},
			{ ...PIPEDRIVE_CREDENTIAL, ...PIPEDRIVE_WEBHOOK_LOGIN },
		),
		wonIf(
			2,
			2,
			[240, 0],
			"$json.data?.status === 'won' && ($json.previous == null || ($json.previous.status !== undefined && $json.previous.status !== 'won'))",
			'Only a deal added won, or a change that turned its status to won, goes on. Other changes of a deal, won or not, stop here.',
		),
	],
	connections: {
		'Pipedrive Trigger': { main: [to('Won?')] },
		'Won?': { main: [to('Deal Id')] },
	},
	reads: {
		steps: [
			crmStep(
				2,
				6,
				{
					name: 'Get Deal',
					type: 'n8n-nodes-base.pipedrive',
					typeVersion: 2,
					position: [0, 0],
					...READ,
					notes:
						"Reads the deal (Deal → Get) for its title, person and organization. Pick the same Pipedrive credential. If Pipedrive cannot answer, Every 10 Minutes reads it again. Keep Show Raw Field Keys on here and in the two steps after: with it off, Pipedrive's step reads the names of your custom fields first, and when that fails the deal goes on unread instead of to What Failed.",
					parameters: {
						resource: 'deal',
						operation: 'get',
						dealId: `={{ Number(${deal('dealId')}) }}`,
						rawCustomFieldOutput: true,
					},
				},
				PIPEDRIVE_CREDENTIAL,
			),
			crmStep(
				2,
				3,
				{
					name: 'Get Person',
					type: 'n8n-nodes-base.pipedrive',
					typeVersion: 2,
					position: [1, 0],
					...READ,
					notes:
						"Reads the deal's contact person (Person → Get): the person becomes the client's user, who gets the contract.",
					parameters: {
						resource: 'person',
						operation: 'get',
						personId: '={{ $json.person_id }}',
						rawCustomFieldOutput: true,
					},
				},
				PIPEDRIVE_CREDENTIAL,
			),
			{
				id: nodeId(2, 4),
				name: 'Has Organization?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [2, 0],
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
					position: [3, -120],
					...READ,
					notes: "Reads the deal's organization (Organization → Get) for its name.",
					parameters: {
						resource: 'organization',
						operation: 'get',
						organizationId: `={{ ${pipedriveDeal('org_id')} }}`,
						rawCustomFieldOutput: true,
					},
				},
				PIPEDRIVE_CREDENTIAL,
			),
		],
		connections: {
			'Get Deal': { main: [to('Get Person'), to('CRM Failed')] },
			'Get Person': { main: [to('Has Organization?'), to('CRM Failed')] },
			'Has Organization?': { main: [to('Get Organization'), to('Deal Fields')] },
			'Get Organization': { main: [to('Deal Fields'), to('CRM Failed')] },
		},
	},
	fields: {
		dealId: deal('dealId'),
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
		credentials: PIPEDRIVE_CREDENTIAL,
		notes:
			'Adds a note with the keys to the deal in Pipedrive. To keep them in fields of the deal instead, make the fields in Pipedrive and set this step to the Deal resource and its Update operation. If Pipedrive refuses them or cannot be reached, Every 10 Minutes sends them again.',
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

export const HUBSPOT: CrmSide = {
	dealId: '$json.dealId',
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
					"Pick your HubSpot Developer API credential: HubSpot signs each delivery with your developer app's secret, and this step drops any that is not signed so. Once the workflow is published, HubSpot sends each deal created and each change of a deal's stage (Deal Created; Deal Property Changed, dealstage), several at a time; this step gives one item per event, with the deal's dealId.",
				parameters: {
					eventsUi: {
						eventValues: [
							{ name: 'deal.creation' },
							{ name: 'deal.propertyChange', property: 'dealstage' },
						],
					},
					additionalFields: {},
				},
			},
			HUBSPOT_APP,
		),
	],
	connections: { 'HubSpot Trigger': { main: [to('Deal Id')] } },
	reads: {
		steps: [
			crmStep(
				3,
				3,
				{
					name: 'Get Deal',
					type: 'n8n-nodes-base.hubspot',
					typeVersion: 2.2,
					position: [0, 0],
					...READ,
					notes:
						"Reads the deal (Deal → Get): whether it is won, its name and its associations, the contacts and companies linked to it. Pick your HubSpot Service Key credential (HubSpot App Token on n8n 1.x): a service key or a private app's token with the scopes crm.objects.deals.read, crm.objects.deals.write, crm.objects.contacts.read and crm.objects.companies.read, since Keys on Deal writes with it too. If HubSpot cannot answer, Every 10 Minutes reads it again.",
					parameters: {
						authentication: 'appToken',
						resource: 'deal',
						operation: 'get',
						dealId: hubspotId(`={{ ${deal('dealId')} }}`),
						filters: {},
					},
				},
				HUBSPOT_KEY,
			),
			wonIf(
				3,
				2,
				[1, 0],
				"$json.properties?.hs_is_closed_won?.value === 'true'",
				"Only a won deal goes on, in any pipeline: HubSpot's own property hs_is_closed_won says so whatever the won stage is called. One won before and changed since goes on too, and First Time? stops it: it already has its contract.",
			),
			crmStep(
				3,
				4,
				{
					name: 'Get Contact',
					type: 'n8n-nodes-base.hubspot',
					typeVersion: 2.2,
					position: [2, 0],
					...READ,
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
				position: [3, 0],
				notes:
					"A deal of a company reads the company's name; a contact's own deal goes straight on.",
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
					position: [4, -120],
					...READ,
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
			'Get Deal': { main: [to('Won?'), to('CRM Failed')] },
			'Won?': { main: [to('Get Contact'), to('Not Won')] },
			'Get Contact': { main: [to('Has Company?'), to('CRM Failed')] },
			'Has Company?': { main: [to('Get Company'), to('Deal Fields')] },
			'Get Company': { main: [to('Deal Fields'), to('CRM Failed')] },
		},
	},
	fields: {
		dealId: deal('dealId'),
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
		credentials: HUBSPOT_KEY,
		notes:
			"Writes the keys to two deal properties in HubSpot: make them first in HubSpot's settings of deal properties (single-line text, internal names contract_signing_contract_key and contract_signing_client_key), or deactivate this step (right-click, Deactivate) to keep the keys only in Won deals. If HubSpot refuses them or cannot be reached, Every 10 Minutes sends them again.",
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

export const SALESFORCE: CrmSide = {
	dealId: '$json.Id',
	steps: [
		crmStep(
			4,
			1,
			{
				name: 'Opportunity Updated',
				type: 'n8n-nodes-base.salesforceTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				notes:
					"Pick your Salesforce OAuth2 credential. Once the workflow is published, n8n asks Salesforce every minute for the opportunities changed since it last asked and gives one item per opportunity, with its Id. Salesforce does not say what changed: Won? and the table tell a new win. n8n's trigger leaves out an opportunity changed within 15 minutes of its creation until those 15 minutes are over: one won that soon is heard about 16 minutes after it was created.",
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
			5,
			{
				name: 'Opportunity Created',
				type: 'n8n-nodes-base.salesforceTrigger',
				typeVersion: 1.1,
				position: [0, 200],
				notes:
					'The same credential. Every minute, the opportunities created since the last check: one created already won goes on from here, since Opportunity Updated leaves out what is new.',
				parameters: {
					authentication: 'oAuth2',
					triggerOn: 'opportunityCreated',
					pollTimes: { item: [{ mode: 'everyMinute' }] },
				},
			},
			SALESFORCE_CREDENTIAL,
		),
	],
	connections: {
		'Opportunity Updated': { main: [to('Deal Id')] },
		'Opportunity Created': { main: [to('Deal Id')] },
	},
	reads: {
		steps: [
			crmStep(
				4,
				2,
				{
					name: 'Get Opportunity',
					type: 'n8n-nodes-base.salesforce',
					typeVersion: 1.1,
					position: [0, 0],
					...READ,
					notes:
						"Reads the opportunity with its account's name and its primary contact in one query (Search → Query). Pick the same Salesforce credential. If Salesforce cannot answer, Every 10 Minutes reads it again.",
					parameters: {
						authentication: 'oAuth2',
						resource: 'search',
						operation: 'query',
						query: `=SELECT Id, Name, IsWon, AccountId, Account.Name, (SELECT Contact.Name, Contact.Email FROM OpportunityContactRoles WHERE IsPrimary = true) FROM Opportunity WHERE Id = '{{ ${deal('dealId')} }}'`,
					},
				},
				SALESFORCE_CREDENTIAL,
			),
			wonIf(
				4,
				3,
				[1, 0],
				'$json.IsWon === true',
				'Only a won opportunity goes on. One won before and changed since goes on too, and First Time? stops it: it already has its contract.',
			),
		],
		connections: {
			'Get Opportunity': { main: [to('Won?'), to('CRM Failed')] },
			'Won?': { main: [to('Deal Fields'), to('Not Won')] },
		},
	},
	fields: {
		dealId: deal('dealId'),
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
		credentials: SALESFORCE_CREDENTIAL,
		notes:
			"Adds a note with the keys to the opportunity in Salesforce. To keep them in fields of the opportunity instead, make the fields in Salesforce and set this step's Operation to Update. If Salesforce refuses them or cannot be reached, Every 10 Minutes sends them again.",
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

/** The engine's workflow: the one every intake calls, and calls back. */
export const ENGINE_ID = 'csContractEngine';
const ENGINE_NAME = 'Contract engine (won deals)';

/**
 * An Execute Workflow step: the workflow `workflowId` names, with all the items as its input (its
 * Execute Workflow Trigger accepts all data) in one run. The engine's calls back to an intake name
 * it by the first item's row, which is the run's only deal (One Run per Deal).
 */
function callWorkflow(workflowId: Json, wait: boolean) {
	return {
		type: 'n8n-nodes-base.executeWorkflow',
		typeVersion: 1.3,
		parameters: { workflowId, mode: 'once', options: wait ? {} : { waitForSubWorkflow: false } },
	};
}

/** The intake that recorded the deal, by the id its row holds. */
const theIntake = { __rl: true, mode: 'id', value: `={{ ${deal('intakeId')} }}` };

/** An Execute Workflow Trigger that takes the caller's items as they are. */
const whenCalled = (
	name: string,
	[example, node]: [number, number],
	position: [number, number],
	notes: string,
) => ({
	id: nodeId(example, node),
	name,
	type: 'n8n-nodes-base.executeWorkflowTrigger',
	typeVersion: 1.1,
	position,
	notes,
	parameters: { inputSource: 'passthrough' },
});

/** A column of what an intake gives, trimmed. */
const given = (column: string) => `={{ String($json.${column} ?? '').trim() }}`;

/**
 * The contract engine: the deal an intake gives is recorded, and a run of its own finishes it; the
 * intake is called back for what only the CRM knows (the deal's details, when the intake gave only
 * its id) and to give the CRM the keys.
 */
export const ENGINE: CrmHead = {
	file: 'contract-engine.json',
	id: ENGINE_ID,
	table: ENGINE_TABLE,
	number: 5,
	title: ENGINE_NAME,
	steps: [
		whenCalled(
			'When Called',
			[5, 1],
			[0, 0],
			"An intake calls here with a deal (dealId, intakeId, and what it knows of the customer); Finish Later calls here with the deal's row.",
		),
		{
			id: nodeId(5, 2),
			name: 'Recorded?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			position: [240, 0],
			notes:
				'A row of Won deals, from Finish Later, is finished; a deal from an intake is recorded first.',
			parameters: allOf(nodeId(5, 94), [ifCondition('={{ $json.id }}', numberExists)]),
		},
		{
			id: nodeId(5, 3),
			name: 'Has Deal Id?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			position: [480, 0],
			notes:
				'A deal needs its id in the CRM and the id of the intake that calls back: without them the intake is told by an error and nothing is recorded.',
			parameters: allOf(nodeId(5, 93), [
				ifCondition(given('dealId'), notEmpty),
				ifCondition(given('intakeId'), notEmpty),
			]),
		},
		{
			id: nodeId(5, 4),
			name: 'No Deal Id',
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			position: [720, 200],
			parameters: {
				errorMessage:
					"The intake gave no dealId: in the intake's Deal Fields, map dealId to the id your CRM sends.",
			},
		},
	],
	connections: {
		'When Called': { main: [to('Recorded?')] },
		'Recorded?': { main: [to('Deal'), to('Has Deal Id?')] },
		'Has Deal Id?': { main: [to('Make Table', 'Record Deal'), to('No Deal Id')] },
	},
	sticky:
		'## From an intake\nAn intake (one per CRM) calls **When Called** with a won deal. It is written to Won deals, and **Finish Later** finishes it in a run of its own, so that the intake can answer its CRM at once.',
	lookups: {
		sticky:
			'## Read by the intake\nA deal whose intake gave only its id: the intake reads it from the CRM (**Read Details**); a deal the CRM says is not won is deleted. A read that fails is tried again every 10 minutes.',
		record: Object.fromEntries(
			['dealId', 'intakeId', 'customerId', 'contractName', 'fullname', 'email', 'organization'].map(
				(column) => [column, given(column)],
			),
		),
		recordNote: 'Writes the deal the intake gives',
		steps: [
			{
				id: nodeId(5, 6),
				name: 'Read Details',
				position: [0, 0],
				...callWorkflow(theIntake, true),
				// No Retry On Fail: each read of the intake tries again itself, and n8n would run the
				// whole intake again for a failed read, three tries each time.
				onError: 'continueErrorOutput' as const,
				notes:
					"Calls the deal's intake with its row (no contractKey yet): the intake reads the deal from its CRM and gives back its fields, and won.",
			},
			{
				id: nodeId(5, 7),
				name: 'Won?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [1, 0],
				notes: 'A deal the CRM says is not won stops here, and its row is deleted.',
				parameters: allOf(nodeId(5, 95), [ifCondition('={{ $json.won !== false }}', isTrue)]),
			},
		],
		connections: {
			'Read Details': { main: [to('Won?'), to('What Failed')] },
			'Won?': { main: [to('Deal Fields'), to('Not Won')] },
		},
	},
	fields: {
		dealId: deal('dealId'),
		contractName: '$json.contractName',
		customerId: '$json.customerId',
		fullname: '$json.fullname',
		email: '$json.email',
		organization: '$json.organization',
	},
	dealFieldsNote: "The deal's fields as its intake read them from the CRM.",
	recorded: {
		name: 'Finish Later',
		...callWorkflow({ __rl: true, mode: 'id', value: '={{ $workflow.id }}' }, false),
		notes:
			"Starts a run of this workflow with the deal's row, and does not wait for it: the intake gets its answer now, and the deal is finished in that run.",
	},
	recordedEndsWith: {
		name: 'Deal Taken',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		notes:
			"Answers the intake with the deal's row, as new items: Finish Later gives out the list its run was started with, which n8n 1.x empties when the intake's Contract Engine sends what it got to an output (n8n-core's handleNodeErrorOutput), and that run would find no deal.",
		parameters: {
			mode: 'manual',
			assignments: { assignments: [] },
			includeOtherFields: true,
			options: {},
		},
	},
	keysToCrm: {
		name: 'Send Keys',
		...callWorkflow(theIntake, true),
		notes:
			"Calls the deal's intake with its row, now with the contract's key: the intake gives the keys to its CRM. If the CRM refuses them or cannot be reached, Every 10 Minutes sends them again.",
	},
};

/**
 * The step an intake's CRM errors go to: it gives the error back to the engine as the CRM's node
 * put it out (an object from the HTTP Request node, text from Pipedrive's, HubSpot's and
 * Salesforce's), and nothing else. n8n then puts it on the engine step's error output with the
 * deal's row (n8n-core's `handleNodeErrorOutput`), where What Failed reads it.
 */
function crmFailed(id: string, position: [number, number]): WorkflowNode {
	return {
		id,
		name: 'CRM Failed',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position,
		notes:
			"Gives the CRM's error back to the engine as it came, and nothing else: the engine tells a busy or unreachable CRM from a refusal by it, and tries again at its next sweep.",
		parameters: {
			assignments: { assignments: [] },
			includeOtherFields: true,
			include: 'selected',
			includeFields: 'error',
			options: {},
		},
	};
}

/** The Contract Engine step of an intake: the won deal given to the engine, which answers once it is recorded. */
function contractEngine(id: string, position: [number, number], notes: string): WorkflowNode {
	return {
		id,
		name: 'Contract Engine',
		position,
		...callWorkflow(
			{ __rl: true, mode: 'list', value: ENGINE_ID, cachedResultName: ENGINE_NAME },
			true,
		),
		notes,
	};
}

/** The Webhook intake: the CRM's events to the engine, and the keys back to the CRM. */
export function webhookIntake(): Workflow {
	const id = (node: number) => nodeId(6, node);
	const step = (
		node: number,
		name: string,
		position: [number, number],
		rest: Omit<WorkflowNode, 'id' | 'name' | 'position'>,
	): WorkflowNode => ({ ...rest, id: id(node), name, position });
	const nodes: WorkflowNode[] = [
		step(1, 'Deal Won', [0, 0], {
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2.1,
			webhookId: '8b2e4f6a-1c3d-4e5f-9a7b-3d6c9e2f1a84',
			notes:
				'Your CRM posts here when a deal changes, as {"deal": {"id", "name", "status"}, "customer": {"id", "name", "email", "company"}}, with your secret in a header: n8n turns away a post without it before the workflow runs, so only your CRM can make contracts. Make the secret in Credential for Header Auth (a Name such as X-CRM-Secret and a long random Value) and give your CRM both. The CRM gets its answer from Deal Recorded, once the engine has the deal.',
			credentials: CRM_SECRET,
			parameters: {
				httpMethod: 'POST',
				path: 'crm-deal',
				authentication: 'headerAuth',
				responseMode: 'responseNode',
				options: {},
			},
		}),
		step(2, 'Deal Fields', [240, 0], {
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			notes:
				"Your CRM's fields: dealId and contractName (the deal's id and name), customerId (the id of the customer: one client per customer), the customer's fullname, email and organization, and status. Map each to what your CRM sends; leave intakeId as it is.",
			parameters: {
				assignments: {
					assignments: [
						['dealId', '$json.body.deal?.id'],
						['contractName', '$json.body.deal?.name'],
						['customerId', '$json.body.customer?.id'],
						['fullname', '$json.body.customer?.name'],
						['email', '$json.body.customer?.email'],
						['organization', '$json.body.customer?.company'],
						['status', '$json.body.deal?.status'],
						['intakeId', '$workflow.id'],
					].map(([name, value], index) => ({
						id: `${id(99)}-${index}`,
						name,
						value: `={{ ${value} }}`,
						type: 'string',
					})),
				},
				options: {},
			},
		}),
		step(3, 'Won?', [480, 0], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'Only a won deal goes on: set the value to the status your CRM gives a won deal. A deal won before and changed since goes on too, and the engine knows it: it already has its contract.',
			parameters: allOf(id(95), [ifCondition('={{ $json.status }}', stringEquals, 'won')]),
		}),
		{
			...contractEngine(
				id(4),
				[720, 0],
				`Gives the won deal to the engine: pick the workflow "${ENGINE_NAME}" you imported. It writes the deal to Won deals and answers; the client, the contract and the keys follow in a run of its own.`,
			),
			onError: 'continueErrorOutput',
		},
		step(5, 'Deal Recorded', [960, 0], {
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.1,
			notes:
				'Answers the CRM once the engine has the deal; a deal that is not a win is answered too, with nothing done. If the engine could not write it, Not Recorded answers instead.',
			parameters: { respondWith: 'noData', options: {} },
		}),
		step(11, 'Not Recorded', [960, 200], {
			type: 'n8n-nodes-base.respondToWebhook',
			typeVersion: 1.1,
			notes:
				"Answers the CRM with an error (HTTP 500) and the engine's message when the engine could not write the deal: the CRM can send it again.",
			parameters: {
				respondWith: 'json',
				responseBody: '={{ { message: $json.error } }}',
				options: { responseCode: 500 },
			},
		}),
		step(12, 'Engine Failed', [1200, 200], {
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			notes:
				"Fails the run with the engine's message, so that the Error Workflow tells you of the deal the engine could not take.",
			parameters: { errorMessage: '={{ $json.error }}' },
		}),
		whenCalled(
			'When Engine Calls',
			[6, 6],
			[0, 600],
			"The engine calls here with a deal's row: with its contractKey, to give the keys to the CRM.",
		),
		step(7, 'Keys?', [240, 600], {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			notes:
				'The engine asks for the keys to go to the CRM once the contract is made. It asks for details only of an intake whose Deal Fields give less than the customer: this one gives all.',
			parameters: allOf(id(94), [ifCondition('={{ $json.contractKey }}', notEmpty)]),
		}),
		step(8, 'Send Keys to CRM', [480, 500], {
			...SEND_KEYS_TO_CRM,
			onError: 'continueErrorOutput',
		}),
		crmFailed(id(10), [720, 600]),
		step(9, 'No Details', [480, 800], {
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			parameters: {
				errorMessage:
					"This intake reads nothing from the CRM: in its Deal Fields, map customerId to the id your CRM sends for the deal's customer.",
			},
		}),
	];
	const named = (names: string[]) => nodes.filter((node) => names.includes(node.name));
	return {
		id: 'csIntakeWebhook',
		name: 'Won deal intake (Webhook)',
		nodes: [
			...nodes,
			sticky(
				id(80),
				'Sticky Note',
				'## Your CRM\nYour CRM posts each changed deal to **Deal Won**, with your secret in a header. Map its fields in **Deal Fields**, say which status is won in **Won?**, and pick the engine in **Contract Engine**.',
				named([
					'Deal Won',
					'Deal Fields',
					'Won?',
					'Contract Engine',
					'Deal Recorded',
					'Not Recorded',
					'Engine Failed',
				]),
				4,
			),
			sticky(
				id(81),
				'Sticky Note1',
				"## The keys, back to your CRM\nThe engine calls **When Engine Calls** once a deal's contract is made. Put your CRM's address in **Send Keys to CRM**.",
				named(['When Engine Calls', 'Keys?', 'Send Keys to CRM', 'CRM Failed', 'No Details']),
				6,
			),
		],
		connections: {
			'Deal Won': { main: [to('Deal Fields')] },
			'Deal Fields': { main: [to('Won?')] },
			'Won?': { main: [to('Contract Engine')] },
			'Contract Engine': { main: [to('Deal Recorded'), to('Not Recorded')] },
			'Not Recorded': { main: [to('Engine Failed')] },
			'When Engine Calls': { main: [to('Keys?')] },
			'Keys?': { main: [to('Send Keys to CRM'), to('No Details')] },
			'Send Keys to CRM': { main: [[], to('CRM Failed')] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: { 'Deal Won': [{ json: TEST_EVENT }] },
	};
}

/** What a CRM's intake is made of, beside its CRM's head. */
interface Intake {
	id: string;
	name: string;
	/** The intake's number, for its steps' ids. */
	number: number;
	/** The webhook ids its triggers get: new ones, so that the intake and the example can both be imported. */
	webhookIds: string[];
	sticky: string;
	readSticky: string;
}

/**
 * A CRM's intake, made of the CRM's head: its trigger (and Won?, where the event tells) gives the
 * deal's id to the engine; the engine calls back **Deal** with the deal's row, to read the deal
 * from the CRM (the head's lookups, ending in Deal Fields) or, with its contractKey, to give the
 * CRM the keys. The callback is named Deal so that the head's `$('Deal')` references read the row.
 */
function crmIntake(head: CrmSide, intake: Intake): Workflow {
	let counter = 1;
	const id = () => nodeId(intake.number, counter++);
	const at = (x: number, y: number): [number, number] => [x * 240, y];
	let webhooks = 0;
	const triggers = head.steps.map((step) => ({
		...step,
		id: id(),
		...(step.webhookId ? { webhookId: intake.webhookIds[webhooks++] } : {}),
	}));
	const last = Math.max(...triggers.map((step) => step.position[0])) / 240;
	const dealId: WorkflowNode = {
		id: id(),
		name: 'Deal Id',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: at(last + 1, 0),
		notes:
			"The deal's id as the event gives it, and this workflow's id, which the engine calls back to read the deal and to give the keys.",
		parameters: {
			assignments: {
				assignments: [
					['dealId', head.dealId],
					['intakeId', '$workflow.id'],
				].map(([name, value], index) => ({
					id: `${nodeId(intake.number, 99)}-${index}`,
					name,
					value: `={{ ${value} }}`,
					type: 'string',
				})),
			},
			options: {},
		},
	};
	const engine = contractEngine(
		id(),
		at(last + 2, 0),
		`Gives the deal to the engine: pick the workflow "${ENGINE_NAME}" you imported. It writes the deal to Won deals; it calls Deal back to read it and, once the contract is made, to give the keys.`,
	);
	const callback = whenCalled(
		'Deal',
		[intake.number, counter++],
		at(0, 500),
		"The engine calls here with a deal's row: without a contractKey, to read the deal from the CRM; with it, to give the keys to the CRM.",
	);
	const keys: WorkflowNode = {
		id: id(),
		name: 'Keys?',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position: at(1, 500),
		notes:
			'The engine asks for the keys to go to the CRM once the contract is made, and before that for the deal as the CRM has it.',
		parameters: allOf(nodeId(intake.number, 94), [
			ifCondition('={{ $json.contractKey }}', notEmpty),
		]),
	};
	const keysToCrm: WorkflowNode = {
		...head.keysToCrm,
		id: id(),
		position: at(2, 400),
		onError: 'continueErrorOutput',
	};
	const reads = head.reads.steps.map((step) => ({
		...step,
		id: id(),
		position: at(2 + step.position[0], 700 + step.position[1]),
	}));
	const afterReads = 3 + Math.max(...head.reads.steps.map((step) => step.position[0]));
	const dealFields: WorkflowNode = {
		id: id(),
		name: 'Deal Fields',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: at(afterReads, 700),
		notes: `${head.dealFieldsNote} These fields go back to the engine. They read the CRM's steps as shipped: change a value only to read another of your CRM's fields.`,
		parameters: {
			assignments: {
				assignments: Object.entries(head.fields).map(([name, value], index) => ({
					id: `${nodeId(intake.number, 98)}-${index}`,
					name,
					value: `={{ ${value} }}`,
					type: 'string',
				})),
			},
			options: {},
		},
	};
	const notWon: WorkflowNode[] = reads.some((step) => step.name === 'Won?')
		? [
				{
					id: id(),
					name: 'Not Won',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: at(afterReads, 900),
					notes: 'Tells the engine the CRM says the deal is not won: the engine deletes its row.',
					parameters: {
						assignments: {
							assignments: [
								{
									id: `${nodeId(intake.number, 97)}-0`,
									name: 'won',
									value: false,
									type: 'boolean',
								},
							],
						},
						options: {},
					},
				},
			]
		: [];
	const failed = crmFailed(id(), at(afterReads + 1, 400));
	const nodes = [
		...triggers,
		dealId,
		engine,
		callback,
		keys,
		keysToCrm,
		...reads,
		dealFields,
		...notWon,
		failed,
	];
	const named = (names: string[]) => nodes.filter((node) => names.includes(node.name));
	const top = [...triggers.map((step) => step.name), 'Deal Id', 'Contract Engine'];
	return {
		id: intake.id,
		name: intake.name,
		nodes: [
			...nodes,
			sticky(nodeId(intake.number, 80), 'Sticky Note', intake.sticky, named(top), 4),
			sticky(
				nodeId(intake.number, 81),
				'Sticky Note1',
				intake.readSticky,
				nodes.filter((node) => !top.includes(node.name)),
				6,
			),
		],
		connections: {
			...head.connections,
			'Deal Id': { main: [to('Contract Engine')] },
			Deal: { main: [to('Keys?')] },
			'Keys?': { main: [to(head.keysToCrm.name), to(reads[0].name)] },
			[head.keysToCrm.name]: { main: [[], to('CRM Failed')] },
			...head.reads.connections,
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

const PIPEDRIVE_INTAKE = crmIntake(PIPEDRIVE, {
	id: 'csIntakePipedrive',
	name: 'Won deal intake (Pipedrive)',
	number: 7,
	webhookIds: ['4e7b1d9c-6a2f-4c8e-b5d3-9f0a2e6c1b74'],
	sticky:
		'## Pipedrive\n**Pipedrive Trigger** hears each deal added or changed; **Won?** lets a new win through to the engine. Pick the engine in **Contract Engine**.',
	readSticky:
		'## Read from Pipedrive, and the keys back\nThe engine calls **Deal** to read the deal, its person and its organization (**Deal Fields** says which of their fields it gets), and once the contract is made, to put the keys on the deal (**Note on Deal**). A read or a write that fails goes back to the engine, which tries again every 10 minutes.',
});

const HUBSPOT_INTAKE = crmIntake(HUBSPOT, {
	id: 'csIntakeHubspot',
	name: 'Won deal intake (HubSpot)',
	number: 8,
	webhookIds: ['5f8c2e0d-7b3a-4d9f-a6e4-0a1b3f7d2c85'],
	sticky:
		"## HubSpot\n**HubSpot Trigger** hears each deal created and each change of a deal's stage; each goes to the engine, won or not yet known. Pick the engine in **Contract Engine**.",
	readSticky:
		'## Read from HubSpot, and the keys back\nThe engine calls **Deal** to read the deal, its contact and its company (**Deal Fields** says which of their fields it gets; a deal not won answers **Not Won**), and once the contract is made, to write the keys on the deal (**Keys on Deal**). A read or a write that fails goes back to the engine, which tries again every 10 minutes.',
});

const SALESFORCE_INTAKE = crmIntake(SALESFORCE, {
	id: 'csIntakeSalesforce',
	name: 'Won opportunity intake (Salesforce)',
	number: 9,
	webhookIds: [],
	sticky:
		'## Salesforce\nThe two triggers ask Salesforce every minute for the opportunities changed and created; each goes to the engine, won or not yet known. Pick the engine in **Contract Engine**.',
	readSticky:
		'## Read from Salesforce, and the keys back\nThe engine calls **Deal** to read the opportunity with its account and primary contact (**Deal Fields** says which of their fields it gets; one not won answers **Not Won**), and once the contract is made, to add a note with the keys (**Note on Opportunity**). A read or a write that fails goes back to the engine, which tries again every 10 minutes.',
});

/** The engine's file under examples/ and its workflow. */
export function dealExampleFiles(): Array<{ file: string; workflow: Workflow }> {
	return [{ file: ENGINE.file, workflow: dealExample(ENGINE) }];
}

/** Each intake's file under examples/ and its workflow. */
export function intakeFiles(): Array<{ file: string; workflow: Workflow }> {
	return [
		{ file: 'intake-webhook.json', workflow: webhookIntake() },
		{ file: 'intake-pipedrive.json', workflow: PIPEDRIVE_INTAKE },
		{ file: 'intake-hubspot.json', workflow: HUBSPOT_INTAKE },
		{ file: 'intake-salesforce.json', workflow: SALESFORCE_INTAKE },
	];
}

/** The file's text as the examples are written: tabs, a final line break. */
export const exampleText = (workflow: Workflow) => `${JSON.stringify(workflow, null, '\t')}\n`;
