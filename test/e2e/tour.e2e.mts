/**
 * The steps `npm run demo:video` records, run and recorded in the editor of a fresh n8n at the
 * pace of a test: a change to the panel that breaks the recording fails here first. Each step
 * checks what the service received; this file checks what the whole tour left there, and the
 * video ffmpeg made of it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './n8n-instance.mts';
import type { Video } from './screencast.mts';
import { probeVideo, recordTour, type Chapter } from './tour-recording.mts';
import { startTour, tourSteps, type Tour } from './tour.mts';

const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
	version: string;
};

let tour: Tour;
let stop: (() => Promise<void>) | undefined;
const folder = mkdtempSync(join(tmpdir(), 'contract-signing-tour-'));
let recorded: { video: Video; chapters: Chapter[] } | undefined;

beforeAll(async () => {
	({ tour, stop } = await startTour('check', (line) => process.stdout.write(`${line}\n`)));
});

afterAll(async () => {
	await stop?.();
	rmSync(folder, { recursive: true, force: true });
});

describe('the recording’s tour, in the editor of a fresh n8n', () => {
	// The tour takes 2 to 3 minutes, longer beside a heavy file on 2 cores: no bound on its time here.
	it(
		'runs every step: credential tested, each operation, the refused input, the AI agent',
		{ timeout: 600_000 },
		async () => {
			const steps = tourSteps(version);
			recorded = await recordTour(tour, steps, join(folder, 'tour.mp4'), (line) =>
				process.stdout.write(`tour: ${line}\n`),
			);
			expect(recorded.chapters.map((chapter) => chapter.title)).toEqual(
				steps.map((step) => step.title),
			);
		},
	);

	it('is recorded: an MP4 of 1280 × 720 that lasts as long as the tour', () => {
		const { video, chapters } = recorded!;
		const read = probeVideo(video.path);
		expect({ width: read.width, height: read.height }).toEqual({ width: 1280, height: 720 });
		expect(read.seconds).toBeGreaterThan(chapters.at(-1)!.at);
		expect(Math.abs(read.seconds - video.seconds)).toBeLessThan(1);
	});

	it('leaves at the service what the tour shows: two clients, two contracts, one from the template', () => {
		const { service } = tour.editor;
		const clients = service.clients();
		expect(clients.map((client) => client.users.map((user) => user.email))).toEqual([
			['ada@example.com', 'charles@example.com'],
			['ada@example.com'],
		]);
		expect(service.contracts()).toEqual([
			expect.objectContaining({ clientKey: clients[0].clientKey, templateKey: 'tpl_nda' }),
			expect.objectContaining({ clientKey: clients[1].clientKey, name: 'Service agreement' }),
		]);
	});

	it('shows no error on the page', () => {
		// n8n 2.41.1's own: the walkthrough's two; the nodes panel asking npm's registry about an
		// installed community package (the browser here has no internet); and a new workflow's
		// publication status, asked before the workflow is first saved.
		const n8nOwn = [
			/injectNDVStore\(\) was accessed without an active workflow document store/,
			/status of 404 \(Not Found\) \(at http:\/\/[^/]+\/schemas\/n8n-nodes-base\./,
			/Failed to load resource: net::\w+ \(at https:\/\/registry\.npmjs\.org\/n8n-nodes-contract-signing\)/,
			/status of 404 \(Not Found\) \(at http:\/\/[^/]+\/rest\/workflows\/\w+\/publication-status\)/,
		];
		const problems = tour.editor.problems.filter(
			(problem) => !n8nOwn.some((own) => own.test(problem)),
		);
		expect(problems).toEqual([]);
	});
});
