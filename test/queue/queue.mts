/**
 * The package in n8n's queue mode: Redis, PostgreSQL, an n8n main instance and two workers, each
 * with the packed package installed as a community package in its own user folder.
 *
 * Sends many CRM contacts to the answer workflow (test/e2e/workflows/contact-answer.json) from
 * concurrent senders, kills one worker by its PID with SIGKILL while it holds executions, waits
 * until n8n has settled every execution, then checks at the stand-in service that each contact got
 * exactly one client and one contract, and in n8n what became of the executions the killed worker
 * held. Then, with a worker started in place of the killed one, posts contacts twice each to the
 * once workflow, test/e2e/workflows/contact-once.json (once.mts), and checks that each got one
 * client and one contract.
 *
 *   npm run test:queue
 *   npm run test:queue -- --contacts 500 --senders 20 --latency 20 --concurrency 10
 *   npm run test:queue -- --database sqlite   # main and workers sharing one SQLite file
 *
 * Ends with the line `queue: N passed, M failed` (`queue@n8n-1.x: …` with
 * CONTRACT_SIGNING_N8N=1.x). PostgreSQL 17 comes from an npm package; redis-server from PATH or,
 * unpacked into .cache/redis/, from Debian's package (services.mts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
	createN8nHome,
	crmSecretCredential,
	importCredential,
	importCredentials,
	smtpCredential,
	importWorkflows,
	ownerSession,
	packPackage,
	publishInN8n,
	readTestWorkflow,
	removeN8nHome,
	restJson,
	startN8n,
	type ExampleWorkflow,
	type N8nHome,
	type RestSession as Rest,
	type RunningN8n,
	postToWebhook,
} from '../e2e/n8n-instance.mts';
import { ensureN8n, N8N_LINE_UNDER_TEST } from '../e2e/n8n-runtime.mts';
import { createDeliveriesTable, onceExampleFor } from '../e2e/once-example.mts';
import { startRecorder, type Recorder } from '../service/recorder.mts';
import { startSmtpStandIn, type SmtpStandIn } from '../service/smtp.mts';
import {
	startStandIn,
	type ClientRecord,
	type ContractRecord,
	type StandIn,
} from '../service/stand-in.mts';
import { phaseTime } from '../summary-line-reporter.mts';
import {
	descendantPids,
	executionDetail,
	isAlive,
	queueModeEnv,
	readLogFile,
	startWorker,
	workerExecutions,
	withEnv,
	type Database,
	type ExecutionDetail,
	type LogEntry,
	type RunningWorker,
} from './n8n-queue.mts';
import { dealsInQueueMode, type DealAtService, type DealsOutcome } from './deals.mts';
import { deliverEachTwice, type OnceContact, type OnceOutcome } from './once.mts';
import { blowStorm, describeStorm } from './storm.mts';
import {
	ensureRedis,
	postgresAccount,
	startPostgres,
	startRedis,
	type ServiceProcess,
} from './services.mts';

const WEBHOOK_WORKFLOW_ID = 'csCrmContactToContract';
const WEBHOOK_EXAMPLE = readTestWorkflow('contact-answer.json');
const WEBHOOK_PATH = '/webhook/crm-contact';
/** Longer than n8n takes to give up on a job whose worker died (lock 60 s + stall check 30 s + 30 s). */
const ANSWER_TIMEOUT_MS = 300_000;
const SETTLE_TIMEOUT_MS = 300_000;
/** Contacts posted twice each to the once workflow once the load has settled. */
const ONCE_CONTACTS = 12;
/** The CRM's bulk change at the end: contacts posted at once, the service allowing a few a second. */
const STORM = { contacts: 100, perSecond: 4 };
const FINAL_STATUSES = new Set(['success', 'error', 'crashed', 'canceled']);

interface Options {
	contacts: number;
	senders: number;
	latencyMs: number;
	concurrency: number;
	/** Share of the contacts answered before a worker is killed. */
	killAt: number;
	database: Database['kind'];
}

type NumericOption = Exclude<keyof Options, 'database'>;

const NUMERIC_FLAGS: Record<string, NumericOption> = {
	'--contacts': 'contacts',
	'--senders': 'senders',
	'--latency': 'latencyMs',
	'--concurrency': 'concurrency',
	'--kill-at': 'killAt',
};

function parseOptions(argv: string[]): Options {
	const options: Options = {
		contacts: 500,
		senders: 20,
		latencyMs: 20,
		concurrency: 10,
		killAt: 0.4,
		database: 'postgres',
	};
	for (let index = 0; index < argv.length; index += 2) {
		const [flag, value] = [argv[index], argv[index + 1]];
		if (value === undefined) throw new Error(`missing value for ${flag}`);
		if (flag === '--database') {
			if (value !== 'postgres' && value !== 'sqlite') {
				throw new Error('--database must be postgres or sqlite');
			}
			options.database = value;
			continue;
		}
		const key = NUMERIC_FLAGS[flag];
		const number = Number(value);
		if (!key) throw new Error(`unknown option ${flag}`);
		if (!Number.isFinite(number) || number <= 0)
			throw new Error(`${flag} must be a positive number`);
		options[key] = number;
	}
	return options;
}

const scenarioStartedAt = Date.now();
const elapsed = () => `${((Date.now() - scenarioStartedAt) / 1000).toFixed(1).padStart(6)} s`;
const progress = (line: string) => process.stdout.write(`[${elapsed()}] ${line}\n`);

interface Check {
	name: string;
	passed: boolean;
	detail?: string;
}

const checks: Check[] = [];

function check(name: string, passed: boolean, detail?: string): void {
	checks.push({ name, passed, detail });
	process.stdout.write(`${passed ? '✓' : '✗'} ${name}${detail ? ` (${detail})` : ''}\n`);
}

interface Contact {
	name: string;
	email: string;
	company: string;
	crmId: string;
}

interface Answer {
	contact: Contact;
	/** HTTP status, or undefined when no HTTP answer came (network error, timeout). */
	status?: number;
	body: string;
	error?: string;
	sentAt: number;
	answeredAt: number;
}

interface KeysAnswer {
	clientKey?: string;
	userKey?: string;
	contractKey?: string;
}

function makeContacts(count: number): Contact[] {
	const width = String(count).length;
	return Array.from({ length: count }, (_, index) => {
		const number = String(index + 1).padStart(width, '0');
		return {
			name: `Contact ${number}`,
			email: `contact${number}@example.com`,
			company: `Company ${number}`,
			crmId: `crm-${number}`,
		};
	});
}

async function sendContact(url: string, contact: Contact): Promise<Answer> {
	const sentAt = Date.now();
	try {
		const response = await postToWebhook(`${url}${WEBHOOK_PATH}`, contact, {
			signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
		});
		const body = await response.text();
		return { contact, status: response.status, body, sentAt, answeredAt: Date.now() };
	} catch (error) {
		const cause = (error as Error & { cause?: Error }).cause;
		return {
			contact,
			body: '',
			error: cause ? `${(error as Error).message}: ${cause.message}` : (error as Error).message,
			sentAt,
			answeredAt: Date.now(),
		};
	}
}

function isOkAnswer(answer: Answer): boolean {
	if (answer.status !== 200) return false;
	try {
		const keys = JSON.parse(answer.body) as KeysAnswer;
		return Boolean(keys.clientKey && keys.contractKey);
	} catch {
		return false;
	}
}

interface ExecutionSummary {
	id: string;
	status: string;
	finished: boolean;
	mode: string;
	retryOf?: string | null;
	retrySuccessId?: string | null;
	startedAt?: string | null;
	stoppedAt?: string | null;
}

interface ExecutionPage {
	results: ExecutionSummary[];
	nextCursor: string | null;
}

/**
 * Every execution of the workflow, through the REST API of the editor's execution list. Its
 * pages are sorted by start time, but each next page only holds ids below the last row's, which
 * skips executions that started out of id order; those gaps are filled one by one.
 */
async function listExecutions(rest: Rest): Promise<ExecutionSummary[]> {
	const filter = JSON.stringify({ workflowId: WEBHOOK_WORKFLOW_ID });
	const byId = new Map<number, ExecutionSummary>();
	let cursor: string | null = null;
	do {
		const query: URLSearchParams = new URLSearchParams({ filter, limit: '100' });
		if (cursor) query.set('cursor', cursor);
		const page: ExecutionPage = await restJson<ExecutionPage>(rest, `/rest/executions?${query}`);
		for (const execution of page.results) byId.set(Number(execution.id), execution);
		cursor = page.nextCursor;
	} while (cursor);
	const highest = Math.max(0, ...byId.keys());
	for (let id = 1; id < highest; id++) {
		if (byId.has(id)) continue;
		const response = await rest(`/rest/executions/${id}`);
		if (response.ok) byId.set(id, ((await response.json()) as { data: ExecutionSummary }).data);
	}
	return [...byId.values()];
}

function inFlight(entries: LogEntry[]): string[] {
	const executions = workerExecutions(entries);
	return [...executions.started].filter(
		(id) => !executions.succeeded.has(id) && !executions.failed.has(id),
	);
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
	return counts;
}

function formatCounts(counts: Record<string, number>): string {
	const entries = Object.entries(counts);
	return entries.length === 0
		? 'none'
		: entries.map(([key, count]) => `${key} ${count}`).join(', ');
}

interface Services {
	main: RunningN8n;
	rest: Rest;
	survivor: RunningWorker;
	victim: RunningWorker;
	/** Where a worker started in place of the killed one gets its user folder. */
	victimHome: N8nHome;
	service: StandIn;
	/** The CRM the once example writes the keys back to. */
	crm: Recorder;
	/** The mail server the contract engine tells a person through. */
	smtp: SmtpStandIn;
	onceExample: ExampleWorkflow;
	mainHome: N8nHome;
	database: Database;
}

/** Redis, the database, the stand-in, main and two workers; each stop is registered at once. */
async function startServices(
	options: Options,
	workDir: string,
	stops: Array<() => Promise<void> | void>,
	homes: N8nHome[],
): Promise<Services> {
	progress('packing the package…');
	const tarball = await packPackage();
	stops.push(() => rmSync(dirname(tarball), { recursive: true, force: true }));
	const runtime = await ensureN8n({ log: progress });

	const redis: ServiceProcess = await startRedis(
		await ensureRedis(progress),
		join(workDir, 'redis'),
	);
	stops.push(redis.stop);
	progress(`redis-server on 127.0.0.1:${redis.port} (pid ${redis.pid})`);

	let database: Database = { kind: 'sqlite' };
	if (options.database === 'postgres') {
		const server = await startPostgres(postgresAccount(), join(workDir, 'postgres'));
		stops.push(server.stop);
		database = { kind: 'postgres', port: server.port };
		progress(`PostgreSQL on 127.0.0.1:${server.port} (pid ${server.pid})`);
	}

	const service = await startStandIn({
		apiKey: `sk_queue_${randomBytes(8).toString('hex')}`,
		latencyMs: options.latencyMs,
	});
	stops.push(() => service.close());
	progress(`stand-in service on ${service.url}, latency ${options.latencyMs} ms`);

	// Each process gets its own user folder with the package, as separate machines would;
	// with SQLite all three share one folder, since the database file lives there.
	const sharedEnv = queueModeEnv(redis.port, database);
	const newHome = async () => {
		const home = withEnv(await createN8nHome(runtime, tarball), sharedEnv);
		homes.push(home);
		return home;
	};
	const mainHome = await newHome();
	const workerHomes =
		database.kind === 'sqlite' ? [mainHome, mainHome] : [await newHome(), await newHome()];

	const crm = await startRecorder();
	stops.push(() => crm.close());
	const smtp = await startSmtpStandIn();
	stops.push(() => smtp.close());
	progress('importing the credentials…');
	await importCredential(mainHome, { baseUrl: service.url, apiKey: service.apiKey });
	await importCredentials(mainHome, [crmSecretCredential(), smtpCredential(smtp)]);

	progress('starting the n8n main instance in queue mode…');
	const main = await startN8n(mainHome);
	stops.push(main.stop);
	const rest = await ownerSession(main.url);
	progress(`main on ${main.url} (pid ${main.pid})`);

	// A data table exists only in a running n8n; the once example names it, so it comes after.
	progress(
		'making the data table the once example records deliveries in, importing and publishing both examples…',
	);
	const onceExample = onceExampleFor(crm.url, await createDeliveriesTable(rest));
	await importWorkflows(mainHome, [WEBHOOK_EXAMPLE, onceExample]);
	await publishInN8n(rest, WEBHOOK_WORKFLOW_ID);
	await publishInN8n(rest, onceExample.id);

	progress('starting two workers…');
	const [survivor, victim] = await Promise.all(
		workerHomes.map(async (home, index) => {
			const worker = await startWorker(home, `worker-${index + 1}`, options.concurrency);
			stops.push(worker.stop);
			progress(`${worker.name} ready (pid ${worker.pid})`);
			return worker;
		}),
	);
	return {
		main,
		mainHome,
		database,
		rest,
		survivor,
		victim,
		victimHome: workerHomes[1],
		service,
		crm,
		smtp,
		onceExample,
	};
}

interface Kill {
	at: number;
	answered: number;
	/** Executions the worker's log shows as started and not finished. */
	startedByLog: string[];
	/** Its task runner and any other child processes, which SIGKILL does not reach. */
	childPids: number[];
}

interface LoadResult {
	answers: Answer[];
	startedAt: number;
	endedAt: number;
	kill?: Kill;
	/** The contact each unfinished execution carried when the worker was killed. */
	contactOfExecution: Map<string, string>;
	statusAtKill: Map<string, string>;
}

/** Sends every contact from concurrent senders; kills the victim once it holds executions. */
async function runLoad(options: Options, services: Services): Promise<LoadResult> {
	const { main, rest, victim, service } = services;
	const contacts = makeContacts(options.contacts);
	const result: LoadResult = {
		answers: [],
		startedAt: Date.now(),
		endedAt: 0,
		contactOfExecution: new Map(),
		statusAtKill: new Map(),
	};
	const { answers } = result;
	const killAfter = Math.ceil(options.contacts * options.killAt);
	let nextContact = 0;

	progress(
		`sending ${contacts.length} contacts to ${main.url}${WEBHOOK_PATH} from ${options.senders} senders…`,
	);
	const reporter = setInterval(() => {
		const counts = service.counts();
		progress(
			`answered ${answers.length}/${contacts.length} (${answers.filter(isOkAnswer).length} OK); ` +
				`stand-in: ${counts.clients} clients, ${counts.contracts} contracts`,
		);
	}, 5000);
	const sender = async () => {
		while (nextContact < contacts.length) {
			const contact = contacts[nextContact++];
			answers.push(await sendContact(main.url, contact));
		}
	};
	const killer = async () => {
		while (answers.length < killAfter || inFlight(victim.entries).length === 0) {
			if (answers.length === contacts.length) return;
			await sleep(20);
		}
		const childPids = descendantPids(victim.pid);
		process.kill(victim.pid, 'SIGKILL');
		result.kill = {
			at: Date.now(),
			answered: answers.length,
			startedByLog: inFlight(victim.entries),
			childPids,
		};
		progress(
			`killed ${victim.name} (pid ${victim.pid}) with SIGKILL after ${answers.length} answers; ` +
				`its log shows executions ${result.kill.startedByLog.join(', ')} in progress`,
		);
		// n8n replaces the data of an execution it gives up on, contact included: note now which
		// contact each unfinished execution carries.
		for (const execution of await listExecutions(rest)) {
			if (FINAL_STATUSES.has(execution.status)) continue;
			result.statusAtKill.set(execution.id, execution.status);
			const { crmId } = await executionDetail(rest, execution.id).catch(() => ({
				crmId: undefined,
			}));
			if (crmId) result.contactOfExecution.set(execution.id, crmId);
		}
		progress(`right after the kill, n8n had ${result.statusAtKill.size} executions new or running`);
	};
	try {
		await Promise.all([...Array.from({ length: options.senders }, sender), killer()]);
	} finally {
		clearInterval(reporter);
	}
	result.endedAt = Date.now();
	progress(
		`all ${answers.length} requests answered, ${seconds(result.endedAt - result.startedAt)} s after the first`,
	);
	return result;
}

/** Waits until no execution of the workflow is new or running; returns those that still are. */
async function settle(rest: Rest): Promise<ExecutionSummary[]> {
	progress('waiting until n8n has no execution left that is new or running…');
	const startedAt = Date.now();
	for (;;) {
		const unsettled = (await listExecutions(rest)).filter(
			(execution) => !FINAL_STATUSES.has(execution.status),
		);
		if (unsettled.length === 0 || Date.now() - startedAt > SETTLE_TIMEOUT_MS) return unsettled;
		await sleep(2000);
	}
}

interface ContactAtService {
	contact: Contact;
	clients: ClientRecord[];
	contracts: ContractRecord[];
}

function contactsAtService(contacts: Contact[], service: StandIn): ContactAtService[] {
	const clientsByCrmId = new Map<string, ClientRecord[]>();
	for (const client of service.clients()) {
		const key = client.customKey ?? '';
		clientsByCrmId.set(key, [...(clientsByCrmId.get(key) ?? []), client]);
	}
	const contracts = service.contracts();
	return contacts.map((contact) => {
		const clients = clientsByCrmId.get(contact.crmId) ?? [];
		const clientKeys = new Set(clients.map((client) => client.clientKey));
		return {
			contact,
			clients,
			contracts: contracts.filter((contract) => clientKeys.has(contract.clientKey)),
		};
	});
}

function answeredKeysMatch(answer: Answer, entry: ContactAtService): boolean {
	const keys = JSON.parse(answer.body) as KeysAnswer;
	const [client] = entry.clients;
	const [contract] = entry.contracts;
	return (
		entry.clients.length === 1 &&
		entry.contracts.length === 1 &&
		client.clientKey === keys.clientKey &&
		client.users[0]?.userKey === keys.userKey &&
		contract.contractKey === keys.contractKey
	);
}

const PHASE_STARTED_AT = Date.now();

async function main(): Promise<void> {
	const options = parseOptions(process.argv.slice(2));

	// Ctrl-C or a CI timeout: exit, so that the 'exit' handlers kill every process started here.
	for (const signal of ['SIGINT', 'SIGTERM'] as const)
		process.once(signal, () => process.exit(130));

	progress(
		`scenario: ${options.contacts} contacts, ${options.senders} concurrent senders, ` +
			`2 workers with concurrency ${options.concurrency}, database ${options.database}`,
	);
	const workDir = mkdtempSync(join(tmpdir(), 'contract-signing-queue-'));
	// The postgres account must reach its cluster folder inside.
	chmodSync(workDir, 0o755);
	const stops: Array<() => Promise<void> | void> = [];
	const homes: N8nHome[] = [];
	let keepFiles = false;
	try {
		const services = await startServices(options, workDir, stops, homes);
		const { main, rest, survivor, victim, service } = services;
		check('main and both workers started in queue mode with the package installed', true);

		const load = await runLoad(options, services);
		const { answers, kill } = load;
		const unsettled = await settle(rest);
		const settledAt = Date.now();
		progress(
			unsettled.length === 0
				? `settled ${seconds(settledAt - load.endedAt)} s after the last answer`
				: `${unsettled.length} executions still new or running after ${SETTLE_TIMEOUT_MS / 1000} s`,
		);

		// Nothing changes any more: read what n8n, the workers and the service did.
		const executions = await listExecutions(rest);

		const survivorRuns = workerExecutions(survivor.entries);
		const victimRuns = workerExecutions(victim.entries);
		const finishedByAWorker = new Set([
			...survivorRuns.succeeded,
			...survivorRuns.failed,
			...victimRuns.succeeded,
			...victimRuns.failed,
		]);
		// No worker reported these finished: the jobs the killed worker had taken from the queue.
		const held = executions.filter((execution) => !finishedByAWorker.has(execution.id));
		const heldDetails = await Promise.all(
			held.map((execution) => executionDetail(rest, execution.id)),
		);
		// n8n keeps the data of executions that succeeded; for the others, the contact noted at the kill.
		const contactOf = (id: string) =>
			heldDetails.find((detail) => detail.id === id)?.crmId ?? load.contactOfExecution.get(id);

		// Taken before the once example adds clients and requests of its own.
		const loadCounts = service.counts();
		const loadRequests = service.requests.length;
		const loadPeak = peakRequestsPerSecond(service);
		progress(`starting worker-3 in place of ${victim.name}, for the once example…`);
		const replacement = await startWorker(services.victimHome, 'worker-3', options.concurrency);
		stops.push(replacement.stop);
		progress(`posting ${ONCE_CONTACTS} contacts twice each to the once example…`);
		const onceSetting = {
			mainUrl: main.url,
			rest,
			service,
			crm: services.crm,
			example: services.onceExample,
			workers: [survivor, replacement],
		};
		let once = await deliverEachTwice(onceSetting, ONCE_CONTACTS);
		// Which worker takes a run is Redis's choice: when no contact's two runs went to different
		// workers, as can happen, once more with other contacts, so that the check has a case.
		if (!once.contacts.some((contact) => new Set(contact.workers).size > 1)) {
			progress(`no contact ran on both workers: ${ONCE_CONTACTS} more contacts, twice each…`);
			const runsBefore = Object.values(once.statuses).reduce((sum, count) => sum + count, 0);
			const more = await deliverEachTwice(onceSetting, ONCE_CONTACTS, 2, runsBefore);
			once = {
				...more,
				contacts: [...once.contacts, ...more.contacts],
				sameInstant: once.sameInstant,
			};
		}
		progress(
			`posting ${STORM.contacts} contacts at once, the service allowing ${STORM.perSecond} requests/s…`,
		);
		const storm = await blowStorm(
			`${main.url}${WEBHOOK_PATH}`,
			service,
			STORM.contacts,
			STORM.perSecond,
		);
		progress(
			'the contract engine with its Webhook intake: deals posted several times at once, then a worker killed during Create Client…',
		);
		const deals = await dealsInQueueMode({
			mainUrl: main.url,
			mainHome: services.mainHome,
			rest,
			database: services.database,
			service,
			crm: services.crm,
			smtp: services.smtp,
			workers: [survivor, replacement],
		});
		await replacement.stop();
		await survivor.stop();
		await main.stop();
		const strayChildren = (kill?.childPids ?? []).filter(isAlive);
		for (const pid of strayChildren) process.kill(pid, 'SIGKILL');
		const failed = executions.filter((execution) => execution.status !== 'success');
		const retries = executions.filter((execution) => execution.retryOf);
		const runTwice = [...victimRuns.started].filter((id) => survivorRuns.started.has(id));
		const failedContacts = new Set(failed.map((execution) => contactOf(execution.id)));
		const survivorAfterKill = [...survivorRuns.finishedAt.values()].filter(
			(timestamp) => kill !== undefined && timestamp > kill.at,
		).length;
		const mainLog = readLogFile(main.logFile);
		const gaveUpLines = mainLog.filter((entry) =>
			/^Problem with execution/.test(entry.message ?? ''),
		);
		const webhookLines = mainLog.filter((entry) =>
			/failed before a response was sent/.test(entry.message ?? ''),
		);

		const contacts = answers.map((answer) => answer.contact);
		const atService = contactsAtService(contacts, service);
		const entryOf = new Map(atService.map((entry) => [entry.contact.crmId, entry]));
		const okAnswers = answers.filter(isOkAnswer);
		const errorAnswers = answers.filter(
			(answer) => answer.status !== undefined && !isOkAnswer(answer),
		);
		const unanswered = answers.filter((answer) => answer.status === undefined);
		const okMismatches = okAnswers.filter(
			(answer) => !answeredKeysMatch(answer, entryOf.get(answer.contact.crmId)!),
		);
		const duplicates = atService.filter(
			(entry) => entry.clients.length > 1 || entry.contracts.length > 1,
		);
		const missing = atService.filter(
			(entry) => entry.clients.length === 0 || entry.contracts.length === 0,
		);
		const notOk = [...errorAnswers, ...unanswered];
		const unaccounted = notOk.filter((answer) => !failedContacts.has(answer.contact.crmId));
		const failedButAnsweredOk = failed.filter((execution) => {
			const crmId = contactOf(execution.id);
			return okAnswers.some((answer) => answer.contact.crmId === crmId);
		});
		const doneButReportedFailed = notOk.filter(
			(answer) => entryOf.get(answer.contact.crmId)!.clients.length > 0,
		);

		process.stdout.write('\nchecks\n');
		check(
			'every request got an HTTP answer',
			unanswered.length === 0,
			unanswered.length ? `${unanswered.length} without, e.g. ${unanswered[0].error}` : undefined,
		);
		check(
			'both workers loaded the package and ran executions of it successfully',
			survivorRuns.succeeded.size > 0 && victimRuns.succeeded.size > 0,
			`${survivor.name} ${survivorRuns.succeeded.size}, ${victim.name} ${victimRuns.succeeded.size}`,
		);
		check(
			`${victim.name} was killed while it held executions`,
			kill !== undefined && held.length > 0,
			kill ? `${held.length} held` : 'it was never killed',
		);
		check(
			`${survivor.name} went on running executions after the kill`,
			survivorAfterKill > 0,
			`${survivorAfterKill} finished after the kill`,
		);
		check(
			'every contact answered OK has exactly one client and one contract, with the answered keys',
			okMismatches.length === 0,
			okMismatches.length
				? okMismatches.map((answer) => answer.contact.crmId).join(', ')
				: undefined,
		);
		check(
			'no contact has two clients or two contracts',
			duplicates.length === 0,
			duplicates.length ? duplicates.map((entry) => entry.contact.crmId).join(', ') : undefined,
		);
		check(
			'n8n recorded exactly one execution per request, none left new or running',
			executions.length === answers.length && unsettled.length === 0,
			`${executions.length} executions for ${answers.length} requests, ${unsettled.length} unsettled`,
		);
		// A held execution may have completed (and saved its success) just before the kill.
		const heldOutcomeIsFinal = (detail: ExecutionDetail) =>
			detail.status === 'error' ||
			detail.status === 'crashed' ||
			(detail.status === 'success' &&
				okAnswers.some((answer) => answer.contact.crmId === detail.crmId));
		check(
			`every execution ${victim.name} held is failed in n8n, or succeeded if it had completed`,
			held.length > 0 && heldDetails.every(heldOutcomeIsFinal),
			formatCounts(countBy(heldDetails, (detail) => detail.status)),
		);
		check(
			'every contact not answered OK has a failed execution in n8n',
			unaccounted.length === 0,
			`${notOk.length} not answered OK, ${failed.length} failed executions` +
				(unaccounted.length
					? `; without one: ${unaccounted.map((answer) => answer.contact.crmId).join(', ')}`
					: ''),
		);
		const onceWrong = once.contacts.filter(
			(contact) =>
				contact.clients !== 1 ||
				contact.contracts !== 1 ||
				contact.writeBacks !== 1 ||
				contact.workers.length !== 2,
		);
		check(
			`the once example: each of ${once.contacts.length} contacts posted twice has one client, one contract and one write-back`,
			onceWrong.length === 0,
			onceWrong.length ? onceWrong.map(describeOnceContact).join('; ') : undefined,
		);
		const acrossWorkers = once.contacts.filter((contact) => new Set(contact.workers).size > 1);
		check(
			'the once example: a second delivery run by the other worker was skipped too',
			acrossWorkers.length > 0 && acrossWorkers.every((contact) => contact.clients === 1),
			`${acrossWorkers.length} of ${once.contacts.length} contacts had their two runs on different workers`,
		);
		check(
			`the storm: each of ${STORM.contacts} contacts posted at once answered with its keys, one client and one contract`,
			storm.notAnsweredOk.length === 0 && storm.notOnce.length === 0,
			[
				storm.notAnsweredOk.length ? `not answered OK: ${storm.notAnsweredOk.join(', ')}` : '',
				storm.notOnce.length ? `not once: ${storm.notOnce.join(', ')}` : '',
			]
				.filter(Boolean)
				.join('; ') || undefined,
		);
		const notOnceDeals = deals.sameInstant.filter((deal) => !dealOnce(deal));
		check(
			`the contract engine with its Webhook intake: each deal posted several times at the same instant has one client, one contract, one row done and its keys sent once`,
			notOnceDeals.length === 0,
			notOnceDeals.map(describeDeal).join('; ') || undefined,
		);
		const notOnceOfMany = deals.customersAtOnce.deals.filter((deal) => !dealOnce(deal));
		check(
			`the contract engine with its Webhook intake: the won deals of ${deals.customersAtOnce.deals.length / 3} customers, 3 each, posted at the same instant: no run failed, one client per customer, one contract, one row done and the keys sent once per deal`,
			deals.customersAtOnce.failedRuns === 0 && notOnceOfMany.length === 0,
			`${deals.customersAtOnce.failedRuns} runs failed, ${deals.customersAtOnce.sweeps} sweep(s)` +
				(notOnceOfMany.length ? `; ${notOnceOfMany.map(describeDeal).join('; ')}` : ''),
		);
		check(
			`the contract engine with its Webhook intake: ${deals.killed.worker} killed during Create Client leaves the deal making client; the sweep marks it check and e-mails a person naming it; the README's fix finishes it once`,
			deals.killed.statuses.join() === 'making client,check' &&
				deals.killed.told.includes(
					`Deal ${deals.killed.after.dealId}: the service may have made its client`,
				) &&
				dealOnce(deals.killed.after),
			`${deals.killed.statuses.join(' → ')}; told "${deals.killed.told.slice(0, 160)}"; after the fix ${describeDeal(deals.killed.after)}`,
		);
		if (strayChildren.length > 0) {
			progress(`stopped ${strayChildren.length} child processes the killed worker left behind`);
		}

		const loadSeconds = (load.endedAt - load.startedAt) / 1000;
		const lastOkAt = Math.max(load.startedAt, ...okAnswers.map((answer) => answer.answeredAt));
		const describeHeld = (detail: ExecutionDetail) => {
			const crmId = contactOf(detail.id);
			const answer = answers.find((candidate) => candidate.contact.crmId === crmId);
			const entry = crmId ? entryOf.get(crmId) : undefined;
			return (
				`    execution ${detail.id}: ${statusAtKill(load, detail.id)} at the kill, now ${detail.status}` +
				`${victimRuns.started.has(detail.id) ? '' : ' (never logged as started)'}; ` +
				`contact ${crmId ?? '?'}; caller got ${describeAnswer(answer)}; ` +
				`service: ${entry ? `${entry.clients.length} client, ${entry.contracts.length} contract` : '?'}`
			);
		};
		const lines = [
			'',
			'summary',
			`  sent:                     ${answers.length} contacts from ${options.senders} concurrent senders`,
			`  answered OK:              ${okAnswers.length}`,
			`  answered with an error:   ${errorAnswers.length}` +
				(errorAnswers.length
					? ` (${formatCounts(countBy(errorAnswers, (answer) => `HTTP ${answer.status} ${answer.body.slice(0, 60)}`))})`
					: ''),
			`  not answered:             ${unanswered.length}`,
			`  clients created:          ${loadCounts.clients}`,
			`  contracts created:        ${loadCounts.contracts}`,
			`  duplicated:               ${duplicates.length} (contacts with more than one client or contract)` +
				(duplicates.length ? `: ${duplicates.map((entry) => entry.contact.crmId).join(', ')}` : ''),
			`  missing:                  ${missing.length} (contacts without client or contract)` +
				(missing.length ? `: ${missing.map((entry) => entry.contact.crmId).join(', ')}` : ''),
			`  failed, yet created:      ${doneButReportedFailed.length} (contacts answered with an error whose client the service has)` +
				(doneButReportedFailed.length
					? `: ${doneButReportedFailed.map((answer) => `${answer.contact.crmId}: ${entryOf.get(answer.contact.crmId)!.clients.length} client, ${entryOf.get(answer.contact.crmId)!.contracts.length} contract`).join('; ')}`
					: ''),
			`  failed, yet answered OK:  ${failedButAnsweredOk.length} (executions failed in n8n after Respond to Webhook had answered)` +
				(failedButAnsweredOk.length
					? `: ${failedButAnsweredOk.map((execution) => `${execution.id} (${contactOf(execution.id)})`).join(', ')}`
					: ''),
			`  n8n executions:           ${executions.length} (${formatCounts(countBy(executions, (execution) => execution.status))})`,
			`  executions per worker:    ${survivor.name} ran ${survivorRuns.succeeded.size} (${survivorAfterKill} after the kill), ` +
				`${victim.name} ran ${victimRuns.succeeded.size} before it was killed`,
			`  killed worker:            ${victim.name}, SIGKILL after ${kill?.answered ?? '-'} answers, ` +
				`holding ${held.length} executions (${held.filter((execution) => victimRuns.started.has(execution.id)).length} of them logged as started)`,
			...heldDetails.map(describeHeld),
			`  run again:                ${runTwice.length} of them started again on ${survivor.name}; ` +
				`${retries.length} executions in n8n are retries of another`,
			`  n8n's error on them:      ${[...new Set(heldDetails.map((detail) => detail.error ?? '-'))].join(' | ')}`,
			`  n8n main log:             ${gaveUpLines.length} "Problem with execution …: … Aborting.", ` +
				`${webhookLines.length} "Webhook execution failed before a response was sent"`,
			`  load:                     ${answers.length} requests in ${loadSeconds.toFixed(1)} s ` +
				`(${(answers.length / loadSeconds).toFixed(1)}/s); answer time median ${percentile(answers, 0.5)} ms, ` +
				`p95 ${percentile(answers, 0.95)} ms, max ${percentile(answers, 1)} ms`,
			`  throughput:               ${okAnswers.length} OK answers in ${seconds(lastOkAt - load.startedAt)} s ` +
				`(${(okAnswers.length / ((lastOkAt - load.startedAt) / 1000)).toFixed(1)} contacts/s); ` +
				`the service got ${loadRequests} requests, at most ${loadPeak} in one second`,
			`  settled:                  ${seconds(settledAt - load.endedAt)} s after the last answer, ` +
				`${kill ? seconds(settledAt - kill.at) : '-'} s after the kill`,
			describeOnce(once),
			describeStorm(storm),
			describeDeals(deals),
			`  wall time:                ${seconds(Date.now() - scenarioStartedAt)} s (setup, load, settling)`,
		];
		process.stdout.write(`${lines.join('\n')}\n`);
	} catch (error) {
		keepFiles = true;
		check('scenario ran to the end', false, (error as Error).stack ?? String(error));
	} finally {
		for (const stop of stops.reverse()) {
			try {
				await stop();
			} catch (error) {
				process.stdout.write(`could not stop a process: ${(error as Error).message}\n`);
			}
		}
		const failedChecks = checks.filter((entry) => !entry.passed).length;
		if (keepFiles || failedChecks > 0) {
			const folders = [workDir, ...new Set(homes.map((home) => home.userFolder))];
			process.stdout.write(`logs kept in: ${folders.join(' ')}\n`);
		} else {
			rmSync(workDir, { recursive: true, force: true });
			for (const home of homes) removeN8nHome(home);
		}
		const phase = N8N_LINE_UNDER_TEST ? `queue@n8n-${N8N_LINE_UNDER_TEST}` : 'queue';
		process.stdout.write(
			`\n${phase}: ${checks.length - failedChecks} passed, ${failedChecks} failed\n` +
				`${phase} took ${phaseTime(Date.now() - PHASE_STARTED_AT)}\n`,
		);
		process.exitCode = failedChecks > 0 ? 1 : 0;
	}
}

function dealOnce(deal: DealAtService): boolean {
	return (
		deal.clients === 1 &&
		deal.contracts === 1 &&
		deal.rows === 1 &&
		deal.status === 'done' &&
		deal.keysSent === 1
	);
}

function describeDeal(deal: DealAtService): string {
	return (
		`${deal.dealId}: ${deal.clients} clients, ${deal.contracts} contracts, ${deal.rows} rows (${deal.status}), ` +
		`keys sent ${deal.keysSent}${deal.workers.length ? `, run by ${deal.workers.join(' and ')}` : ''}`
	);
}

function describeDeals(deals: DealsOutcome): string {
	return [
		`  engine, at once:    ${deals.sameInstant.map(describeDeal).join('; ')}`,
		`  engine, customers:  ${deals.customersAtOnce.deals.length} deals of ${deals.customersAtOnce.deals.length / 3} customers at once: ` +
			`${deals.customersAtOnce.deals.filter(dealOnce).length} once, ${deals.customersAtOnce.failedRuns} runs failed, ${deals.customersAtOnce.sweeps} sweep(s)`,
		`  engine, killed:     ${deals.killed.worker} killed during Create Client; row ${deals.killed.statuses.join(' → ')}; ` +
			`after the fix ${describeDeal(deals.killed.after)}`,
	].join('\n');
}

function describeOnceContact(contact: OnceContact): string {
	return (
		`${contact.crmId} (again ${contact.again}): ${contact.clients} clients, ` +
		`${contact.contracts} contracts, ${contact.writeBacks} write-backs, ` +
		`runs on ${contact.workers.join(' and ') || 'no worker'}`
	);
}

function describeOnce(once: OnceOutcome): string {
	const sum = (key: 'clients' | 'contracts' | 'writeBacks') =>
		once.contacts.reduce((total, contact) => total + contact[key], 0);
	const across = once.contacts.filter((contact) => new Set(contact.workers).size > 1).length;
	return (
		`  once example:             ${once.contacts.length} contacts posted twice (half again after the first run, ` +
		`half during it): ${sum('clients')} clients, ${sum('contracts')} contracts, ${sum('writeBacks')} write-backs; ` +
		`${across} contacts ran on both workers; ${once.sameInstant.deliveries} deliveries of one ` +
		`contact at the same instant left ${once.sameInstant.clientsPerContact.join(', ')} clients ` +
		`(a measurement); executions ${formatCounts(once.statuses)}`
	);
}

function statusAtKill(load: LoadResult, id: string): string {
	return load.statusAtKill.get(id) ?? 'not listed';
}

function peakRequestsPerSecond(service: StandIn): number {
	const times = service.requests.map((request) => request.receivedAt).sort((a, b) => a - b);
	let peak = 0;
	let windowStart = 0;
	for (let index = 0; index < times.length; index++) {
		while (times[index] - times[windowStart] >= 1000) windowStart++;
		peak = Math.max(peak, index - windowStart + 1);
	}
	return peak;
}

function seconds(ms: number): string {
	return (ms / 1000).toFixed(1);
}

function describeAnswer(answer: Answer | undefined): string {
	if (!answer) return 'nothing';
	if (answer.status === undefined) return `no answer (${answer.error})`;
	return (
		`HTTP ${answer.status} ${answer.body.slice(0, 60)} after ` +
		`${seconds(answer.answeredAt - answer.sentAt)} s`
	);
}

function percentile(answers: Answer[], fraction: number): number {
	const durations = answers
		.map((answer) => answer.answeredAt - answer.sentAt)
		.sort((a, b) => a - b);
	if (durations.length === 0) return 0;
	return durations[Math.min(durations.length - 1, Math.floor(fraction * durations.length))];
}

await main();
