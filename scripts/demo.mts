/**
 * The demo: the stand-in service, a stand-in CRM and a real n8n with this package, running the
 * example the README's first workflow uses (examples/crm-contact-once.json, its data table made
 * as step 3 says; the example finds it by its name) for the README's test contact, then the editor until Ctrl-C.
 *
 *   npm run demo            # leaves the n8n editor running
 *   npm run demo -- --once  # exits after the run
 */
import { startRecorder } from '../test/service/recorder.mts';
import { startStandIn } from '../test/service/stand-in.mts';
import {
	buildPackage,
	createN8nHome,
	endedRuns,
	importCredential,
	importWorkflows,
	OWNER,
	ownerSession,
	packPackage,
	postToWebhook,
	publishWorkflow,
	readExample,
	removeN8nHome,
	startN8n,
	webhookPath,
	type N8nHome,
	type RunningN8n,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n, freePort } from '../test/e2e/n8n-runtime.mts';
import {
	keysWrittenBack,
	leftAtService,
	makeDeliveriesTable,
	onceExampleFor,
} from '../test/e2e/once-example.mts';

const once = process.argv.includes('--once');
/** The README's test contact (step 5). */
const SAMPLE_CONTACT = {
	name: 'Ada Lovelace',
	email: 'ada@example.com',
	company: 'Analytical Engines Ltd',
	crmId: '1042',
};

const step = (line: string) => process.stdout.write(`• ${line}\n`);

async function portOrFree(preferred: number): Promise<number> {
	const inUse = await fetch(`http://127.0.0.1:${preferred}/`).then(
		() => true,
		() => false,
	);
	return inUse ? await freePort() : preferred;
}

async function main() {
	step('building and packing the package…');
	await buildPackage();
	const tarball = await packPackage();
	const runtime = await ensureN8n({ log: (line) => step(line) });

	const service = await startStandIn();
	step(`stand-in Contract Signing service on ${service.url} (API key "${service.apiKey}")`);
	const crm = await startRecorder();
	step(`stand-in CRM taking the keys back on ${crm.url}`);

	let home: N8nHome | undefined;
	let n8n: RunningN8n | undefined;
	let ran = '';
	const shutdown = async () => {
		await n8n?.stop();
		await service.close();
		await crm.close();
		removeN8nHome(home);
	};

	try {
		step('preparing a fresh n8n user folder with the package and a ready credential…');
		home = await createN8nHome(runtime, tarball);
		await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
		step('making the data table "CRM deliveries" (README, step 3)…');
		const example = onceExampleFor(crm.url, await makeDeliveriesTable(home));
		await importWorkflows(home, [
			example,
			readExample('crm-contact-to-contract.json'),
			readExample('client-contract-and-user.json'),
		]);
		await publishWorkflow(home, example.id);

		step('starting n8n…');
		n8n = await startN8n(home, { port: await portOrFree(5678) });
		const rest = await ownerSession(n8n.url);

		const url = `${n8n.url}/webhook/${webhookPath(example)}`;
		step(`sending the README's test contact to ${url} …`);
		const response = await postToWebhook(url, SAMPLE_CONTACT);
		if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
		const [run] = await endedRuns(rest, example.id, 1, 60_000);
		const { clients, contracts } = leftAtService(service, SAMPLE_CONTACT.crmId);
		const [writeBack] = keysWrittenBack(crm, SAMPLE_CONTACT.crmId);
		if (run.status !== 'success' || !clients[0] || !contracts[0] || !writeBack) {
			throw new Error(
				`the run ended "${run.status}" with ${clients.length} client(s), ${contracts.length} contract(s) and ${writeBack ? 'the' : 'no'} keys written back: see execution ${run.id} in the editor`,
			);
		}
		ran = `The workflow that ran: "${example.name}", published; send it more contacts at ${url}`;
		process.stdout.write(
			[
				'',
				`client key:   ${clients[0].clientKey}`,
				`user key:     ${clients[0].users[0].userKey}`,
				`contract key: ${contracts[0].contractKey}`,
				`keys written back to the CRM: POST ${writeBack.path}`,
				'',
			].join('\n'),
		);
	} catch (error) {
		await shutdown();
		throw error;
	}

	if (once) {
		await shutdown();
		return;
	}
	process.stdout.write(
		[
			`n8n editor: ${n8n.url}  (log in as ${OWNER.email} / ${OWNER.password})`,
			ran,
			'Also imported: "CRM contact → client → contract" and "Client → contract → read the user back".',
			'Press Ctrl-C to stop.',
			'',
		].join('\n'),
	);
	await new Promise<void>((resolve) => {
		process.once('SIGINT', resolve);
		process.once('SIGTERM', resolve);
	});
	step('stopping…');
	await shutdown();
}

main().catch((error: unknown) => {
	process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
