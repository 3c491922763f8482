/**
 * n8n-editor-labels.json, read: the n8n labels the texts may name, by i18n key and n8n version,
 * and the HTTP Request node's Authentication labels. ui-paths.test.mts checks the texts against
 * it; test/e2e/editor-labels.e2e.mts checks it against the installed n8n.
 */
import { readFileSync } from 'node:fs';

export interface LabelTable {
	labels: Record<string, Record<string, string | null>>;
	httpRequestNode: {
		displayName: string;
		authentication: string;
		authenticationOptions: string[];
		predefinedCredentialType: string;
		credentialType: string;
	};
}

export const LABEL_TABLE = JSON.parse(
	readFileSync(new URL('./n8n-editor-labels.json', import.meta.url), 'utf8'),
) as LabelTable;
