/**
 * The demo: the stand-in service and a real n8n with this package, running the example
 * workflow "CRM contact → client → contract" once, then the editor until Ctrl-C.
 *
 *   npm run demo            # leaves the n8n editor running
 *   npm run demo -- --once  # exits after the run
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStandIn } from '../test/service/stand-in.mts';
import {
	createN8nHome,
	EXAMPLES_DIR,
	importCredential,
	importWorkflow,
	OWNER,
	ownerSession,
	buildPackage,
	packPackage,
	publishWorkflow,
	removeN8nHome,
	startN8n,
	type N8nHome,
	type RunningN8n,
	postToWebhook,
} from '../test/e2e/n8n-instance.mts';
import { ensureN8n, freePort } from '../test/e2e/n8n-runtime.mts';

const once = process.argv.includes('--once');
const WEBHOOK_EXAMPLE = join(EXAMPLES_DIR, 'crm-contact-to-contract.json');
const MANUAL_EXAMPLE = join(EXAMPLES_DIR, 'client-contract-and-user.json');
/** Imported to look at; not run, as its last step writes to a CRM the demo does not have. */
const ONCE_EXAMPLE = join(EXAMPLES_DIR, 'crm-contact-once.json');
const SAMPLE_CONTACT = {
	name: 'Ada Lovelace',
	email: 'ada@example.com',
	company: 'Analytical Engines Ltd',
	crmId: 1042,
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

	let home: N8nHome | undefined;
	let n8n: RunningN8n | undefined;
	const shutdown = async () => {
		await n8n?.stop();
		await service.close();
		removeN8nHome(home);
	};

	try {
		step('preparing a fresh n8n user folder with the package and a ready credential…');
		home = await createN8nHome(runtime, tarball);
		await importCredential(home, { baseUrl: service.url, apiKey: service.apiKey });
		await importWorkflow(home, WEBHOOK_EXAMPLE);
		await importWorkflow(home, MANUAL_EXAMPLE);
		await importWorkflow(home, ONCE_EXAMPLE);
		const webhookWorkflow = JSON.parse(readFileSync(WEBHOOK_EXAMPLE, 'utf8')) as { id: string };
		await publishWorkflow(home, webhookWorkflow.id);

		step('starting n8n…');
		n8n = await startN8n(home, { port: await portOrFree(5678) });
		await ownerSession(n8n.url);

		step(`sending a CRM contact to ${n8n.url}/webhook/crm-contact …`);
		const response = await postToWebhook(`${n8n.url}/webhook/crm-contact`, SAMPLE_CONTACT);
		const answer = (await response.json()) as Record<string, string>;
		if (!response.ok || !answer.clientKey) {
			throw new Error(
				`the workflow did not answer with keys: HTTP ${response.status} ${JSON.stringify(answer)}`,
			);
		}
		process.stdout.write(
			[
				'',
				`client key:   ${answer.clientKey}`,
				`user key:     ${answer.userKey}`,
				`contract key: ${answer.contractKey}`,
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
			'Open the workflows "CRM contact → client → contract", "CRM contact → client → contract, once per',
			'contact" and "Client → contract → read the user back". The once-per-contact workflow needs its',
			'data table first: README, "Your first workflow", step 3.',
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
