/**
 * Screenshots of the node's panel for each operation and of the credential form, taken in the
 * real n8n editor after a run of the editor workflow against the stand-in service.
 *
 *   npm run screenshots    # writes docs/screenshots/*.png
 *
 * Uses the Chromium shipped in the npm package @sparticuz/chromium (test/e2e/chromium.mts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import {
	closeNodePanel,
	credentialTestPassed,
	fieldLabels,
	CREDENTIAL_LABELS,
	missingFromPanel,
	openCredentialForm,
	openNodePanel,
	OPERATION_PANELS,
	runEditorWorkflow,
	startEditor,
	type Viewport,
} from '../test/e2e/editor.mts';

const SCREENSHOTS_DIR = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const VIEWPORT: Viewport = { width: 1440, height: 900 };
/** Client → Create with one user runs longer than 900 px; this shows it down to Simplify. */
const TALLER_PANELS: Record<string, Viewport> = { 'Create Client': { width: 1440, height: 1240 } };
/** At n8n's 420 px, Get User's `$('Create Client').item.json.defaultUserKey` loses its `}}`. */
const PARAMETERS_WIDER_BY = 30;

const step = (line: string) => process.stdout.write(`• ${line}\n`);

/**
 * The items the node received and sent, both as a tree of fields: a table of the output would
 * be cut off at the panel's edge.
 */
async function showRunData(panel: Locator): Promise<void> {
	const output = panel.getByTestId('output-panel');
	await output.getByTestId('radio-button-schema').click();
	await output.getByTestId('run-data-schema-item').first().waitFor();
	await panel.getByTestId('ndv-input-panel').getByTestId('run-data-schema-item').first().waitFor();
}

/** Drags the parameters column's right edge, as a user can; n8n keeps the width for later panels. */
async function widenParameters(page: Page, panel: Locator, by: number): Promise<void> {
	const handle = panel.locator('[data-test-id="resize-handle"][data-dir="right"]');
	const box = await handle.boundingBox();
	if (!box) throw new Error('the node panel has no handle to resize its parameters');
	const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.move(x + by, y, { steps: 5 });
	await page.mouse.up();
}

/** The buttons to the neighbouring nodes stick out of the panel and would be cut in half. */
const HIDE_NEIGHBOUR_BUTTONS = '[data-test-id="floating-nodes"] { visibility: hidden; }';

/** The address README.md's examples use; the stand-in's loopback address means nothing to a reader. */
const EXAMPLE_BASE_URL = 'https://api.contract-signing.example';
/** The banner of the test that passed against the stand-in: it says nothing about the new address. */
const HIDE_CREDENTIAL_TEST =
	'[data-test-id="credentials-config-container-test-success"] { display: none; }';

async function main() {
	mkdirSync(SCREENSHOTS_DIR, { recursive: true });
	const editor = await startEditor({ build: true, viewport: VIEWPORT, log: step });
	try {
		step('running the workflow in the editor…');
		await runEditorWorkflow(editor);
		const getUser = await openNodePanel(editor, 'Get User');
		await widenParameters(editor.page, getUser, PARAMETERS_WIDER_BY);
		await closeNodePanel(editor);

		for (const operation of OPERATION_PANELS) {
			await editor.page.setViewportSize(TALLER_PANELS[operation.nodeName] ?? VIEWPORT);
			const panel = await openNodePanel(editor, operation.nodeName);
			// A collection's fields appear a moment after the panel.
			let missing = await missingFromPanel(panel, operation);
			for (let waited = 0; missing.length > 0 && waited < 5000; waited += 250) {
				await editor.page.waitForTimeout(250);
				missing = await missingFromPanel(panel, operation);
			}
			if (missing.length > 0) {
				throw new Error(`the ${operation.operation} panel lacks: ${missing.join(', ')}`);
			}
			await showRunData(panel);
			const file = join(SCREENSHOTS_DIR, operation.screenshot);
			await panel.screenshot({ path: file, animations: 'disabled', style: HIDE_NEIGHBOUR_BUTTONS });
			step(`${operation.operation}: ${file}`);
			await closeNodePanel(editor);
		}

		await editor.page.setViewportSize(VIEWPORT);
		const panel = await openNodePanel(editor, OPERATION_PANELS[0].nodeName);
		const form = await openCredentialForm(editor, panel);
		const labels = await fieldLabels(form);
		const missing = CREDENTIAL_LABELS.filter((label) => !labels.includes(label));
		if (missing.length > 0) throw new Error(`the credential form lacks: ${missing.join(', ')}`);
		if (!(await credentialTestPassed(form))) {
			throw new Error('the credential test did not pass in the credential form');
		}
		// Typed, not saved: the credential keeps the stand-in's address.
		const baseUrl = form
			.getByTestId('credential-connection-parameter')
			.filter({ hasText: 'Base URL' })
			.getByRole('textbox');
		await baseUrl.fill(EXAMPLE_BASE_URL);
		await baseUrl.blur();
		const file = join(SCREENSHOTS_DIR, 'credential.png');
		await form.screenshot({ path: file, animations: 'disabled', style: HIDE_CREDENTIAL_TEST });
		step(`credential: ${file}`);

		if (editor.problems.length > 0) {
			throw new Error(`the editor reported errors:\n${editor.problems.join('\n')}`);
		}
	} finally {
		await editor.stop();
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`screenshots failed: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	process.exitCode = 1;
});
