/**
 * The n8n editor in headless Chromium, with the packed package installed and a workflow that
 * uses each operation: shared by the browser test and the screenshot script.
 */
import { readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, selectors, type Locator, type Page } from 'playwright-core';
import { startStandIn, type StandIn } from '../service/stand-in.mts';
import {
	buildPackage,
	createN8nHome,
	importCredential,
	importCredentials,
	importWorkflow,
	OWNER,
	ownerSession,
	packPackage,
	removeN8nHome,
	startN8n,
} from './n8n-instance.mts';
import { ensureChromium } from './chromium.mts';
import { ensureN8n } from './n8n-runtime.mts';

/** playwright-core downloads no browser of its own: it drives the one from chromium.mts. */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export const EDITOR_WORKFLOW_FILE = fileURLToPath(
	new URL('./workflows/editor-panels.json', import.meta.url),
);

interface WorkflowFile {
	id: string;
	nodes: Array<{ id: string; name: string }>;
}

const editorWorkflow = JSON.parse(readFileSync(EDITOR_WORKFLOW_FILE, 'utf8')) as WorkflowFile;

export interface OperationPanel {
	/** As the node's Resource and Operation fields show it. */
	operation: string;
	/** The node of the editor workflow that uses this operation. */
	nodeName: string;
	screenshot: string;
	labels: string[];
	texts: string[];
}

export const OPERATION_PANELS: OperationPanel[] = [
	{
		operation: 'Client → Create',
		nodeName: 'Create Client',
		screenshot: 'client-create.png',
		labels: ['Full Name', 'Email', 'Organization', 'Custom Key', 'Users', 'Options'],
		texts: ['The first user becomes the client’s default user'],
	},
	{
		operation: 'User → Get',
		nodeName: 'Get User',
		screenshot: 'user-get.png',
		labels: ['Client Key', 'User Key', 'Full Name', 'Email', 'Custom Key', 'Options'],
		texts: [],
	},
	{
		operation: 'Contract → Create',
		nodeName: 'Create Contract',
		screenshot: 'contract-create.png',
		labels: ['Client Key', 'Contract Name', 'Additional Fields', 'Template Key', 'Options'],
		texts: [],
	},
];

export const CREDENTIAL_LABELS = ['Base URL', 'API Key'];

export interface Viewport {
	width: number;
	height: number;
}

export interface EditorSession {
	url: string;
	page: Page;
	/** The stand-in for the Contract Signing service that n8n is pointed at. */
	service: StandIn;
	/** The n8n version running, e.g. '2.41.1'. */
	n8nVersion: string;
	/** Page errors and console errors seen so far, except the ignored ones above. */
	problems: string[];
	/** Closes the browser, stops n8n and the stand-in service, removes the temp folders. */
	stop(): Promise<void>;
}

export interface StartEditorOptions {
	/** Compiles dist/ before packing; `npm run test:e2e` builds before the suite instead. */
	build?: boolean;
	viewport?: Viewport;
	log?: (line: string) => void;
	/**
	 * Nothing but the package: no credential and no workflow, as a user's n8n has them right
	 * after installing it. By default n8n starts with the credential and the editor workflow.
	 */
	empty?: boolean;
	/** Credentials of other services to import before n8n starts, such as a chat model's. */
	otherCredentials?: Parameters<typeof importCredentials>[1];
}

/**
 * The stand-in service, n8n with the packed package, the Contract Signing credential and the
 * editor workflow (unless `empty`), and a Chromium page signed in as the owner.
 */
export async function startEditor(options: StartEditorOptions = {}): Promise<EditorSession> {
	const log = options.log ?? (() => {});
	const cleanups: Array<() => Promise<void> | void> = [];
	const stop = async () => {
		const failures: unknown[] = [];
		for (const cleanup of cleanups.splice(0).reverse()) {
			try {
				await cleanup();
			} catch (error) {
				failures.push(error);
			}
		}
		if (failures.length > 0) throw failures[0];
	};
	try {
		const runtime = await ensureN8n({ log });
		const browserBuild = await ensureChromium(log);
		const service = await startStandIn();
		cleanups.push(() => service.close());
		if (options.build) {
			log('building the package…');
			await buildPackage();
		}
		log('packing the package…');
		const tarball = await packPackage();
		cleanups.push(() => rmSync(dirname(tarball), { recursive: true, force: true }));
		const home = await createN8nHome(runtime, tarball);
		cleanups.push(() => removeN8nHome(home));
		if (!options.empty) {
			log('importing the credential and the workflow…');
			await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
			await importWorkflow(home, EDITOR_WORKFLOW_FILE);
		}
		if (options.otherCredentials) await importCredentials(home, options.otherCredentials);
		log('starting n8n…');
		const n8n = await startN8n(home);
		cleanups.push(() => n8n.stop());
		await ownerSession(n8n.url);

		log('starting Chromium…');
		selectors.setTestIdAttribute('data-test-id');
		const browser = await chromium.launch({
			executablePath: browserBuild.executablePath,
			args: CHROMIUM_ARGS,
			env: { ...process.env, ...browserBuild.env },
		});
		cleanups.push(() => browser.close());
		const context = await browser.newContext({
			viewport: options.viewport ?? { width: 1440, height: 900 },
		});
		// The editor copies a webhook's URL to the clipboard when it is clicked, as users copy it.
		await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: n8n.url });
		const page = await context.newPage();
		const problems: string[] = [];
		page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			problems.push(`console error: ${message.text()} (at ${message.location().url})`);
		});

		// The sign-in form posts the same request; signing in this way spares a page load and the
		// 401 that the sign-in page's session check logs as a console error.
		const signIn = await page.request.post(`${n8n.url}/rest/login`, {
			data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
		});
		if (!signIn.ok()) {
			throw new Error(
				`signing in as ${OWNER.email} failed: ${signIn.status()} ${await signIn.text()}`,
			);
		}
		return { url: n8n.url, page, service, n8nVersion: runtime.version, problems, stop };
	} catch (error) {
		await stop().catch(() => {});
		throw error;
	}
}

function nodeId(nodeName: string): string {
	const node = editorWorkflow.nodes.find((candidate) => candidate.name === nodeName);
	if (!node) throw new Error(`the editor workflow has no node "${nodeName}"`);
	return node.id;
}

/** A node on the canvas (data-test-id: a node's name is also its label in the panel). */
export function canvasNode(page: Page, nodeName: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
}

/**
 * The field of a node's panel with this label, the innermost one where fields hold fields
 * (data-test-id: the labels are not linked to their inputs).
 */
export function panelField(container: Locator, label: string): Locator {
	const page = container.page();
	return container
		.getByTestId('parameter-item')
		.filter({ has: page.locator('label.n8n-input-label').getByText(label, { exact: true }) })
		.filter({ hasNot: page.getByTestId('parameter-item') });
}

/** Where the element is on the page; it must be there. */
export async function boxOf(locator: Locator) {
	const found = await locator.boundingBox();
	if (!found) throw new Error(`${String(locator)} is not on the page`);
	return found;
}

/**
 * n8n takes a typed value into the workflow a moment after the last key (about 300 ms here);
 * a step run or a panel closed sooner works with the value before the edit. A user is never that
 * quick.
 */
export async function letTheEditSettle(): Promise<void> {
	await sleep(1000);
}

/**
 * Opens the editor workflow and runs it with Execute Workflow, so that each node's panel shows
 * the items it received and sent. The webhook trigger's pinned event starts the run at once:
 * n8n waits for a call only when the trigger has no pinned data.
 */
export async function runEditorWorkflow(editor: EditorSession): Promise<void> {
	const { page } = editor;
	await page.goto(`${editor.url}/workflow/${editorWorkflow.id}`);
	await page.getByTestId('execute-workflow-button').click();
	const lastNode = editorWorkflow.nodes.at(-1)!.name;
	try {
		await canvasNode(page, lastNode).getByTestId('canvas-node-status-success').waitFor();
	} catch (error) {
		const toasts = await errorToasts(page);
		throw new Error(
			`the workflow did not run through to "${lastNode}"` +
				(toasts.length > 0 ? `; the editor reported: ${toasts.join(' | ')}` : ''),
			{ cause: error },
		);
	}
	const successToast = page.locator('.el-notification:has(.el-notification--success)');
	await successToast.locator('.el-notification__closeBtn').click();
	await successToast.waitFor({ state: 'detached' });
}

/**
 * Opens a node's panel (NDV) the way a user does, by double-clicking the node, and checks that
 * the editor's address became the node's own: /workflow/<workflow id>/<node id>.
 */
export async function openNodePanel(editor: EditorSession, nodeName: string): Promise<Locator> {
	const { page } = editor;
	const panel = page.getByTestId('ndv');
	// A panel left open, by a check that failed say, would cover the canvas.
	if (await panel.isVisible()) await closeNodePanel(editor);
	await canvasNode(page, nodeName).dblclick();
	await panel.getByTestId('node-parameters').waitFor();
	await page.waitForURL(`${editor.url}/workflow/${editorWorkflow.id}/${nodeId(nodeName)}`);
	// Keeps the pointer from hovering a field, which shows that field's Fixed/Expression switch.
	await page.mouse.move(0, page.viewportSize()!.height - 1);
	return panel;
}

export async function closeNodePanel(editor: EditorSession): Promise<void> {
	await editor.page.getByTestId('ndv-close-button').click();
	await editor.page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** Opens the node's credential with the edit button next to it, in the node's panel. */
export async function openCredentialForm(editor: EditorSession, panel: Locator): Promise<Locator> {
	await panel.getByTestId('credential-edit-button').click();
	const form = editor.page.getByTestId('editCredential-modal');
	await form.getByTestId('credential-connection-parameter').first().waitFor();
	return form;
}

/** A field of the credential form, by its label. */
export function credentialField(form: Locator, label: string): Locator {
	return form
		.getByTestId('credential-connection-parameter')
		.filter({ hasText: label })
		.getByRole('textbox');
}

/** Waits for the credential test n8n runs when the form opens; true when it passed. */
export async function credentialTestPassed(form: Locator): Promise<boolean> {
	return await form
		.getByTestId('credentials-config-container-test-success')
		.waitFor({ timeout: 15_000 })
		.then(
			() => true,
			() => false,
		);
}

/** The field labels in a panel or form, without the required-field asterisk. */
export async function fieldLabels(container: Locator): Promise<string[]> {
	const labels = await container.locator('label.n8n-input-label').allInnerTexts();
	return labels.map((label) => label.split('\n')[0].replace(/\*$/, '').trim());
}

/** What the operation's panel should show but does not: labels and texts. */
export async function missingFromPanel(
	panel: Locator,
	expected: Pick<OperationPanel, 'labels' | 'texts'>,
): Promise<string[]> {
	const labels = await fieldLabels(panel.getByTestId('node-parameters'));
	const missing = expected.labels.filter((label) => !labels.includes(label));
	for (const text of expected.texts) {
		if (!(await panel.getByText(text).isVisible())) missing.push(text);
	}
	return missing;
}

/** The texts of n8n's error notifications on the page. */
export async function errorToasts(page: Page): Promise<string[]> {
	return await page.locator('.el-notification:has(.el-notification--error)').allInnerTexts();
}
