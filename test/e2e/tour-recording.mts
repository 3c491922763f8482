/**
 * The tour recorded: Chromium's screencast of the page while the tour runs, encoded with each
 * step's caption in a band under the page. Used by `npm run demo:video` and, at the tour test's
 * pace, by test/e2e/tour.e2e.mts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './chromium.mts';
import { ffmpegPath, startScreencast, type CaptionSpan, type Video } from './screencast.mts';
import { runTour, TOUR_VIEWPORT, type Caption, type Tour, type TourStep } from './tour.mts';

/** The video's height: the page's 650 and the captions' band make 720. */
const VIDEO_HEIGHT = 720;

export interface Chapter {
	/** Seconds into the video. */
	at: number;
	title: string;
	caption: string;
}

/** Each caption until the next one; Open Sans, the font at hand, has no arrow but has ›. */
function spans(captions: Caption[], offset: number, end: number): CaptionSpan[] {
	return captions.map((caption, index) => ({
		from: caption.at + offset,
		to: index + 1 < captions.length ? captions[index + 1].at + offset : end,
		text: caption.text.replaceAll('→', '›'),
	}));
}

export async function recordTour(
	tour: Tour,
	steps: TourStep[],
	path: string,
	log: (line: string) => void = () => {},
): Promise<{ video: Video; chapters: Chapter[] }> {
	const frames = mkdtempSync(join(tmpdir(), 'contract-signing-frames-'));
	try {
		const screencast = await startScreencast(tour.page, frames);
		const offset = screencast.elapsed();
		const starts = await runTour(tour, steps, log);
		const end = screencast.elapsed();
		const video = await screencast.stop(path, {
			height: VIDEO_HEIGHT - TOUR_VIEWPORT.height,
			fontFile: (await ensureChromium()).fontFile,
			captions: spans(tour.captions, offset, end),
		});
		const chapters = starts.map((start, index) => ({
			at: start.at + offset,
			title: start.title,
			caption: steps[index].caption,
		}));
		return { video, chapters };
	} finally {
		rmSync(frames, { recursive: true, force: true });
	}
}

/** What ffmpeg reads in the file: its length in seconds and its frame size. */
export function probeVideo(path: string): { seconds: number; width: number; height: number } {
	const { stderr } = spawnSync(ffmpegPath(), ['-hide_banner', '-i', path], { encoding: 'utf8' });
	const duration = /Duration: (\d+):(\d+):(\d+\.\d+)/.exec(stderr);
	const size = /Video: .*?, (\d{3,})x(\d{3,})/.exec(stderr);
	if (!duration || !size) throw new Error(`ffmpeg cannot read ${path}: ${stderr.slice(-500)}`);
	const [, hours, minutes, seconds] = duration.map(Number);
	return {
		seconds: hours * 3600 + minutes * 60 + seconds,
		width: Number(size[1]),
		height: Number(size[2]),
	};
}
