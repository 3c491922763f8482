/**
 * A video of a page, from Chromium's own screencast (DevTools' Page.startScreencast): Chromium
 * sends a JPEG frame whenever the page changes, each is written to a folder with the time it
 * came, and ffmpeg (the build shipped in the npm package @ffmpeg-installer/linux-x64, a
 * devDependency) joins them into an H.264 MP4, each frame shown until the next one came.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const FFMPEG = fileURLToPath(
	new URL('../../node_modules/@ffmpeg-installer/linux-x64/ffmpeg', import.meta.url),
);
const FRAMES_PER_SECOND = 25;

export interface Video {
	path: string;
	seconds: number;
	bytes: number;
	width: number;
	height: number;
}

/** A caption shown in a band under the page from `from` to `to` (seconds of the video). */
export interface CaptionSpan {
	from: number;
	to: number;
	text: string;
}

export interface CaptionBand {
	height: number;
	/** A TrueType font that has every character of the captions. */
	fontFile: string;
	captions: CaptionSpan[];
}

export interface Screencast {
	/** Seconds since the recording started. */
	elapsed(): number;
	/** Ends the recording and encodes it into `path` (.mp4), with the captions under the page. */
	stop(path: string, band?: CaptionBand): Promise<Video>;
}

interface Frame {
	file: string;
	at: number;
}

export function ffmpegPath(): string {
	if (!existsSync(FFMPEG)) {
		throw new Error(
			'@ffmpeg-installer/linux-x64 is not installed. The recording is encoded with the ffmpeg it ships: run `npm install` first.',
		);
	}
	return FFMPEG;
}

export async function startScreencast(page: Page, folder: string): Promise<Screencast> {
	ffmpegPath();
	mkdirSync(folder, { recursive: true });
	const { width, height } = page.viewportSize()!;
	const cdp = await page.context().newCDPSession(page);
	const frames: Frame[] = [];
	const writes: Array<Promise<void>> = [];
	const startedAt = Date.now();
	cdp.on('Page.screencastFrame', ({ data, sessionId }) => {
		const file = join(folder, `frame-${String(frames.length).padStart(6, '0')}.jpg`);
		frames.push({ file, at: (Date.now() - startedAt) / 1000 });
		writes.push(writeFile(file, Buffer.from(data, 'base64')));
		void cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
	});
	await cdp.send('Page.startScreencast', {
		format: 'jpeg',
		quality: 90,
		maxWidth: width,
		maxHeight: height,
	});
	const elapsed = () => (Date.now() - startedAt) / 1000;
	return {
		elapsed,
		async stop(path, band) {
			const seconds = elapsed();
			await cdp.send('Page.stopScreencast');
			await Promise.all(writes);
			await cdp.detach().catch(() => {});
			if (frames.length === 0) throw new Error('Chromium sent no frame of the page');
			writeFileSync(join(folder, 'frames.txt'), concatList(frames, seconds));
			const filters = [
				`scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`,
				...(band ? captionFilters(band, folder, { width, height }) : []),
				// H.264 in yuv420p plays in every browser and player.
				`fps=${FRAMES_PER_SECOND},format=yuv420p`,
			];
			await encode(join(folder, 'frames.txt'), filters.join(','), path);
			const videoHeight = height + (band?.height ?? 0);
			return { path, seconds, bytes: statSync(path).size, width, height: videoHeight };
		},
	};
}

/** ffmpeg's concat list: each frame for as long as it was on screen, the last until the end. */
function concatList(frames: Frame[], seconds: number): string {
	const lines = frames.map((frame, index) => {
		const until = index + 1 < frames.length ? frames[index + 1].at : seconds;
		// The first frame also covers the moment before it came.
		const from = index === 0 ? 0 : frame.at;
		return `file '${frame.file}'\nduration ${Math.max(until - from, 0.001).toFixed(3)}`;
	});
	// The concat demuxer takes the last entry's duration only when the file is listed again.
	return `${lines.join('\n')}\nfile '${frames.at(-1)!.file}'\n`;
}

/** The band under the page, and each caption in it while it is shown. */
function captionFilters(
	band: CaptionBand,
	folder: string,
	page: { width: number; height: number },
): string[] {
	const filters = [`pad=${page.width}:${page.height + band.height}:0:0:color=0x14141f`];
	for (const [index, caption] of band.captions.entries()) {
		if (!caption.text) continue;
		// From a file, so that no character of the caption needs escaping for ffmpeg.
		const file = join(folder, `caption-${index}.txt`);
		writeFileSync(file, caption.text);
		filters.push(
			`drawtext=fontfile=${band.fontFile}:textfile=${file}:expansion=none:fontcolor=white:fontsize=21:x=(w-text_w)/2:y=${page.height}+(${band.height}-text_h)/2:enable='between(t,${caption.from.toFixed(3)},${caption.to.toFixed(3)})'`,
		);
	}
	return filters;
}

async function encode(list: string, filter: string, path: string): Promise<void> {
	const args = [
		'-hide_banner',
		'-loglevel',
		'error',
		'-y',
		'-f',
		'concat',
		'-safe',
		'0',
		'-i',
		list,
		'-vf',
		filter,
		'-c:v',
		'libx264',
		'-preset',
		'veryfast',
		'-crf',
		'23',
		'-movflags',
		'+faststart',
		path,
	];
	await new Promise<void>((resolve, reject) => {
		const ffmpeg = spawn(ffmpegPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		ffmpeg.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		ffmpeg.once('error', reject);
		ffmpeg.once('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`)),
		);
	});
}
