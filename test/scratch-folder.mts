import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global set-up: the run's temporary folders (packed tarballs, n8n user folders, Chromium
 * profiles, n8n's own) go under one folder, removed when the run ends, so that runs do not fill
 * the disk of a machine that runs many. Workers and the processes they start inherit
 * TMPDIR (os.tmpdir() reads it on each call) and N8N_USER_FOLDER, where n8n-core, run in-process,
 * keeps its settings; an n8n the end-to-end suite starts gets a user folder of its own.
 */
export default function setup(): () => void {
	const folder = mkdtempSync(join(tmpdir(), 'contract-signing-run-'));
	process.env.TMPDIR = folder;
	process.env.N8N_USER_FOLDER = mkdtempSync(join(folder, 'n8n-'));
	return () => rmSync(folder, { recursive: true, force: true });
}
