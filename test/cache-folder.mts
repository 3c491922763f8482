/**
 * Folders under the git-ignored .cache/ that the tests fill once and then reuse (the unpacked
 * Chromium, Redis's Debian files). A folder is filled in a sibling `.partial-<pid>` folder that
 * takes the final name only once it is complete, so a fill that failed or was interrupted never
 * looks ready. Two test files that fill the same folder at once (the e2e suite runs two at a time)
 * each fill their own partial folder; the first to finish gives the folder, and the other's is
 * dropped, so a folder in use is never replaced.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CACHE_DIR = fileURLToPath(new URL('../.cache/', import.meta.url));
const READY_MARKER = '.ready';

export function isFilled(folder: string): boolean {
	return existsSync(join(folder, READY_MARKER));
}

/** Fills `folder` through `fill`, which writes into the folder it is given and returns a note. */
export async function fillCacheFolder(
	folder: string,
	fill: (partial: string) => Promise<string> | string,
): Promise<void> {
	const partial = `${folder}.partial-${process.pid}`;
	rmSync(partial, { recursive: true, force: true });
	mkdirSync(partial, { recursive: true });
	try {
		writeFileSync(join(partial, READY_MARKER), await fill(partial));
		if (isFilled(folder)) return;
		rmSync(folder, { recursive: true, force: true });
		renameSync(partial, folder);
	} finally {
		rmSync(partial, { recursive: true, force: true });
	}
}
