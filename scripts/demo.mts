/**
 * The demo: the stand-in service, a stand-in CRM and a real n8n with this package, running the
 * workflows the README sets up first (examples/contract-engine.json, which makes its data tables
 * when it first runs, and its Webhook intake, examples/intake-webhook.json) for the intake's test
 * deal and then another deal of the same customer, then the editor until Ctrl-C.
 *
 *   npm run demo            # leaves the n8n editor running
 *   npm run demo -- --once  # exits after the run
 */
import { startRecorder } from '../test/service/recorder.mts';
import { startStandIn } from '../test/service/stand-in.mts';
import {
	buildPackage,
	contractSigningCredential,
	createN8nHome,
	CRM_SECRET_HEADER,
	crmSecretCredential,
	importCredentials,
	importWorkflows,
	OWNER,
	ownerSession,
	packPackage,
	postToWebhook,
	publishWorkflow,
	readExample,
	removeN8nHome,
	restJson,
	sendKeysTo,
	startN8n,
	webhookPath,
	type ExecutionSummary,
	type N8nHome,
	type RestSession,
	type RunningN8n,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n, freePort } from '../test/e2e/n8n-runtime.mts';
import { TEST_DEAL } from './deal-examples.mts';

const once = process.argv.includes('--once');
/** The customer's next won deal, after the example's test deal. */
const NEXT_DEAL = {
	deal: { id: 'D-1043', name: 'Support agreement – Analytical Engines', status: 'won' },
	customer: TEST_DEAL.customer,
};

const step = (line: string) => process.stdout.write(`• ${line}\n`);

async function portOrFree(preferred: number): Promise<number> {
	const inUse = await fetch(`http://127.0.0.1:${preferred}/`).then(
		() => true,
		() => false,
	);
	return inUse ? await freePort() : preferred;
}

/**
 * Waits until the CRM has taken the deal's keys: the intake answers the CRM once the engine has
 * recorded the deal, and the engine finishes it in a run of its own.
 */
async function keysTaken(rest: RestSession, taken: () => boolean) {
	for (const giveUpAt = Date.now() + 60_000; !taken(); ) {
		const { results } = await restJson<{ results: ExecutionSummary[] }>(
			rest,
			`/rest/executions?limit=1&filter=${encodeURIComponent(JSON.stringify({ status: ['error', 'crashed'] }))}`,
		);
		if (results[0]) {
			throw new Error(
				`a run ended "${results[0].status}": see execution ${results[0].id} in the editor`,
			);
		}
		if (Date.now() > giveUpAt) throw new Error('the CRM got no keys within 60 s');
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
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
		await importCredentials(home, [
			contractSigningCredential({ baseUrl: service.url, apiKey: service.apiKey }),
			crmSecretCredential(),
		]);
		const engine = readExample('contract-engine.json');
		const intake = sendKeysTo(readExample('intake-webhook.json'), crm.url);
		await importWorkflows(home, [engine, intake, readExample('client-contract-and-user.json')]);
		await publishWorkflow(home, engine.id);
		await publishWorkflow(home, intake.id);

		step('starting n8n…');
		n8n = await startN8n(home, { port: await portOrFree(5678) });
		const rest = await ownerSession(n8n.url);

		const url = `${n8n.url}/webhook/${webhookPath(intake)}`;
		const deals = [TEST_DEAL, NEXT_DEAL];
		for (const [index, deal] of deals.entries()) {
			step(`sending the won deal ${deal.deal.id} of ${deal.customer.name} to ${url} …`);
			const posted = Date.now();
			const response = await postToWebhook(url, deal, {
				headers: { [CRM_SECRET_HEADER.name]: CRM_SECRET_HEADER.value },
			});
			if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
			await keysTaken(rest, () => crm.requests.length === index + 1);
			step(
				`its keys reached the CRM ${((Date.now() - posted) / 1000).toFixed(1)} s after the post`,
			);
		}
		const clients = service
			.clients()
			.filter((client) => client.customKey === TEST_DEAL.customer.id);
		const contracts = service
			.contracts()
			.filter((contract) => contract.clientKey === clients[0]?.clientKey);
		const keysSent = crm.requests.map((call) => call.path);
		if (
			clients.length !== 1 ||
			contracts.length !== deals.length ||
			keysSent.length !== deals.length
		) {
			throw new Error(
				`${clients.length} client(s), ${contracts.length} contract(s) and ${keysSent.length} keys sent to the CRM, where one client and ${deals.length} of each were due`,
			);
		}
		ran = `The workflows that ran: "${intake.name}" and "${engine.name}", published; send the intake more deals at ${url} with the header ${CRM_SECRET_HEADER.name}: ${CRM_SECRET_HEADER.value}`;
		process.stdout.write(
			[
				'',
				`one client for ${TEST_DEAL.customer.name}: ${clients[0].clientKey}`,
				...contracts.map((contract) => `contract "${contract.name}": ${contract.contractKey}`),
				...keysSent.map((path) => `keys sent to the CRM: POST ${path}`),
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
			'The data table "Won deals" holds each deal. Also imported: "Client → contract → read the user back".',
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
