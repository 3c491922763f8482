/**
 * The package in n8n's editor, in headless Chromium: each operation's panel and the credential
 * form show their fields, and nothing on the page reports an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	closeNodePanel,
	CREDENTIAL_LABELS,
	credentialTestPassed,
	errorToasts,
	fieldLabels,
	missingFromPanel,
	openCredentialForm,
	openNodePanel,
	OPERATION_PANELS,
	runEditorWorkflow,
	startEditor,
	type EditorSession,
} from './editor.mts';

let editor: EditorSession | undefined;

beforeAll(async () => {
	editor = await startEditor({ log: (line) => process.stdout.write(`${line}\n`) });
	await runEditorWorkflow(editor);
});

afterAll(async () => {
	await editor?.stop();
});

describe('n8n editor', () => {
	it.each(OPERATION_PANELS)('shows the fields of $operation in its panel', async (operation) => {
		const panel = await openNodePanel(editor!, operation.nodeName);
		await expect.poll(() => missingFromPanel(panel, operation)).toEqual([]);
		expect(await errorToasts(editor!.page)).toEqual([]);
		await closeNodePanel(editor!);
	});

	it('shows Base URL and API Key in the credential form, and its test passes', async () => {
		const panel = await openNodePanel(editor!, OPERATION_PANELS[0].nodeName);
		const form = await openCredentialForm(editor!, panel);
		expect(await fieldLabels(form)).toEqual(expect.arrayContaining(CREDENTIAL_LABELS));
		expect(await credentialTestPassed(form)).toBe(true);
		expect(await errorToasts(editor!.page)).toEqual([]);
	});

	it('reports no page errors or console errors', () => {
		expect(editor!.problems).toEqual([]);
	});
});
