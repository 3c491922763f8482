/**
 * The screen recording n8n's verification asks for, made from the real editor in one take:
 *
 *   npm run demo:video    # writes recordings/n8n-nodes-contract-signing-<version>.mp4
 *
 * The local stand-in service, a fresh n8n 2.41.1 with the packed package, and headless Chromium
 * (all as the demo and the walkthrough start them) run the tour of test/e2e/tour.mts at a pace a
 * person can follow; Chromium's screencast is encoded by the ffmpeg shipped in the npm package
 * @ffmpeg-installer/linux-x64. test/e2e/tour.e2e.mts runs and records the same steps in `npm test`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../test/e2e/n8n-instance.mts';
import { recordTour } from '../test/e2e/tour-recording.mts';
import { startTour, tourSteps } from '../test/e2e/tour.mts';

const RECORDINGS_DIR = join(PACKAGE_ROOT, 'recordings');
/** What n8n's verification accepts. */
const MOST_SECONDS = 5 * 60;

const log = (line: string) => process.stdout.write(`${line}\n`);
const clock = (seconds: number) =>
	`${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
	version: string;
};
const name = `${PACKAGE_NAME}-${version}`;
mkdirSync(RECORDINGS_DIR, { recursive: true });

const { tour, stop } = await startTour('watch', log, { build: true });
try {
	log('recording the tour…');
	const { video, chapters } = await recordTour(
		tour,
		tourSteps(version),
		join(RECORDINGS_DIR, `${name}.mp4`),
		log,
	);
	const lines = chapters.map(
		(chapter) => `${clock(chapter.at)}  ${chapter.title}: ${chapter.caption}`,
	);
	const chaptersFile = join(RECORDINGS_DIR, `${name}.txt`);
	writeFileSync(chaptersFile, `${lines.join('\n')}\n`);
	log('');
	log(`video:    ${video.path}`);
	log(
		`length:   ${clock(video.seconds)} (${video.seconds.toFixed(1)} s), ${video.width} × ${video.height}, ${(video.bytes / 1024 / 1024).toFixed(1)} MB`,
	);
	log(`chapters: ${chaptersFile}`);
	for (const line of lines) log(`  ${line}`);
	if (video.seconds > MOST_SECONDS) {
		throw new Error(`the video is ${clock(video.seconds)} long; n8n accepts at most 5 minutes`);
	}
} finally {
	await stop();
}
