/**
 * How long the node's waits and its Stop take, through n8n's engine (n8n-core's WorkflowExecute, in
 * this process) against the stand-in: the times the behaviour tests check only by order and count,
 * because a bound on elapsed time fails on a busy machine rather than on the code.
 *
 *   npm run bench:waits -- [--repeat 5]
 *
 * Each row runs --repeat times, each on a new stand-in (a new account for the node's pace), and
 * gives the median and the range, beside what the README and docs promise for it. The test that
 * checks the same behaviour by order and count is named in the row.
 */
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IDataObject } from 'n8n-workflow';
import { runWorkflow } from '../test/engine/n8n-engine.mts';
import {
	CONTACTS,
	contacts,
	CREATE_CLIENT,
	rateLimited,
	requestTimes,
} from '../test/scenarios/contacts.mts';
import { startStandIn, type StandIn } from '../test/service/stand-in.mts';

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

const REPEAT = option('repeat', 5);
const TIMEOUT_1500 = { ...CREATE_CLIENT, requestOptions: { timeout: 1500 } };

async function runStep(
	service: StandIn,
	parameters: IDataObject,
	items: IDataObject[],
	cancelWhen?: Promise<unknown>,
) {
	return await runWorkflow([{ name: 'Contract Signing', parameters }], {
		credentials: { baseUrl: service.url, apiKey: service.apiKey },
		items,
		cancelWhen,
	});
}

/** How long the run took, in ms. */
async function timed(run: Promise<unknown>): Promise<number> {
	const startedAt = performance.now();
	await run;
	return performance.now() - startedAt;
}

interface Row {
	name: string;
	unit: 'ms' | 's';
	/** What the README or docs promise, in the row's unit. */
	target: string;
	/** The test that checks this behaviour without a clock. */
	test: string;
	/** One measurement, on a fresh stand-in. */
	measure(service: StandIn): Promise<number>;
}

const ROWS: Row[] = [
	{
		name: 'A 429 with Retry-After: 1 → the contact is sent again after',
		unit: 'ms',
		target: '1,000 to 2,000',
		test: 'busy-service.test, exactly-once.e2e',
		async measure(service) {
			service.injectFault(rateLimited(), { times: 1 });
			await runStep(service, CREATE_CLIENT, CONTACTS.slice(0, 1) as unknown as IDataObject[]);
			const [refused, accepted] = requestTimes(service, CONTACTS[0].crmId);
			return accepted.receivedAt - refused.repliedAt!;
		},
	},
	{
		name: 'Max Retries When Busy 0, a 429 → the run ends after',
		unit: 'ms',
		target: 'under 1,000',
		test: 'options.test',
		async measure(service) {
			service.injectFault(rateLimited(), { times: 10 });
			return await timed(
				runStep(service, { ...CREATE_CLIENT, options: { maxRetries: 0 } }, contacts(1)),
			);
		},
	},
	{
		name: 'Retry-After: 120, beyond Max Wait When Busy → the run ends after',
		unit: 'ms',
		target: 'under 1,000',
		test: 'busy-service.test',
		async measure(service) {
			service.injectFault(rateLimited(120));
			return await timed(runStep(service, CREATE_CLIENT, contacts(1)));
		},
	},
	{
		name: 'Stop during a wait of 30 s for a busy service → the run ends after the Stop',
		unit: 'ms',
		target: 'under 1,000',
		test: 'busy-service.test, stop.test',
		async measure(service) {
			service.injectFault(rateLimited(30));
			let stoppedAt = 0;
			const stop = sleep(500).then(() => (stoppedAt = performance.now()));
			await runStep(service, CREATE_CLIENT, contacts(1), stop);
			return performance.now() - stoppedAt;
		},
	},
	{
		name: 'Stop while a request is under way, Timeout 1,500 ms → the run ends after its start',
		unit: 'ms',
		target: '1,500 to 3,500',
		test: 'stop.test, stop.e2e',
		async measure(service) {
			service.injectFault({ kind: 'silent' });
			return await timed(runStep(service, TIMEOUT_1500, contacts(1), sleep(300)));
		},
	},
	{
		name: 'Timeout 1,500 ms, no reply → the error after',
		unit: 'ms',
		target: '1,500 to 3,500',
		test: 'stop.test, stop.e2e',
		async measure(service) {
			service.injectFault({ kind: 'silent' });
			return await timed(runStep(service, TIMEOUT_1500, contacts(1)));
		},
	},
	{
		name: '200 contacts, Max Requests per Second 38, the service allowing 40/s → the run takes',
		unit: 's',
		target: 'under 7.5 (1.5 × N / R)',
		test: 'pacing.test',
		async measure(service) {
			service.settings.rateLimit = { perSecond: 40 };
			const ms = await timed(
				runStep(service, { ...CREATE_CLIENT, options: { maxPerSecond: 38 } }, contacts(200)),
			);
			return ms / 1000;
		},
	},
	{
		name: 'One contact, 2 s into a bulk run of 300 at 30/s → served after',
		unit: 's',
		target: 'under 2',
		test: 'pacing.test',
		async measure(service) {
			service.settings.rateLimit = { perSecond: 30 };
			let endBulk = () => {};
			const bulk = runStep(
				service,
				CREATE_CLIENT,
				contacts(300),
				new Promise<void>((resolve) => (endBulk = resolve)),
			);
			await sleep(2000);
			const arrivedAt = performance.now();
			await runStep(service, CREATE_CLIENT, [
				{ name: 'Single', email: 'single@example.com', crmId: 'single' },
			]);
			const servedAfter = (performance.now() - arrivedAt) / 1000;
			endBulk();
			await bulk;
			return servedAfter;
		},
	},
];

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function shown(value: number, unit: Row['unit']): string {
	return unit === 'ms' ? Math.round(value).toLocaleString('en') : value.toFixed(1);
}

async function main() {
	const lines = [
		'| What | Median | Range | Target | Checked without a clock in |',
		'|---|---|---|---|---|',
	];
	for (const row of ROWS) {
		const values: number[] = [];
		for (let round = 0; round < REPEAT; round++) {
			const service = await startStandIn();
			try {
				values.push(await row.measure(service));
			} finally {
				await service.close();
			}
		}
		const range = `${shown(Math.min(...values), row.unit)}–${shown(Math.max(...values), row.unit)}`;
		const line = `| ${row.name} (${row.unit}) | ${shown(median(values), row.unit)} | ${range} | ${row.target} | ${row.test} |`;
		process.stdout.write(`${line}\n`);
		lines.push(line);
	}
	process.stdout.write(
		[
			'',
			`Command: npm run bench:waits -- --repeat ${REPEAT}`,
			`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; Node.js ${process.version}; load average ${loadavg()
				.map((value) => value.toFixed(2))
				.join(', ')} at the end.`,
			'',
			...lines,
			'',
		].join('\n'),
	);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`bench:waits failed: ${error instanceof Error ? error.stack : String(error)}\n`,
	);
	process.exitCode = 1;
});
