/**
 * The editor tests unpack the Chromium shipped in @sparticuz/chromium before they start. That
 * unpacking must hold on a busy machine: tar fed through a pipe failed there ("Premature close")
 * when it exited before Node.js had finished writing to it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageDir, unpackTarBrotli } from './chromium.mts';

const WORKERS = 8;
const ROUNDS = 4;
const scratch = mkdtempSync(join(tmpdir(), 'contract-signing-chromium-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('unpacking the Chromium the editor tests use', () => {
	it(`unpacks its libraries and fonts whole, ${WORKERS} unpacks at a time`, async () => {
		const bin = join(packageDir(), 'bin');
		const failures: string[] = [];
		await Promise.all(
			Array.from({ length: WORKERS }, async (_, worker) => {
				for (let round = 0; round < ROUNDS; round++) {
					const folder = join(scratch, `${worker}-${round}`);
					for (const archive of ['al2023', 'fonts']) {
						await unpackTarBrotli(join(bin, `${archive}.tar.br`), join(folder, archive)).catch(
							(error: Error) => failures.push(`${archive} ${worker}-${round}: ${error.message}`),
						);
					}
					if (!existsSync(join(folder, 'al2023', 'lib', 'libnss3.so'))) {
						failures.push(`${worker}-${round}: libnss3.so missing`);
					}
					if (!existsSync(join(folder, 'fonts', 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'))) {
						failures.push(`${worker}-${round}: OpenSans-Regular.ttf missing`);
					}
					expect(readdirSync(folder).sort()).toEqual(['al2023', 'fonts']);
				}
			}),
		);
		expect(failures).toEqual([]);
	}, 60_000);
});
