/**
 * The README's "Your first workflow in five steps", done in n8n's editor in headless Chromium as
 * a new user does them: a fresh n8n with the package installed and nothing else, the owner signed
 * in; the credential is made through the editor, the contract engine and its Webhook intake are
 * imported from their files, the intake run with the test deal it holds, and then both are
 * published and the intake sent another deal of the same customer; last, Deal Fields is mapped to
 * a CRM's own post, heard at the Test URL, and the intake published again.
 *
 * The editor is followed by what it shows: roles and labels, and n8n's data-test-id only where
 * the text is not unique (the canvas nodes, the credential form's fields, the field of a node's
 * panel, Execute workflow, which the trigger node's own button is also called).
 *
 * With SCREENSHOTS=1 it writes one screenshot per step into docs/screenshots/first-workflow/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder, type Recorder } from '../service/recorder.mts';
import { startSmtpStandIn, type SmtpStandIn } from '../service/smtp.mts';
import {
	boxOf,
	canvasNode,
	credentialField,
	errorToasts,
	letTheEditSettle,
	panelField,
	startEditor,
	type EditorSession,
} from './editor.mts';
import {
	CRM_SECRET_HEADER,
	endedRuns,
	EXAMPLES_DIR,
	NODE_TYPE,
	ownerSession,
	PACKAGE_ROOT,
	postToWebhook,
	readExample,
	restJson,
	runError,
	runFromTrigger,
	unflatten,
	type Execution,
} from './n8n-instance.mts';

/** What a stored run says of the steps it ran. */
type RunSteps = { resultData?: { runData?: Record<string, unknown> } } | undefined;
import {
	CUSTOMERS_TABLE,
	ENGINE_ID,
	ENGINE_TABLE,
	TEST_DEAL,
} from '../../scripts/deal-examples.mts';
import { dataTableId, tableRows, updateTableRows } from './data-tables.mts';
import type { ClientRecord, ContractRecord, StandIn } from '../service/stand-in.mts';

const ENGINE_FILE = 'contract-engine.json';
const ENGINE = readExample(ENGINE_FILE);
const INTAKE_FILE = 'intake-webhook.json';
const INTAKE = readExample(INTAKE_FILE) as ReturnType<typeof readExample> & {
	pinData: Record<string, Array<{ json: { body: typeof TEST_DEAL } }>>;
};
/** A workflow's steps, without the sticky notes that group them. */
const stepsOf = (workflow: ReturnType<typeof readExample>) =>
	workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');
const TABLE = ENGINE_TABLE.name;
const CREDENTIAL_NAME = 'Contract Signing account';
/** A template the stand-in knows, other than the one the example ships with. */
const TEMPLATE_KEY = 'tpl_nda';
/** The address the example writes the keys back to, which the user replaces with their CRM's. */
const EXAMPLE_CRM_ADDRESS = 'https://crm.example.com';
/** The service address the README's examples use, shown in the credential's screenshot. */
const EXAMPLE_BASE_URL = 'https://api.contract-signing.example';
const GIVE_UP_MS = 30_000;

const SCREENSHOTS = process.env.SCREENSHOTS === '1';
const SCREENSHOTS_DIR = join(PACKAGE_ROOT, 'docs', 'screenshots', 'first-workflow');

/** The README's section, from its heading to the next heading. */
function readmeSection(heading: string): string {
	const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
	const start = readme.indexOf(`## ${heading}`);
	if (start < 0) throw new Error(`README.md has no section "${heading}"`);
	const end = readme.indexOf('\n#', start + heading.length + 3);
	return readme.slice(start, end < 0 ? undefined : end);
}

const FIRST_WORKFLOW = readmeSection('Your first workflow in five steps');

/** The user, as step 5 puts them in the test deal before its first run. */
const YOU = { name: 'Grace Hopper', email: 'grace@example.com', company: 'Hopper Compilers' };

/** The alert workflow step 4 imports beside the deal workflow. */
const ALERT_FILE = 'alert-by-email.json';
const ALERT = readExample(ALERT_FILE);

/** A won deal as a CRM of another shape posts it, for step 5's mapping of Deal Fields. */
const CRM_POST = {
	id: 'D-2001',
	title: 'Maintenance agreement – Hopper Compilers',
	stage: 'closed_won',
	person: { id: 'C-90', ...YOU },
};

/** Deal Fields as shipped: what follows `$json.body.` in each value, by field. */
const SHIPPED_FIELDS = Object.fromEntries(
	(
		INTAKE.nodes.find((node) => node.name === 'Deal Fields')!.parameters as {
			assignments: { assignments: Array<{ name: string; value: string }> };
		}
	).assignments.assignments.flatMap(({ name, value }) => {
		const read = /^=\{\{ \$json\.body\.(\S+) \}\}$/.exec(value);
		return read ? [[name, read[1]]] : [];
	}),
);

/** Deal Fields set to CRM_POST's fields, in the order of its values. */
const CRM_FIELDS = {
	dealId: 'id',
	contractName: 'title',
	customerId: 'person.id',
	fullname: 'person.name',
	email: 'person.email',
	organization: 'person.company',
	status: 'stage',
};

/** Another won deal of the test deal's customer, for the published workflow. */
const ANOTHER_DEAL = {
	deal: { id: 'D-1043', name: 'Support agreement – Analytical Engines', status: 'won' },
	customer: TEST_DEAL.customer,
};

/** The intake's steps a won deal's run takes, in order; the engine finishes it in a run of its own. */
const STEPS_OF_A_WON_DEAL = ['Deal Won', 'Deal Fields', 'Won?', 'Contract Engine', 'Deal Recorded'];

let editor: EditorSession;
let page: Page;
/** The CRM's API that receives the keys (Send Keys to CRM). */
let crm: Recorder;
/** The person's mail server (Tell a Person, Daily Summary). */
let smtp: SmtpStandIn;
const PERSON_EMAIL = 'ops@example.com';
const SENDER_EMAIL = 'n8n@example.com';
const SMTP_CREDENTIAL_NAME = 'SMTP account';
let engineId = '';
let intakeId = '';
let productionUrl = '';

/** The screenshots the steps take, by name, whether or not SCREENSHOTS=1 writes them. */
const screenshotsOfSteps: string[] = [];

function log(line: string) {
	process.stdout.write(`${line}\n`);
}

/** With SCREENSHOTS=1: the element, or the part of the page, as docs/screenshots/first-workflow/<name>.png. */
async function screenshot(
	name: string,
	what: Locator | { x: number; y: number; width: number; height: number },
	options: { keepPointer?: boolean } = {},
): Promise<void> {
	screenshotsOfSteps.push(name);
	if (!SCREENSHOTS) return;
	mkdirSync(SCREENSHOTS_DIR, { recursive: true });
	const path = join(SCREENSHOTS_DIR, `${name}.png`);
	// Keeps the pointer from hovering a field, which shows that field's Fixed/Expression switch.
	if (!options.keepPointer) {
		await page.mouse.move(page.viewportSize()!.width - 1, page.viewportSize()!.height - 1);
	}
	// n8n's notifications ("URL copied", "Credential successfully created…") cover a corner.
	const style = '.el-notification { display: none !important; }';
	if ('screenshot' in what) await what.screenshot({ path, animations: 'disabled', style });
	else await page.screenshot({ path, clip: what, animations: 'disabled', style });
	log(`screenshot: ${path}`);
}

/** Waits for the element to show; playwright-core has no `expect` of its own. */
async function shows(locator: Locator, timeout = 15_000): Promise<void> {
	await locator.first().waitFor({ state: 'visible', timeout });
}

const POLL = { timeout: 15_000 };

/** The smallest region holding all the boxes, with a margin, inside the viewport. */
function around(
	boxes: Array<{ x: number; y: number; width: number; height: number }>,
	margin = 16,
) {
	const { width, height } = page.viewportSize()!;
	const left = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
	const top = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
	const right = Math.min(width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
	const bottom = Math.min(height, Math.max(...boxes.map((b) => b.y + b.height)) + margin);
	return { x: left, y: top, width: right - left, height: bottom - top };
}

const panel = () => page.getByTestId('ndv');

/** Opens a node's panel by double-clicking the node, as a user does. */
async function openPanel(name: string): Promise<Locator> {
	if (await panel().isVisible()) await closePanel();
	await closeChecklist();
	await canvasNode(page, name).dblclick();
	await panel().getByTestId('node-parameters').waitFor();
	return panel();
}

async function closePanel(): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await panel().waitFor({ state: 'hidden' });
}

/** The parameters column of the open panel, down to its last field. */
async function parametersColumn() {
	const column = await boxOf(panel().locator('.node-settings'));
	const fields = panel().getByTestId('node-parameters').getByTestId('parameter-item');
	const boxes = await Promise.all((await fields.all()).map((field) => field.boundingBox()));
	const bottom = Math.max(...boxes.map((found) => (found ? found.y + found.height : 0)));
	return { ...column, height: Math.min(column.height, bottom + 16 - column.y) };
}

/** The top of the parameters column, down to the webhook URL it shows. */
async function webhookUrls(webhook: Locator, pathPrefix: string) {
	const column = await boxOf(panel().locator('.node-settings'));
	const url = await boxOf(webhook.getByText(pathPrefix));
	return { ...column, height: url.y + url.height + 16 - column.y };
}

/** Clicks the webhook URL the panel shows, which copies it, and reads it from the clipboard. */
async function copyWebhookUrl(webhook: Locator, pathPrefix: string): Promise<string> {
	const url = webhook.getByText(`${pathPrefix}${String(INTAKE.nodes[0].parameters.path)}`);
	await url.click();
	await shows(page.getByText('URL copied'));
	let copied = '';
	await expect
		.poll(async () => (copied = await page.evaluate<string>('navigator.clipboard.readText()')))
		.toContain(pathPrefix);
	return copied;
}

/** What the open panel's Data table field shows: how it finds the table, and the table. */
async function chosenTable(node: Locator): Promise<string[]> {
	return await panelField(node, 'Data table')
		.locator('input')
		.evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
}

/** Picks the credential in the open panel's Credential field. */
async function pickCredential(node: Locator, name = CREDENTIAL_NAME): Promise<void> {
	const select = node.getByRole('combobox', { name: 'Select Credential' });
	await select.click();
	await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
	// The select shows the credential's name; on a loaded machine (CI of a449e51) n8n 2.41.1 once
	// showed its id instead, which still is the credential picked.
	const listed = await page.request.get(`${editor.url}/rest/credentials`);
	const { data } = (await listed.json()) as { data: Array<{ id: string; name: string }> };
	const picked = data.filter((credential) => credential.name === name);
	expect(picked).toHaveLength(1);
	await expect
		.poll(() => select.inputValue(), POLL)
		.toMatch(new RegExp(`^(${name}|${picked[0].id})$`));
}

/**
 * Step 4's SMTP credential, made from the open panel as a user makes it for their mail provider,
 * here the stand-in mail server, which has no TLS.
 */
async function makeSmtpCredential(node: Locator): Promise<void> {
	expect(FIRST_WORKFLOW).toContain('**Connect to SMTP**');
	await node.getByRole('button', { name: 'Connect to SMTP', exact: true }).click();
	const form = page.getByTestId('editCredential-modal');
	// "Host" is also in "Client Host Name": each field by its whole label.
	const field = (label: string) =>
		form
			.getByTestId('credential-connection-parameter')
			.filter({ has: page.getByText(label, { exact: true }) });
	await field('User').locator('input').fill('n8n');
	await field('Password').locator('input').fill('secret');
	await field('Host').locator('input').fill(smtp.host);
	await field('Port').locator('input').fill(String(smtp.port));
	await field('SSL/TLS').locator('.el-switch').click();
	await expect.poll(() => field('SSL/TLS').getByRole('switch').isChecked(), POLL).toBe(false);
	await form.getByRole('button', { name: 'Save' }).click();
	// n8n has no test for an SMTP credential: its form closes once saved.
	await form.waitFor({ state: 'hidden' });
	await expect
		.poll(
			() => node.getByTestId('node-credentials-select').locator('input').first().inputValue(),
			POLL,
		)
		.toMatch(/SMTP/);
}

/**
 * Step 3's import: a new workflow from the Overview, then its … menu (More actions), Import → From
 * file; `shown` runs while the submenu is open. Returns the new workflow's id.
 */
async function importInNewWorkflow(file: string, shown = async () => {}): Promise<string> {
	const before = page.url();
	await page.getByRole('menuitem', { name: 'Overview' }).click();
	await page.getByRole('button', { name: 'Create workflow' }).first().click();
	await page.waitForURL((url) => /\/workflow\/[^/?]+/.test(url.pathname) && url.href !== before);
	await page.getByRole('button', { name: 'More actions' }).first().click();
	await page.getByRole('menuitem', { name: 'Import', exact: true }).hover();
	const fromFile = page.getByRole('menuitem', { name: 'From file', exact: true });
	await fromFile.waitFor();
	await shown();
	const [fileChooser] = await Promise.all([page.waitForEvent('filechooser'), fromFile.click()]);
	await fileChooser.setFiles(join(EXAMPLES_DIR, file));
	await page.waitForURL((url) => /\/workflow\/(?!new(\/|$))[^/?]+/.test(url.pathname));
	const id = /\/workflow\/([^/?]+)/.exec(page.url())![1];
	// Saved with all its steps before the user moves on, as the editor does a moment later.
	const steps = readExample(file).nodes.length;
	await savedWith(id, (saved) => Object.keys(saved).length === steps);
	return id;
}

/** Every step of the workflow on the canvas, and its notes, each with its heading. */
async function showsAllOf(workflow: ReturnType<typeof readExample>): Promise<void> {
	const steps = stepsOf(workflow);
	for (const node of steps) await shows(canvasNode(page, node.name));
	for (const note of workflow.nodes.filter((node) => !steps.includes(node))) {
		const heading = /^## (.+)$/m.exec(String(note.parameters.content))![1];
		await shows(page.getByRole('heading', { name: heading }));
	}
}

/**
 * Waits until n8n has the open workflow as `holds` says, by its steps' names; n8n saves it a moment
 * after an edit, and its Save button (Ctrl+S) saves it at once, which is pressed while it waits
 * once the workflow exists.
 */
async function savedWith(
	id: string,
	holds: (
		steps: Record<string, { parameters: Record<string, unknown>; credentials?: unknown }>,
	) => boolean,
	/** The steps whose saved parameters a failure shows. */
	shown: string[] = [],
): Promise<void> {
	const rest = await ownerSession(editor.url);
	const save = page.getByTestId('workflow-save-button');
	for (const giveUpAt = Date.now() + GIVE_UP_MS; ; ) {
		// A new workflow has its id in the address before n8n has saved it (404 until then).
		const response = await rest(`/rest/workflows/${id}`);
		const { nodes } = response.ok
			? (
					(await response.json()) as {
						data: {
							nodes: Array<{
								name: string;
								parameters: Record<string, unknown>;
								credentials?: unknown;
							}>;
						};
					}
				).data
			: { nodes: [] };
		if (response.ok && holds(Object.fromEntries(nodes.map((node) => [node.name, node])))) return;
		if (Date.now() > giveUpAt) {
			const saved = nodes.filter((node) => shown.includes(node.name));
			throw new Error(`n8n did not save workflow ${id} as edited: ${JSON.stringify(saved)}`);
		}
		// A new workflow is left to n8n's own first save: saving it here as well made it twice.
		if (response.ok) {
			if ((await save.isVisible()) && (await save.isEnabled())) await save.click();
			else await page.keyboard.press('Control+s');
		}
		await sleep(1000);
	}
}

/** Opens a workflow in the editor, once its canvas shows `step`. */
async function openWorkflow(id: string, step: string): Promise<void> {
	if (await panel().isVisible()) await closePanel();
	await page.goto(`${editor.url}/workflow/${id}`);
	await shows(canvasNode(page, step));
	// A published workflow opens with the Production Checklist, a moment after its canvas.
	await page
		.getByText('Production Checklist', { exact: true })
		.waitFor({ timeout: 3_000 })
		.catch(() => {});
	await closeChecklist();
}

/** The workflow's … → Settings, Error Workflow: the alert, picked from the list; Save. */
async function setErrorWorkflow(id: string, step: string, alertId: string): Promise<void> {
	await openWorkflow(id, step);
	await page.getByRole('button', { name: 'More actions' }).first().click();
	await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
	const settings = page.getByRole('dialog').filter({ hasText: 'Error Workflow' });
	// The list searches n8n as one types; an unpublished workflow in it cannot be picked.
	await settings.getByTestId('workflow-settings-error-workflow').click();
	await page.keyboard.type(ALERT.name);
	await page.getByRole('option', { name: ALERT.name, exact: true }).click();
	await settings.getByRole('button', { name: 'Save', exact: true }).click();
	await settings.waitFor({ state: 'hidden' });
	const saved = await restJson<{ settings?: { errorWorkflow?: string } }>(
		await ownerSession(editor.url),
		`/rest/workflows/${id}`,
	);
	expect(saved.settings?.errorWorkflow).toBe(alertId);
}

/**
 * Publish, and Publish again in the dialog that names the version; `dialogShown` runs while that
 * dialog is open. n8n then offers its Production Checklist over the canvas's left side, which is
 * closed so that the steps there can be opened.
 */
async function publish(
	dialogShown = async (_dialog: Locator) => {},
	{ again = false } = {},
): Promise<void> {
	await page.getByRole('button', { name: 'Publish', exact: true }).click();
	const publishing = page.getByRole('dialog').filter({ hasText: 'Publish workflow' });
	await expect
		.poll(() => publishing.getByRole('textbox', { name: 'Version name' }).inputValue(), POLL)
		.not.toBe('');
	await dialogShown(publishing);
	await publishing.getByRole('button', { name: 'Publish', exact: true }).click();
	// n8n 2.41.1 explains a workflow's first publication in a dialog, and a later one in none.
	if (!again) {
		const published = page.getByRole('dialog').filter({ hasText: 'Workflow published' });
		await published.getByRole('button', { name: 'Got it' }).click();
	}
	await shows(page.getByRole('button', { name: 'Published', exact: true }));
	await closeChecklist();
}

/**
 * Closes n8n's Production Checklist, which it offers over the canvas's left side once a workflow
 * is published (after Publish, and when a published workflow opens), so that the steps there can
 * be opened.
 */
async function closeChecklist(): Promise<void> {
	const checklist = page.getByText('Production Checklist', { exact: true });
	if (!(await checklist.isVisible())) return;
	await page.keyboard.press('Escape');
	await checklist.waitFor({ state: 'hidden', timeout: 5_000 }).catch(async () => {
		await page
			.locator('.el-popover, [role="dialog"], [data-reka-popper-content-wrapper]')
			.filter({ has: checklist })
			.getByRole('button')
			.first()
			.click();
		await checklist.waitFor({ state: 'hidden' });
	});
}

async function waitFor<T>(what: string, probe: () => T | undefined, withinMs = GIVE_UP_MS) {
	const giveUpAt = Date.now() + withinMs;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() > giveUpAt) throw new Error(`gave up waiting for ${what}`);
		await sleep(100);
	}
}

/** The customer's clients at the service (Custom Key: the customer's id), and their contracts. */
function customerAtService(
	service: StandIn,
	customerId: string,
): { clients: ClientRecord[]; contracts: ContractRecord[] } {
	const clients = service.clients().filter((client) => client.customKey === customerId);
	const keys = new Set(clients.map((client) => client.clientKey));
	return {
		clients,
		contracts: service.contracts().filter((contract) => keys.has(contract.clientKey)),
	};
}

/** The last runs of the workflows, with the steps each ran and its error, for a failure message. */
async function lastRuns(workflowIds: string[]): Promise<string> {
	const rest = await ownerSession(editor.url);
	const lines: string[] = [];
	for (const workflowId of workflowIds) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const { results } = await restJson<{ results: Array<{ id: string; mode: string }> }>(
			rest,
			`/rest/executions?filter=${filter}&limit=3`,
		);
		for (const { id, mode } of results) {
			const run = await restJson<Execution>(rest, `/rest/executions/${id}`);
			const data = run.data ? (unflatten(run.data) as RunSteps) : undefined;
			const steps = Object.keys(data?.resultData?.runData ?? {}).join(', ');
			lines.push(
				`${workflowId} run ${id} (${mode}, ${run.status}): ${steps}; ${runError(run) ?? ''}`,
			);
		}
	}
	return lines.join(' | ');
}

/** The id of the owner's data table of this name. */
async function tableIdOf(name: string): Promise<string> {
	return await dataTableId(await ownerSession(editor.url), name);
}

/** The columns of the owner's data table of this name, in order. */
async function tableColumns(name: string): Promise<string[]> {
	const rest = await ownerSession(editor.url);
	const project = await restJson<{ id: string }>(rest, '/rest/projects/personal');
	const columns = await restJson<Array<{ name: string; index: number }>>(
		rest,
		`/rest/projects/${project.id}/data-tables/${await tableIdOf(name)}/columns`,
	);
	return columns.sort((a, b) => a.index - b.index).map((column) => column.name);
}

/** The secret the CRM sends with each deal, as step 4 makes it. */
const CRM_HEADERS = { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value };

/** The name this CRM gives the contract's key, which step 4 puts in Send Keys to CRM. */
const CRM_CONTRACT_FIELD = 'contract_signing_key';

/** The values of input elements. */
const valuesOf = (inputs: unknown[]) =>
	inputs.map((input) => (input as unknown as { value: string }).value);

/** The keys the CRM received for the deal. */
const keysFor = (dealId: string) =>
	crm.requests.filter((call) => (call.body as { dealId?: string } | undefined)?.dealId === dealId);

beforeAll(async () => {
	crm = await startRecorder();
	smtp = await startSmtpStandIn();
	editor = await startEditor({ empty: true, log });
	page = editor.page;
});

afterAll(async () => {
	await editor?.stop();
	await crm?.close();
	await smtp?.close();
});

describe("the README's first workflow, in the editor of a fresh n8n", () => {
	it("1. Install: the packed package sits in n8n's folder for community nodes before n8n starts, as the README installs it", async () => {
		// The harness (startEditor) runs the README's npm install line with the `npm pack` file,
		// in <user folder>/.n8n/nodes, and then starts n8n: nothing else is there.
		expect(readmeSection('Installation')).toContain('`~/.n8n/nodes`');
		const types = await page.request.get(`${editor.url}/types/nodes.json`);
		expect(types.ok()).toBe(true);
		const names = ((await types.json()) as Array<{ name: string }>).map((type) => type.name);
		expect(names).toContain(NODE_TYPE);
		await page.goto(editor.url);
	});

	it('2. Add the credential: + → New credential, Contract Signing API, Base URL and API Key, Save; the test passes', async () => {
		// A fresh n8n's Overview shows only "Let's build your first automation", without its Create
		// button; the sidebar's + ("Add new item" to screen readers) has New credential.
		expect(FIRST_WORKFLOW).toContain('**+ → New credential**');
		await page.getByRole('button', { name: 'Add new item' }).click();
		await page.getByRole('menuitem', { name: 'New credential', exact: true }).click();
		const chooser = page.getByRole('dialog').filter({ hasText: 'Add new credential' });
		await chooser.getByRole('combobox', { name: 'Search for app...' }).fill('Contract Signing API');
		await page.getByRole('option', { name: 'Contract Signing API', exact: true }).click();
		await chooser.getByRole('button', { name: 'Continue' }).click();

		const form = page.getByTestId('editCredential-modal');
		await credentialField(form, 'Base URL').fill(editor.service.url);
		await credentialField(form, 'API Key').fill(editor.service.apiKey);
		await form.getByRole('button', { name: 'Save' }).click();

		const promised = /shows _([^_]+)_/.exec(FIRST_WORKFLOW)?.[1];
		expect(promised, 'step 2 names what n8n shows after Save').toBeDefined();
		await shows(form.getByText(promised!));
		// Shown with the README's example address: the stand-in's loopback address means nothing to a
		// reader. Only the field's text changes, after the credential was saved and tested.
		await credentialField(form, 'Base URL').evaluate((input, address) => {
			(input as unknown as { value: string }).value = address;
		}, EXAMPLE_BASE_URL);
		await screenshot('2-credential', form);
		await form.getByRole('button', { name: 'Close this dialog' }).click();
		await form.waitFor({ state: 'hidden' });
	});

	it('3. Import both (… → Import → From file), the engine and the intake, each in a workflow of its own; the engine makes its tables (Make Table)', async () => {
		expect(FIRST_WORKFLOW).toContain('**Make Table**');
		// The columns for n8n 1.x, where the user makes the tables: listed where step 3 points.
		const examples = readFileSync(join(PACKAGE_ROOT, 'docs', 'examples.md'), 'utf8');
		for (const { name, columns } of [ENGINE_TABLE, CUSTOMERS_TABLE]) {
			expect(examples).toContain(`**${name}**`);
			for (const column of columns) expect(examples).toContain(`\`${column}\``);
		}
		expect(FIRST_WORKFLOW).toContain(`(examples/${ENGINE_FILE})`);
		expect(FIRST_WORKFLOW).toContain(`(examples/${INTAKE_FILE})`);
		engineId = await importInNewWorkflow(ENGINE_FILE, async () => {
			await screenshot(
				'3-import',
				around([
					await boxOf(page.getByRole('button', { name: 'More actions' }).first()),
					await boxOf(page.getByRole('menu', { name: 'More actions' })),
					await boxOf(page.getByRole('menu', { name: 'Import' })),
				]),
				// The submenu stays open while the pointer is on Import.
				{ keepPointer: true },
			);
		});
		await showsAllOf(ENGINE);
		intakeId = await importInNewWorkflow(INTAKE_FILE);
		await showsAllOf(INTAKE);

		// Every step the README names is a step of the engine or the intake.
		const names = new Set([...ENGINE.nodes, ...INTAKE.nodes].map((node) => node.name));
		const named = [...FIRST_WORKFLOW.matchAll(/\*\*([^*]+)\*\*/g)]
			.map((match) => match[1].replace(/\s+/g, ' '))
			.filter((name) => names.has(name));
		expect(new Set(named)).toEqual(
			new Set([
				'Deal Won',
				'Deal Fields',
				'Won?',
				'Make Table',
				'Make Customer Table',
				'Add Customer',
				"Customer's Rows",
				'Keep Client',
				'Create Client',
				'Create Contract',
				'Send Keys to CRM',
				'Contract Engine',
				'Tell a Person',
				'Daily Summary',
			]),
		);

		// Installation: "the Contract Signing node is in the nodes panel (search "Contract Signing")".
		await page.getByRole('button', { name: 'Open nodes panel' }).click();
		const nodesPanel = page.getByTestId('node-creator');
		await nodesPanel.getByRole('textbox', { name: 'Search nodes...' }).fill('Contract Signing');
		await shows(nodesPanel.getByText('Contract Signing', { exact: true }));
		const found = await boxOf(
			nodesPanel.getByText('Create clients with their users', { exact: false }),
		);
		const whole = await boxOf(nodesPanel);
		await screenshot('1-nodes-panel', {
			...whole,
			height: found.y + found.height + 24 - whole.y,
		});
		await page.keyboard.press('Escape');
		await nodesPanel.waitFor({ state: 'hidden' });
	});

	it("4. Make it yours: in the engine the credential, Template Key and the e-mail; in the intake Deal Fields, the CRM's address, the secret and the engine", async () => {
		await openWorkflow(engineId, 'Create Client');
		for (const name of ['Create Client', 'Create Contract']) {
			const node = await openPanel(name);
			await pickCredential(node);
			if (name === 'Create Contract') {
				await panelField(node, 'Template Key').getByRole('textbox').fill(TEMPLATE_KEY);
				await letTheEditSettle();
				await screenshot('4-create-contract', await parametersColumn());
			}
		}

		// Tell a Person: the person's address and one the mail server sends from, and a new SMTP
		// credential; then that credential picked in Daily Summary.
		const tell = await openPanel('Tell a Person');
		await panelField(tell, 'To Email').getByRole('textbox').fill(PERSON_EMAIL);
		await panelField(tell, 'From Email').getByRole('textbox').fill(SENDER_EMAIL);
		await letTheEditSettle();
		await makeSmtpCredential(tell);
		const summary = await openPanel('Daily Summary');
		await pickCredential(summary, SMTP_CREDENTIAL_NAME);

		// Opened again, Create Contract shows the new Template Key: the engine has it.
		await openPanel('Create Contract');
		expect(await panelField(panel(), 'Template Key').getByRole('textbox').inputValue()).toBe(
			TEMPLATE_KEY,
		);
		await closePanel();
		await savedWith(
			engineId,
			(steps) =>
				JSON.stringify(steps['Create Contract']?.parameters).includes(TEMPLATE_KEY) &&
				Boolean(steps['Daily Summary']?.credentials),
		);

		await openWorkflow(intakeId, 'Deal Won');
		// Deal Fields: the README's names, reading the test deal, so nothing to change here.
		const fields = await openPanel('Deal Fields');
		const assigned = await fields
			.getByTestId('node-parameters')
			.getByPlaceholder('name')
			.evaluateAll((inputs) =>
				inputs.map((input) => (input as unknown as { value: string }).value),
			);
		expect(assigned).toEqual([
			'dealId',
			'contractName',
			'customerId',
			'fullname',
			'email',
			'organization',
			'status',
			'intakeId',
		]);
		for (const name of assigned) expect(FIRST_WORKFLOW).toContain(`\`${name}\``);
		await screenshot('4-deal-fields', await parametersColumn());

		// Send Keys to CRM: its URL is an expression; the address at its start is replaced.
		const sendKeys = await openPanel('Send Keys to CRM');
		const address = panelField(sendKeys, 'URL').getByRole('textbox');
		await expect.poll(() => address.innerText(), POLL).toContain(EXAMPLE_CRM_ADDRESS);
		await address.click();
		await page.keyboard.press('Control+Home');
		for (const _ of EXAMPLE_CRM_ADDRESS) await page.keyboard.press('Shift+ArrowRight');
		await page.keyboard.type(crm.url);
		await expect.poll(() => address.innerText(), POLL).toContain(`${crm.url}/api/deals/`);
		await expect.poll(() => address.innerText(), POLL).not.toContain(EXAMPLE_CRM_ADDRESS);
		// Its Body Parameters: the contract's key under the name this CRM gives that field.
		expect(FIRST_WORKFLOW.replace(/\s+/g, ' ')).toContain(
			'under **Body Parameters** change each **Name** to your CRM',
		);
		const names = panelField(sendKeys, 'Name').locator('input');
		await expect
			.poll(() => names.evaluateAll(valuesOf), POLL)
			.toEqual(['dealId', 'clientKey', 'contractKey']);
		await names.nth(2).fill(CRM_CONTRACT_FIELD);
		await letTheEditSettle();
		await screenshot('4-send-keys', await parametersColumn());

		// Deal Won: the secret the CRM sends, a new credential in Credential for Header Auth.
		expect(FIRST_WORKFLOW).toContain('**Credential for Header Auth**');
		expect(FIRST_WORKFLOW).toContain(`\`${CRM_SECRET_HEADER.name}\``);
		const dealWon = await openPanel('Deal Won');
		// With no Header Auth credential yet, n8n 2.41.1 offers Connect to Header Auth in its place.
		expect(FIRST_WORKFLOW).toContain('**Connect to Header Auth**');
		await dealWon.getByRole('button', { name: 'Connect to Header Auth' }).click();
		const secretForm = page.getByTestId('editCredential-modal');
		await credentialField(secretForm, 'Name').fill(CRM_SECRET_HEADER.name);
		await secretForm
			.getByTestId('credential-connection-parameter')
			.filter({ hasText: 'Value' })
			.locator('input')
			.fill(CRM_SECRET_HEADER.value);
		await secretForm.getByRole('button', { name: 'Save' }).click();
		// A credential without a test closes its form once saved.
		await secretForm.waitFor({ state: 'hidden' });
		const secret = dealWon.getByTestId('node-credentials-select');
		await expect
			.poll(() => secret.locator('input').first().inputValue(), POLL)
			.toMatch(/Header Auth/);
		await letTheEditSettle();
		await screenshot('4-deal-won-secret', await parametersColumn());

		// Contract Engine: the engine imported in step 3, picked from the list.
		expect(FIRST_WORKFLOW.replace(/\s+/g, ' ')).toContain(
			`pick the engine you imported, **${ENGINE.name}**, from the list`,
		);
		const contractEngine = await openPanel('Contract Engine');
		await panelField(contractEngine, 'Workflow').getByTestId('rlc-input').click();
		// The list puts the step's value as imported first (the engine by the name it had where it
		// was exported); the engine imported here follows, among this n8n's workflows.
		await page.getByTestId('rlc-search').fill(ENGINE.name);
		const engines = page.getByTestId('rlc-item').filter({ hasText: ENGINE.name });
		await expect.poll(() => engines.count(), POLL).toBe(2);
		await engines.last().click();
		await letTheEditSettle();
		await screenshot('4-contract-engine', await parametersColumn());

		// Opened again, Send Keys to CRM shows the new address: the intake has it.
		await openPanel('Send Keys to CRM');
		expect(await panelField(panel(), 'URL').getByRole('textbox').innerText()).toContain(
			`${crm.url}/api/deals/`,
		);
		await closePanel();
		await savedWith(
			intakeId,
			(steps) =>
				(steps['Contract Engine']?.parameters.workflowId as { value?: string } | undefined)
					?.value === engineId &&
				Boolean(steps['Deal Won']?.credentials) &&
				JSON.stringify(steps['Send Keys to CRM']?.parameters).includes(CRM_CONTRACT_FIELD),
		);
	});

	it("4. To hear of a run that fails: the alert imported as a third workflow, its addresses and the SMTP credential; Execute workflow sends a test alert; published, and named in the engine's and the intake's … → Settings, Error Workflow", async () => {
		expect(FIRST_WORKFLOW).toContain(`\`examples/${ALERT_FILE}\``);
		const alertId = await importInNewWorkflow(ALERT_FILE);
		expect(ALERT.nodes.map((node) => node.name)).toContain('Alert by Email');
		const alert = await openPanel('Alert by Email');
		await panelField(alert, 'To Email').getByRole('textbox').fill(PERSON_EMAIL);
		await panelField(alert, 'From Email').getByRole('textbox').fill(SENDER_EMAIL);
		await letTheEditSettle();
		await pickCredential(alert, SMTP_CREDENTIAL_NAME);
		await closePanel();

		expect(FIRST_WORKFLOW.replace(/\s+/g, ' ')).toContain(
			'**Execute workflow** sends a test alert',
		);
		await page.getByTestId('execute-workflow-button').click();
		const test = await smtp.waitForMail(
			(each) => each.subject === 'n8n: Test alert needs you',
			GIVE_UP_MS,
		);
		expect(test.to).toEqual([PERSON_EMAIL]);
		expect(test.from).toBe(SENDER_EMAIL);
		expect(test.text).toContain('This is a test of your alerts');
		await publish();

		// In the engine and in the intake: … → Settings, Error Workflow, Save.
		await setErrorWorkflow(engineId, 'Create Client', alertId);
		await setErrorWorkflow(intakeId, 'Deal Won', alertId);
	});

	it('5. Publish both: the engine, Publish again in the dialog, then the intake the same way', async () => {
		expect(FIRST_WORKFLOW).toMatch(/\*\*Publish\*\* the engine and \*\*Publish\*\* again/);
		await openWorkflow(engineId, 'Create Client');
		await publish(async (publishing) => {
			await screenshot(
				'5-publish',
				around(
					[
						await boxOf(page.getByRole('button', { name: 'Publish', exact: true }).first()),
						await boxOf(publishing.getByRole('button', { name: 'Cancel' })),
						await boxOf(publishing.getByText('Publish workflow', { exact: true })),
					],
					40,
				),
			);
		});
		await openWorkflow(intakeId, 'Deal Won');
		await publish();
	});

	it("5. Try it: the test deal made yours in the intake's Deal Won (Edit Output); Execute workflow runs it; the engine makes a client and a contract, the keys sent to the CRM", async () => {
		await openWorkflow(intakeId, 'Deal Won');
		const words = FIRST_WORKFLOW.replace(/\s+/g, ' ');
		expect(words).toContain(TEST_DEAL.customer.name);
		expect(words).toContain(TEST_DEAL.customer.company);
		expect(words).toContain(`\`${TEST_DEAL.deal.id}\` and \`${TEST_DEAL.customer.id}\``);
		// Deal Won's output, the test deal it holds: Edit Output, the customer's own details, Save.
		const dealWon = await openPanel('Deal Won');
		await dealWon.getByRole('button', { name: 'Edit Output' }).click();
		const yours = INTAKE.pinData['Deal Won'].map(({ json }) => ({
			...json,
			body: { ...json.body, customer: { ...json.body.customer, ...YOU } },
		}));
		const text = dealWon.locator('.cm-content');
		await text.click();
		await page.keyboard.press('Control+A');
		await page.keyboard.insertText(JSON.stringify(yours));
		await dealWon.getByRole('button', { name: 'Save', exact: true }).click();
		await shows(dealWon.getByText(YOU.email, { exact: false }));
		await closePanel();
		// data-test-id: the trigger node's own button is also called "Execute workflow".
		await page.getByTestId('execute-workflow-button').click();
		try {
			// Deal Won shows its pin, not a status: its output is the test deal it holds.
			for (const name of STEPS_OF_A_WON_DEAL.slice(1)) {
				await shows(canvasNode(page, name).getByTestId('canvas-node-status-success'), GIVE_UP_MS);
			}
		} catch (error) {
			const toasts = (await errorToasts(page)).join(' | ');
			throw new Error(`the run did not succeed on the canvas: ${toasts}`, { cause: error });
		}
		await shows(page.getByText('Workflow executed successfully'));
		if (SCREENSHOTS) {
			// The imported workflow reaches the canvas's right edge.
			await page.getByRole('button', { name: 'Zoom to Fit' }).click();
			await sleep(500);
		}
		const onCanvas = [
			...stepsOf(INTAKE).map((node) => canvasNode(page, node.name)),
			page.getByRole('button', { name: 'Execute workflow' }).first(),
		];
		await screenshot('5-run', around(await Promise.all(onCanvas.map(boxOf)), 24));

		// The engine finishes the deal in a run of its own, which the intake's run does not wait for.
		await waitFor(`the engine to send the keys of deal ${TEST_DEAL.deal.id} to the CRM`, () =>
			keysFor(TEST_DEAL.deal.id).length > 0 ? true : undefined,
		);
		const { clients, contracts } = customerAtService(editor.service, TEST_DEAL.customer.id);
		expect(clients).toEqual([
			expect.objectContaining({ fullname: YOU.name, email: YOU.email, organization: YOU.company }),
		]);
		expect(contracts).toEqual([
			expect.objectContaining({
				clientKey: clients[0].clientKey,
				name: TEST_DEAL.deal.name,
				templateKey: TEMPLATE_KEY,
			}),
		]);
		expect(keysFor(TEST_DEAL.deal.id)).toEqual([
			expect.objectContaining({
				path: `/api/deals/${TEST_DEAL.deal.id}/contract-signing`,
				body: {
					dealId: TEST_DEAL.deal.id,
					clientKey: clients[0].clientKey,
					[CRM_CONTRACT_FIELD]: contracts[0].contractKey,
				},
			}),
		]);

		// The engine's data table steps find the table Make Table made by its name: nothing to pick.
		await openWorkflow(engineId, 'Record Deal');
		for (const name of ['Record Deal', 'Save Contract']) {
			const node = await openPanel(name);
			expect(await chosenTable(node), `${name}'s Data table field`).toEqual(['By Name', TABLE]);
		}
		await closePanel();
	});

	it("5. Then Deal Won's Production URL for the CRM: a post without the secret turned away; the customer's next deal gets a contract for the same client", async () => {
		await openWorkflow(intakeId, 'Deal Won');
		const webhook = await openPanel('Deal Won');
		await webhook.getByText('Production URL', { exact: true }).click();
		productionUrl = await copyWebhookUrl(webhook, '/webhook/');
		expect(new URL(productionUrl).pathname).toBe(
			`/webhook/${String(INTAKE.nodes[0].parameters.path)}`,
		);
		await screenshot('5-production-url', await webhookUrls(webhook, '/webhook/'));
		await closePanel();

		const stranger = await postToWebhook(productionUrl, ANOTHER_DEAL);
		expect(stranger.status).toBe(403);
		const sent = await postToWebhook(productionUrl, ANOTHER_DEAL, { headers: CRM_HEADERS });
		expect(sent.status, await sent.clone().text()).toBe(200);
		await waitFor(
			`the published engine to send the keys of deal ${ANOTHER_DEAL.deal.id} to the CRM`,
			() => (keysFor(ANOTHER_DEAL.deal.id).length > 0 ? true : undefined),
		);
		const { clients, contracts } = customerAtService(editor.service, TEST_DEAL.customer.id);
		expect(clients).toHaveLength(1);
		expect(contracts.map((contract) => [contract.name, contract.clientKey])).toEqual([
			[TEST_DEAL.deal.name, clients[0].clientKey],
			[ANOTHER_DEAL.deal.name, clients[0].clientKey],
		]);
	});

	it("5. The test deal's run counts too: Won deals has a row for each deal, done, and the test deal sent again gets nothing more", async () => {
		const sent = await postToWebhook(productionUrl, TEST_DEAL, { headers: CRM_HEADERS });
		expect(sent.status, await sent.clone().text()).toBe(200);
		// The intake's: the test run, the next deal, the test deal again, and the engine's calls
		// back with the keys; then the engine's, each started by the intake's runs before it ended.
		const rest = await ownerSession(editor.url);
		const intakeRuns = await endedRuns(rest, intakeId, 3, GIVE_UP_MS);
		const runs = [...intakeRuns, ...(await endedRuns(rest, engineId, 1, GIVE_UP_MS))];
		expect(
			runs.filter((run) => run.status !== 'success'),
			JSON.stringify(runs),
		).toEqual([]);
		expect(intakeRuns.filter((run) => run.mode === 'webhook').length).toBe(2);
		expect(intakeRuns.filter((run) => run.mode === 'manual').length).toBeGreaterThanOrEqual(1);
		expect(customerAtService(editor.service, TEST_DEAL.customer.id).contracts).toHaveLength(2);

		await page.getByRole('menuitem', { name: 'Overview' }).click();
		await page.getByRole('link', { name: 'Data tables' }).click();
		await page.getByRole('link', { name: new RegExp(`^${TABLE}`) }).click();
		const rows = page.getByRole('grid');
		await shows(rows.getByRole('columnheader', { name: 'dealId', exact: true }));
		await shows(rows.getByRole('gridcell', { name: ANOTHER_DEAL.deal.id, exact: true }));
		const cells = await rows.getByRole('gridcell').allInnerTexts();
		for (const dealId of [TEST_DEAL.deal.id, ANOTHER_DEAL.deal.id]) {
			expect(
				cells.filter((cell) => cell === dealId),
				`the rows of deal ${dealId} in ${TABLE}`,
			).toHaveLength(1);
		}
		// The tables the engine made, with the columns docs/examples.md lists.
		expect(await tableColumns(TABLE)).toEqual(ENGINE_TABLE.columns);
		expect(await tableColumns(CUSTOMERS_TABLE.name)).toEqual(CUSTOMERS_TABLE.columns);
		// The status column is beyond the grid's width: its rows as n8n has them.
		const statuses = (await tableRows(rest, await tableIdOf(TABLE))).map((row) => [
			row.dealId,
			row.status,
		]);
		expect(statuses).toEqual([
			[TEST_DEAL.deal.id, 'done'],
			[ANOTHER_DEAL.deal.id, 'done'],
		]);
	});

	it("When something goes wrong: a row's cells changed in Overview → Data tables, as the README says (double-click, type, Enter)", async () => {
		const rest = await ownerSession(editor.url);
		const tableId = await tableIdOf(TABLE);
		const statusOf = async (dealId: string) =>
			(await tableRows(rest, tableId, { dealId })).map((row) => row.status);
		const [deal] = await tableRows(rest, tableId, { dealId: ANOTHER_DEAL.deal.id });
		expect(deal).toMatchObject({ status: 'done', contractKey: expect.any(String) });
		const contractKey = deal.contractKey as string;

		await page.getByRole('menuitem', { name: 'Overview' }).click();
		await page.getByRole('link', { name: 'Data tables' }).click();
		await page.getByRole('link', { name: new RegExp(`^${TABLE}`) }).click();
		const grid = page.getByRole('grid');
		await shows(grid.getByRole('gridcell', { name: ANOTHER_DEAL.deal.id, exact: true }));
		// n8n draws only the columns within the table's width: status, the table's 9th column, is
		// not on the page until the table is scrolled right, which a user does with Shift and the
		// mouse wheel over the table (or sideways on a touchpad, or its scroll bar).
		const statusHeader = grid.getByRole('columnheader', { name: 'status', exact: true });
		expect(await statusHeader.count(), 'status shown before scrolling right').toBe(0);
		const gridBox = await boxOf(grid);
		await page.mouse.move(gridBox.x + gridBox.width / 2, gridBox.y + gridBox.height / 2);
		const shownWhole = async () => {
			const header = (await statusHeader.count()) > 0 ? await statusHeader.boundingBox() : null;
			return header !== null && header.x + header.width <= gridBox.x + gridBox.width;
		};
		await page.keyboard.down('Shift');
		try {
			for (let turns = 0; !(await shownWhole()); turns++) {
				if (turns === 20) throw new Error('the status column did not come into view');
				await page.mouse.wheel(0, 200);
				await sleep(200);
			}
		} finally {
			await page.keyboard.up('Shift');
		}
		// The deal's row, by its contractKey beside status (its dealId is scrolled out of view).
		const column = await statusHeader.getAttribute('aria-colindex');
		const status = grid
			.getByRole('row')
			.filter({ has: page.getByRole('gridcell', { name: contractKey, exact: true }) })
			.locator(`[role="gridcell"][aria-colindex="${column}"]`);
		await expect.poll(() => status.innerText(), POLL).toBe('done');

		// Double-click opens n8n's text editor over the cell with its value selected: what is
		// typed replaces it, and n8n keeps it on Enter, not before.
		const editorOfCell = page.getByRole('textbox', { name: 'Input Editor' });
		const change = async (value: string, before: string) => {
			await status.dblclick();
			await shows(editorOfCell);
			await page.keyboard.type(value);
			expect(await editorOfCell.inputValue(), 'what the cell editor holds').toBe(value);
			await sleep(1000);
			expect(await statusOf(ANOTHER_DEAL.deal.id), 'before Enter').toEqual([before]);
			await page.keyboard.press('Enter');
			await editorOfCell.waitFor({ state: 'hidden' });
			await expect.poll(() => statusOf(ANOTHER_DEAL.deal.id), POLL).toEqual([value]);
			expect(await status.innerText()).toBe(value);
		};
		try {
			await change('check', 'done');
			await change('done', 'check');
		} finally {
			// The cases after this one read every row done.
			await updateTableRows(rest, tableId, { dealId: ANOTHER_DEAL.deal.id }, { status: 'done' });
		}
		expect(
			(await tableRows(rest, tableId)).map((row) => [row.dealId, row.status, row.contractKey]),
		).toEqual([
			[TEST_DEAL.deal.id, 'done', expect.any(String)],
			[ANOTHER_DEAL.deal.id, 'done', contractKey],
		]);

		// What the README tells a person to do to a row, in the editor.
		expect(readmeSection('When something goes wrong').replace(/\s+/g, ' ')).toContain(
			`in **Overview → Data tables**, open **${TABLE}**, double-click the cell (scroll right for \`status\`: Shift + mouse wheel over the table), type the value and press Enter`,
		);
	});

	it('4. Tell a Person and Daily Summary as step 4 set them: the daily summary reaches the address given, through the SMTP credential made there', async () => {
		const rest = await ownerSession(editor.url);
		const run = await runFromTrigger(rest, engineId, 'Every Day', GIVE_UP_MS);
		expect(run.status, runError(run)).toBe('success');
		const mail = await smtp.waitForMail(
			(each) => each.subject.startsWith('n8n: won deals on'),
			GIVE_UP_MS,
		);
		expect(mail.to).toEqual([PERSON_EMAIL]);
		expect(mail.from).toBe(SENDER_EMAIL);
		expect(mail.text).toContain(`Every won deal in the data table ${TABLE} is done.`);
	});

	it("5. Then your CRM's own post: the test deal unpinned, Deal Won's Test URL and Execute workflow show the post; Deal Fields set after `$json.body.` and Won? to the CRM's won status, published again, the Production URL makes its contract", async () => {
		const words = FIRST_WORKFLOW.replace(/\s+/g, ' ');
		expect(words).toContain(
			'unpin the test deal in **Deal Won** (its pin icon), give your CRM its **Test URL**',
		);
		expect(words).toContain(
			'replace what follows `$json.body.` with the field as the post shows it',
		);
		expect(Object.keys(SHIPPED_FIELDS)).toEqual(Object.keys(CRM_FIELDS));
		await openWorkflow(intakeId, 'Deal Won');
		const dealWon = await openPanel('Deal Won');
		await dealWon.getByTestId('ndv-pin-data').click();
		await dealWon.getByText('Test URL', { exact: true }).click();
		const testUrl = await copyWebhookUrl(dealWon, '/webhook-test/');
		await closePanel();
		await page.getByTestId('execute-workflow-button').click();
		const heard = await postToWebhook(testUrl, CRM_POST, { headers: CRM_HEADERS });
		expect(heard.status, await heard.clone().text()).toBe(200);
		// As shipped, Deal Fields reads the test deal's shape: the CRM's deal stops at Won?.
		await shows(canvasNode(page, 'Won?').getByTestId('canvas-node-status-success'), GIVE_UP_MS);
		await openPanel('Deal Won');
		await shows(panel().getByText(CRM_POST.stage, { exact: false }));
		expect(customerAtService(editor.service, CRM_POST.person.id).clients).toEqual([]);

		const fields = await openPanel('Deal Fields');
		for (const [index, [name, field]] of Object.entries(CRM_FIELDS).entries()) {
			const assignment = fields.getByTestId('assignment').nth(index);
			expect(await assignment.getByTestId('assignment-name').locator('input').inputValue()).toBe(
				name,
			);
			const value = assignment.getByTestId('assignment-value').getByRole('textbox');
			const shipped = SHIPPED_FIELDS[name];
			await expect.poll(() => value.innerText(), POLL).toBe(`{{ $json.body.${shipped} }}`);
			await value.click();
			await page.keyboard.press('Control+Home');
			for (const _ of '{{ $json.body.') await page.keyboard.press('ArrowRight');
			for (const _ of shipped) await page.keyboard.press('Shift+ArrowRight');
			await page.keyboard.insertText(field);
			await expect.poll(() => value.innerText(), POLL).toBe(`{{ $json.body.${field} }}`);
			await letTheEditSettle();
		}
		const won = (await openPanel('Won?')).getByTestId('filter-condition-right');
		await won.getByRole('textbox').click();
		await page.keyboard.press('Control+A');
		await page.keyboard.insertText(CRM_POST.stage);
		await letTheEditSettle();
		await closePanel();
		await savedWith(
			intakeId,
			(steps) =>
				JSON.stringify(steps['Won?']?.parameters).includes(CRM_POST.stage) &&
				Object.values(CRM_FIELDS).every((field) =>
					JSON.stringify(steps['Deal Fields']?.parameters).includes(`$json.body.${field} }}`),
				),
			['Deal Fields', 'Won?'],
		);
		await publish(undefined, { again: true });

		const sent = await postToWebhook(productionUrl, CRM_POST, { headers: CRM_HEADERS });
		expect(sent.status, await sent.clone().text()).toBe(200);
		await waitFor(`the keys of deal ${CRM_POST.id} at the CRM`, () =>
			keysFor(CRM_POST.id).length > 0 ? true : undefined,
		).catch(async (error: Error) => {
			throw new Error(`${error.message}; ${await lastRuns([intakeId, engineId])}`);
		});
		const { clients, contracts } = customerAtService(editor.service, CRM_POST.person.id);
		expect(clients).toEqual([
			expect.objectContaining({ fullname: YOU.name, email: YOU.email, organization: YOU.company }),
		]);
		expect(contracts.map((contract) => contract.name)).toEqual([CRM_POST.title]);
	});

	it("shows each step's screenshot in the README, and the README shows no other", () => {
		const shown = [...FIRST_WORKFLOW.matchAll(/docs\/screenshots\/first-workflow\/([\w-]+)\.png/g)];
		expect(shown.map((match) => match[1]).sort()).toEqual([...screenshotsOfSteps].sort());
		for (const name of screenshotsOfSteps) {
			expect(existsSync(join(SCREENSHOTS_DIR, `${name}.png`)), `${name}.png in the repo`).toBe(
				true,
			);
		}
	});

	it('shows no error on the page', () => {
		// n8n 2.41.1's own: its canvas logs the first when a new workflow opens from the Overview
		// (before any node of this package is on it), and its panels ask for output schemas that
		// n8n does not ship for some of its own nodes (Set, If). The intake as imported names the
		// engine by its id where it was exported, which n8n looks up, with its inputs, until step 4
		// picks the engine imported here. Nothing else may appear.
		const n8nOwn = [
			/injectNDVStore\(\) was accessed without an active workflow document store/,
			/status of 404 \(Not Found\) \(at http:\/\/[^/]+\/schemas\/n8n-nodes-base\./,
			new RegExp(`status of 404 \\(Not Found\\) \\(at http://[^/]+/rest/workflows/${ENGINE_ID}\\)`),
			/status of 400 \(Bad Request\) \(at http:\/\/[^/]+\/rest\/dynamic-node-parameters\/local-resource-mapper-fields\)/,
		];
		const problems = editor.problems.filter((problem) => !n8nOwn.some((own) => own.test(problem)));
		expect(problems).toEqual([]);
	});
});
