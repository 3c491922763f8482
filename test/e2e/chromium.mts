/**
 * A headless Chromium that needs nothing from the machine: the build shipped inside the npm
 * package @sparticuz/chromium (a devDependency, so `npm install` brings it and nothing is
 * downloaded), unpacked once into .cache/chromium/<version>/.
 *
 * The package ships, brotli-compressed, the browser, the NSS/NSPR/expat libraries it links
 * against (built for Amazon Linux, they run on Debian too) and the Open Sans fonts. Its own
 * JavaScript needs Node 22 and unpacks into /tmp for AWS Lambda, so this module unpacks the files
 * itself and points the browser at its libraries (LD_LIBRARY_PATH) and fonts (FONTCONFIG_PATH).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import { CACHE_DIR, fillCacheFolder, isFilled } from '../cache-folder.mts';

export interface Chromium {
	executablePath: string;
	/** The environment the browser needs: its libraries and its fonts. */
	env: Record<string, string>;
	/** The browser's one font family, Open Sans: its regular TrueType file. */
	fontFile: string;
}

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE_NAME = '@sparticuz/chromium';

export function packageDir(): string {
	// Found by path: the package's exports map does not expose its package.json or bin/ folder.
	const folder = join(REPO_ROOT, 'node_modules', ...PACKAGE_NAME.split('/'));
	if (!existsSync(join(folder, 'bin', 'chromium.br'))) {
		throw new Error(
			`${PACKAGE_NAME} is not installed. The editor tests use the Chromium it ships: run \`npm install\` first.`,
		);
	}
	return folder;
}

async function unbrotli(source: string, target: string): Promise<void> {
	await pipeline(createReadStream(source), createBrotliDecompress(), createWriteStream(target));
}

function runTar(args: string[], archive: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const tar = spawn('tar', args, { stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		tar.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		tar.once('error', (error) =>
			reject(new Error(`unpacking ${archive} needs tar: ${error.message}`)),
		);
		tar.once('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`unpacking ${archive} failed: ${stderr.trim()}`)),
		);
	});
}

/**
 * Unpacks a brotli-compressed tar archive into `folder`. The archive is written out first and
 * tar reads it from the file: GNU tar exits at the archive's end-of-archive marker, and when it
 * is fed through a pipe that exit can close the pipe before Node.js has finished writing to it
 * ("Premature close"), which happened on busy machines.
 */
export async function unpackTarBrotli(archive: string, folder: string): Promise<void> {
	mkdirSync(folder, { recursive: true });
	const tarFile = `${folder}.tar`;
	try {
		await unbrotli(archive, tarFile);
		await runTar(['-xf', tarFile, '-C', folder], archive);
	} finally {
		rmSync(tarFile, { force: true });
	}
}

/** Where fontconfig finds the unpacked fonts of the browser in `folder`, and keeps its cache. */
function fontConfigOf(folder: string): string {
	return [
		'<?xml version="1.0"?>',
		'<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
		'<fontconfig>',
		`  <dir>${join(folder, 'fonts', 'fonts')}</dir>`,
		`  <cachedir>${join(folder, 'fontconfig', 'cache')}</cachedir>`,
		'</fontconfig>',
		'',
	].join('\n');
}

function describe(folder: string): Chromium {
	return {
		executablePath: join(folder, 'chromium'),
		env: {
			LD_LIBRARY_PATH: join(folder, 'al2023', 'lib'),
			FONTCONFIG_PATH: join(folder, 'fontconfig'),
		},
		fontFile: join(folder, 'fonts', 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'),
	};
}

/** The unpacked browser, unpacking it first if this version is not in the cache yet. */
export async function ensureChromium(log: (line: string) => void = () => {}): Promise<Chromium> {
	const source = packageDir();
	const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as {
		version: string;
	};
	const folder = join(CACHE_DIR, 'chromium', version);
	if (isFilled(folder)) {
		// The fonts' path is absolute: written again, it follows a checkout that has moved.
		writeFileSync(join(folder, 'fontconfig', 'fonts.conf'), fontConfigOf(folder));
		return describe(folder);
	}

	log(`unpacking Chromium from ${PACKAGE_NAME} ${version}…`);
	const bin = join(source, 'bin');
	await fillCacheFolder(folder, async (partial) => {
		await unbrotli(join(bin, 'chromium.br'), join(partial, 'chromium'));
		chmodSync(join(partial, 'chromium'), 0o755);
		await unpackTarBrotli(join(bin, 'al2023.tar.br'), join(partial, 'al2023'));
		await unpackTarBrotli(join(bin, 'fonts.tar.br'), join(partial, 'fonts'));
		mkdirSync(join(partial, 'fontconfig'));
		writeFileSync(join(partial, 'fontconfig', 'fonts.conf'), fontConfigOf(folder));
		return `${PACKAGE_NAME} ${version}\n`;
	});
	return describe(folder);
}
