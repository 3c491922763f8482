/**
 * The tour of the node that n8n's verification asks to see, in the editor of a fresh n8n: the
 * package installed, the node found in the nodes panel, the credential created and tested, each
 * operation run, a bad input refused, and the node used as a tool by an AI agent. Each step
 * checks what the service received, so a recording of a broken tour cannot be made.
 *
 * `npm run demo:video` records it (pace 'watch'); test/e2e/tour.e2e.mts runs it (pace 'check').
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Locator, Page } from 'playwright-core';
import type { RecordedRequest } from '../service/stand-in.mts';
import { agentWorkflow, AGENT_PROMPT } from './agent-workflow.mts';
import {
	boxOf,
	canvasNode,
	closeNodePanel,
	credentialField,
	credentialTestPassed,
	letTheEditSettle,
	openCredentialForm,
	panelField,
	startEditor,
	type EditorSession,
} from './editor.mts';
import { CREDENTIAL_TYPE, PACKAGE_NAME } from './n8n-instance.mts';
import { startScriptedModel } from './scripted-model.mts';

export const OPENAI_CREDENTIAL = { id: 'csTourChatModel', name: 'OpenAI (scripted model)' };

/** 'watch': pauses and typing a person can follow; 'check': as fast as the editor allows. */
export type Pace = 'watch' | 'check';

export interface TourStep {
	title: string;
	/** What the step shows, on the page while it runs. */
	caption: string;
	run(tour: Tour): Promise<void>;
}

export interface StepStart {
	title: string;
	/** Seconds since the tour started. */
	at: number;
}

const TEMPLATE_KEY = 'tpl_nda';
const USERS = [
	{ fullname: 'Ada Lovelace', email: 'ada@example.com' },
	{ fullname: 'Charles Babbage', email: 'charles@example.com' },
];

/** A dot where the pointer is: headless Chromium draws no pointer of its own. */
const POINTER = `(() => {
	const install = () => {
		if (document.getElementById('tour-pointer')) return;
		const pointer = document.createElement('div');
		pointer.id = 'tour-pointer';
		pointer.style.cssText = 'position:fixed;left:-40px;top:-40px;width:18px;height:18px;margin:-9px 0 0 -9px;border-radius:50%;background:rgba(255,109,90,.55);border:2px solid #ff6d5a;z-index:2147483647;pointer-events:none;transition:transform .1s';
		document.body.append(pointer);
		const at = (event) => { pointer.style.left = event.clientX + 'px'; pointer.style.top = event.clientY + 'px'; };
		addEventListener('mousemove', at, true);
		addEventListener('mousedown', (event) => { at(event); pointer.style.transform = 'scale(.6)'; }, true);
		addEventListener('mouseup', () => { pointer.style.transform = ''; }, true);
	};
	if (document.body) install(); else addEventListener('DOMContentLoaded', install);
})()`;

export interface Caption {
	/** Seconds since the tour started. */
	at: number;
	/** Empty: no caption from then on. */
	text: string;
}

export class Tour {
	readonly page: Page;
	readonly captions: Caption[] = [];
	private startedAt = Date.now();

	constructor(
		readonly editor: EditorSession,
		readonly pace: Pace,
	) {
		this.page = editor.page;
	}

	elapsed(): number {
		return (Date.now() - this.startedAt) / 1000;
	}

	restartClock(): void {
		this.startedAt = Date.now();
		this.captions.length = 0;
	}

	/** Time for a person to read what the page shows; none when checking. */
	async pause(seconds: number): Promise<void> {
		if (this.pace === 'watch') await sleep(seconds * 1000);
	}

	/** What the recording shows under the page from now on: the step's caption. */
	caption(text: string): void {
		this.captions.push({ at: this.elapsed(), text });
	}

	async goto(url: string): Promise<void> {
		await this.page.goto(url);
		await this.page.evaluate(POINTER);
	}

	/** Types as a person does, key by key (n8n's fields react to each key). */
	async type(field: Locator, text: string): Promise<void> {
		await field.click();
		await field.pressSequentially(text, { delay: this.pace === 'watch' ? 45 : 0 });
	}

	get panel(): Locator {
		return this.page.getByTestId('ndv');
	}

	/** The field of the open panel with this label. */
	field(label: string): Locator {
		return panelField(this.panel, label);
	}

	canvasNode(name: string): Locator {
		return canvasNode(this.page, name);
	}

	/** The nodes panel, searched for this node, and one of its actions picked. */
	async pickAction(action: string): Promise<void> {
		const nodes = this.page.getByTestId('node-creator');
		await this.type(nodes.getByRole('textbox', { name: 'Search nodes...' }), 'Contract Signing');
		await nodes.getByText('Contract Signing', { exact: true }).first().click();
		await this.pause(1.5);
		await nodes.getByText(action, { exact: true }).click();
		await this.panel.getByTestId('node-parameters').waitFor();
	}

	/** The + after a node on the canvas, then the node's action: a new step after it. */
	async addAfter(nodeName: string, action: string): Promise<void> {
		if (await this.panel.isVisible()) await closeNodePanel(this.editor);
		await this.page.getByRole('button', { name: 'Zoom to Fit' }).click();
		await this.pause(0.5);
		await this.canvasNode(nodeName).getByTestId('canvas-handle-plus').click();
		await this.pickAction(action);
	}

	/** Drags a field of the input from the panel's left onto a parameter, as users map data. */
	async map(inputField: string, label: string): Promise<void> {
		const from = await boxOf(
			this.panel.getByTestId('ndv-input-panel').getByText(inputField, { exact: true }).first(),
		);
		const to = await boxOf(this.field(label).getByRole('textbox'));
		const { mouse } = this.page;
		await mouse.move(from.x + from.width / 2, from.y + from.height / 2, { steps: 10 });
		await mouse.down();
		await mouse.move(from.x + 40, from.y + 10, { steps: 5 });
		await mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 25 });
		await sleep(300);
		await mouse.up();
		await this.field(label).getByText(`{{ $json.${inputField} }}`).waitFor();
		// The expression's preview stays open while it has the focus, over the next fields, and
		// takes back the keys typed there; a click on its label (not focusable) blurs it.
		await this.field(label).locator('label.n8n-input-label').click();
		await letTheEditSettle();
	}

	/** Execute step in the open panel; the output is shown as JSON once it has `expected`. */
	async executeStep(expected: string): Promise<void> {
		await letTheEditSettle();
		await this.panel.getByTestId('node-execute-button').click();
		const output = this.panel.getByTestId('output-panel');
		await output.getByText(expected).first().waitFor();
		await output.getByTestId('radio-button-json').click();
	}

	/** The service's requests from `from` on, failing the tour unless there are `count`. */
	sentSince(from: number, count: number, what: string): RecordedRequest[] {
		const sent = this.editor.service.requests.slice(from);
		if (sent.length !== count) {
			throw new Error(`${what}: the service received ${sent.length} requests, not ${count}`);
		}
		return sent;
	}
}

function expectBody(request: RecordedRequest, expected: unknown, what: string): void {
	const [sent, wanted] = [JSON.stringify(request.body), JSON.stringify(expected)];
	if (sent !== wanted) throw new Error(`${what}: the service received ${sent}, not ${wanted}`);
}

function dataOf(request: RecordedRequest): Record<string, unknown> {
	return (request.body as { data: Record<string, unknown> }).data;
}

/** The install card: a page of its own before the editor, since the install is not in it. */
function installCard(version: string, n8nVersion: string): string {
	const line = (text: string) => `<p style="margin:14px 0">${text}</p>`;
	return `<body style="margin:0;height:100vh;display:flex;align-items:center;justify-content:center;background:#f6f6f8;font:20px/1.5 system-ui,sans-serif;color:#222">
<div style="max-width:900px">
<h1 style="font-size:34px;margin:0 0 24px">${PACKAGE_NAME} ${version} in n8n ${n8nVersion}</h1>
${line('Installed as n8n installs a community package: its tarball (<code>npm pack</code>) unpacked into <code>~/.n8n/nodes/node_modules/</code>, then n8n started.')}
${line('The package is not published yet, so it cannot come from npm through <b>Settings › Community Nodes › Install</b>; once published, that is where users install it.')}
${line('The Contract Signing service is a local stand-in that follows the API reference; the AI agent’s chat model is a scripted stand-in, as this machine has no internet.')}
</div></body>`;
}

export function tourSteps(packageVersion: string): TourStep[] {
	let clientKey = '';
	return [
		{
			title: 'The package installed',
			caption: 'A fresh n8n with the packed package installed, nothing else',
			async run(tour) {
				await tour.page.setContent(installCard(packageVersion, tour.editor.n8nVersion));
				await tour.page.evaluate(POINTER);
				await tour.pause(9);
			},
		},
		{
			title: 'The node in the nodes panel',
			caption: 'A new workflow: the nodes panel finds Contract Signing and its three actions',
			async run(tour) {
				await tour.goto(`${tour.editor.url}/home/workflows`);
				await tour.pause(1.5);
				// n8n's Overview offers one or the other, depending on what it has shown before.
				await tour.page
					.getByRole('button', { name: 'Create workflow' })
					.or(tour.page.getByText('Build a workflow', { exact: true }))
					.first()
					.click();
				await tour.page.waitForURL(/\/workflow\/[^/?]+/);
				const nodes = tour.page.getByTestId('node-creator');
				const search = nodes.getByRole('textbox', { name: 'Search nodes...' });
				// "Build a workflow" opens the nodes panel; "Create workflow" leaves that to the user.
				await search.waitFor({ timeout: 3000 }).catch(async () => {
					await tour.page.getByRole('button', { name: 'Open nodes panel' }).click();
				});
				await tour.type(search, 'Contract Signing');
				await tour.pause(2);
				await nodes.getByText('Contract Signing', { exact: true }).first().click();
				await nodes.getByText('Create a client', { exact: true }).waitFor();
				await tour.pause(4);
			},
		},
		{
			title: 'The credential, created and tested',
			caption: 'Create a client: Connect to Contract Signing, Base URL and API Key, Save',
			async run(tour) {
				const { page } = tour;
				await page
					.getByTestId('node-creator')
					.getByText('Create a client', { exact: true })
					.click();
				await tour.panel.getByTestId('node-parameters').waitFor();
				await tour.pause(1.5);
				await page.getByRole('button', { name: 'Connect to Contract Signing' }).click();
				const form = page.getByTestId('editCredential-modal');
				await tour.type(credentialField(form, 'Base URL'), tour.editor.service.url);
				// Pasted, as a key is.
				await credentialField(form, 'API Key').fill(tour.editor.service.apiKey);
				await letTheEditSettle();
				await tour.pause(1);
				await form.getByRole('button', { name: 'Save' }).click();
				await form.waitFor({ state: 'hidden' });
				tour.caption(
					'Saved and picked. Opened again, n8n tests it: Connection tested successfully',
				);
				await tour.pause(1);
				const tested = await openCredentialForm(tour.editor, tour.panel);
				if (!(await credentialTestPassed(tested))) {
					throw new Error('the saved credential does not pass its test');
				}
				await tour.pause(4);
				await form.getByRole('button', { name: 'Close this dialog' }).click();
				await form.waitFor({ state: 'hidden' });
			},
		},
		{
			title: 'Client → Create with two users',
			caption: 'Client → Create: the client and two users; the first becomes the default user',
			async run(tour) {
				const from = tour.editor.service.requests.length;
				await tour.type(tour.field('Full Name').first().getByRole('textbox'), 'Ada Lovelace');
				await tour.type(tour.field('Email').first().getByRole('textbox'), 'ada@example.com');
				await tour.type(tour.field('Organization').getByRole('textbox'), 'Analytical Engines Ltd');
				for (const [index, user] of USERS.entries()) {
					await tour.panel.getByRole('button', { name: 'Add User' }).click();
					await tour.type(
						tour
							.field('Full Name')
							.nth(index + 1)
							.getByRole('textbox'),
						user.fullname,
					);
					await tour.type(
						tour
							.field('Email')
							.nth(index + 1)
							.getByRole('textbox'),
						user.email,
					);
				}
				await tour.pause(1);
				await tour.executeStep('clientKey');
				tour.caption(
					'Execute step: clientKey, defaultUserKey and each user’s userKey, ready to map',
				);
				const [sent] = tour.sentSince(from, 1, 'Client → Create');
				expectBody(
					sent,
					{
						data: {
							action: 'create',
							client: {
								fullname: 'Ada Lovelace',
								email: 'ada@example.com',
								organization: 'Analytical Engines Ltd',
								users: USERS,
							},
						},
					},
					'Client → Create',
				);
				clientKey = tour.editor.service.clients().at(-1)!.clientKey;
				await tour.pause(6);
			},
		},
		{
			title: 'Contract → Create from a template',
			caption:
				'Contract → Create: clientKey dragged from the input, a name, and Template Key under Additional Fields',
			async run(tour) {
				const from = tour.editor.service.requests.length;
				await tour.addAfter('Create a client', 'Create a contract');
				await tour.pause(1);
				await tour.map('clientKey', 'Client Key');
				await tour.type(tour.field('Contract Name').getByRole('textbox'), 'Service agreement');
				const additional = tour.panel
					.getByTestId('parameter-item')
					.filter({ has: tour.page.getByText('Additional Fields', { exact: true }) });
				await additional.getByTestId('collection-parameter-add').click();
				await tour.page.getByRole('option', { name: 'Template Key', exact: true }).click();
				await tour.type(tour.field('Template Key').getByRole('textbox'), TEMPLATE_KEY);
				await tour.pause(1);
				await tour.executeStep('contractKey');
				tour.caption('Execute step: the contract’s contractKey, created from the template');
				const [sent] = tour.sentSince(from, 1, 'Contract → Create');
				expectBody(
					sent,
					{
						data: {
							action: 'create',
							clientKey,
							contract: { name: 'Service agreement', templateKey: TEMPLATE_KEY },
						},
					},
					'Contract → Create',
				);
				await tour.pause(5);
			},
		},
		{
			title: 'User → Get by email',
			caption: 'User → Get: the client’s user found by email',
			async run(tour) {
				const from = tour.editor.service.requests.length;
				await tour.addAfter('Create a contract', 'Get a user');
				await tour.pause(1);
				await tour.map('clientKey', 'Client Key');
				await tour.type(tour.field('Email').getByRole('textbox'), USERS[1].email);
				await tour.pause(1);
				await tour.executeStep('userKey');
				tour.caption('Execute step: Charles Babbage’s userKey');
				const [sent] = tour.sentSince(from, 1, 'User → Get');
				expectBody(
					sent,
					{ data: { action: 'read', clientKey, user: { email: USERS[1].email } } },
					'User → Get',
				);
				await tour.pause(5);
			},
		},
		{
			title: 'A bad input, refused before sending',
			caption: 'Client → Create with Full Name and every other field empty',
			async run(tour) {
				const from = tour.editor.service.requests.length;
				await tour.addAfter('Get a user', 'Create a client');
				await tour.pause(2);
				await letTheEditSettle();
				await tour.panel.getByTestId('node-execute-button').click();
				const message = tour.panel.getByTestId('output-panel').getByTestId('node-error-message');
				await message.getByText('There is nothing to create the client from').waitFor();
				tour.caption('The node names the fields to fill and sends nothing to the service');
				tour.sentSince(from, 0, 'the empty Client → Create');
				await tour.pause(6);
				await closeNodePanel(tour.editor);
			},
		},
		{
			title: 'The node as an AI agent’s tool',
			caption:
				'An AI Agent with the Contract Signing tools Create a client and Create a contract, imported from a file',
			async run(tour) {
				const { page } = tour;
				const from = tour.editor.service.requests.length;
				const credential = await contractSigningCredential(tour);
				const workflow = agentWorkflow({
					id: 'csTourAgent',
					trigger: 'chat',
					contractSigning: credential,
					openAi: OPENAI_CREDENTIAL,
				});
				await page.getByRole('button', { name: 'Add new item' }).click();
				await page.getByRole('menuitem', { name: 'New workflow', exact: true }).click();
				await page.getByText('Add first step').waitFor();
				await tour.pause(1);
				await page.getByRole('button', { name: 'More actions' }).first().click();
				await page.getByRole('menuitem', { name: 'Import', exact: true }).hover();
				const fromFile = page.getByRole('menuitem', { name: 'From file', exact: true });
				await fromFile.waitFor();
				await tour.pause(1);
				const [chooser] = await Promise.all([page.waitForEvent('filechooser'), fromFile.click()]);
				await chooser.setFiles({
					name: 'ai-agent.json',
					mimeType: 'application/json',
					buffer: Buffer.from(JSON.stringify(workflow)),
				});
				await tour.canvasNode('AI Agent').waitFor();
				await tour.pause(3);
				tour.caption('The tool’s fields come from the model: $fromAI');
				await tour.canvasNode('Create Client').dblclick();
				await tour.field('Full Name').first().waitFor();
				await tour.pause(4);
				await closeNodePanel(tour.editor);
				tour.caption('Asked in the chat, the agent creates a client, then a contract for it');
				await page.getByRole('button', { name: 'Open chat' }).last().click();
				await tour.type(page.getByTestId('chat-input'), AGENT_PROMPT);
				await page.keyboard.press('Enter');
				await page
					.getByText(/Created client cli_\w+ and contract ctr_\w+/)
					.first()
					.waitFor();
				tour.caption('The chat shows both keys; the logs, each call of a tool');
				const [client, contract] = tour.sentSince(from, 2, 'the AI agent');
				const agentClientKey = (dataOf(contract) as { clientKey?: string }).clientKey;
				if (dataOf(client).action !== 'create' || !agentClientKey?.startsWith('cli_')) {
					throw new Error(`the AI agent sent ${JSON.stringify([client.body, contract.body])}`);
				}
				await tour.pause(7);
			},
		},
	];
}

/** The Contract Signing credential the tour created in the editor: its id is n8n's own. */
async function contractSigningCredential(tour: Tour) {
	const answer = await tour.page.request.get(`${tour.editor.url}/rest/credentials`);
	const { data } = (await answer.json()) as {
		data: Array<{ id: string; name: string; type: string }>;
	};
	const found = data.find((credential) => credential.type === CREDENTIAL_TYPE);
	if (!found) throw new Error('the tour’s Contract Signing credential is not in n8n');
	return { id: found.id, name: found.name };
}

/** Runs every step in turn; returns when each started. */
export async function runTour(
	tour: Tour,
	steps: TourStep[],
	log: (line: string) => void = () => {},
): Promise<StepStart[]> {
	const starts: StepStart[] = [];
	tour.restartClock();
	await tour.page.evaluate(POINTER);
	for (const step of steps) {
		starts.push({ title: step.title, at: tour.elapsed() });
		log(`${tour.elapsed().toFixed(1).padStart(6)} s  ${step.title}`);
		tour.caption(step.caption);
		try {
			await step.run(tour);
		} catch (error) {
			const screenshot = join(tmpdir(), `tour-failed-${Date.now()}.png`);
			await tour.page.screenshot({ path: screenshot }).catch(() => {});
			throw new Error(`the step "${step.title}" failed (the page: ${screenshot})`, {
				cause: error,
			});
		}
	}
	tour.caption('');
	return starts;
}

/** The page's size: the recording is 1280 × 720, the captions in a band under the page. */
export const TOUR_VIEWPORT = { width: 1280, height: 650 };

/**
 * A fresh n8n with the packed package and nothing else but the chat model's credential (the
 * scripted model on 127.0.0.1), and the editor open in Chromium, signed in as the owner.
 */
export async function startTour(
	pace: Pace,
	log: (line: string) => void = () => {},
	options: { build?: boolean } = {},
): Promise<{ tour: Tour; stop(): Promise<void> }> {
	const model = await startScriptedModel();
	try {
		const editor = await startEditor({
			empty: true,
			build: options.build,
			viewport: TOUR_VIEWPORT,
			log,
			otherCredentials: [
				{
					...OPENAI_CREDENTIAL,
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted', url: model.url },
				},
			],
		});
		const stop = async () => {
			await editor.stop();
			await model.close();
		};
		return { tour: new Tour(editor, pace), stop };
	} catch (error) {
		await model.close();
		throw error;
	}
}
