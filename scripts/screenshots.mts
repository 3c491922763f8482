/**
 * Screenshots of the node's panel for each operation and of the credential form, taken in the
 * real n8n editor after a run of the editor workflow against the stand-in service.
 *
 *   npm run screenshots    # writes docs/screenshots/*.png
 *
 * Needs Debian's Chromium at /usr/bin/chromium.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from 'playwright-core';
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

/** The buttons to the neighbouring nodes stick out of the panel and would be cut in half. */
const HIDE_NEIGHBOUR_BUTTONS = '[data-test-id="floating-nodes"] { visibility: hidden; }';

async function main() {
	mkdirSync(SCREENSHOTS_DIR, { recursive: true });
	const editor = await startEditor({ build: true, viewport: VIEWPORT, log: step });
	try {
		step('running the workflow in the editor…');
		await runEditorWorkflow(editor);

		for (const operation of OPERATION_PANELS) {
			await editor.page.setViewportSize(TALLER_PANELS[operation.nodeName] ?? VIEWPORT);
			const panel = await openNodePanel(editor, operation.nodeName);
			const missing = await missingFromPanel(panel, operation);
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
		await form.getByRole('button', { name: 'Retry' }).waitFor();
		const file = join(SCREENSHOTS_DIR, 'credential.png');
		await form.screenshot({ path: file, animations: 'disabled' });
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
