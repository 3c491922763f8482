/**
 * A CRM's bulk change in queue mode: many contacts posted at the same moment to the webhook
 * example, while the service allows a few requests per second (429 + Retry-After beyond it,
 * nothing done for a refused request). Each execution's item that the service refuses waits out
 * the Retry-After itself, on whichever worker runs it, a random while longer so that the refused
 * ones do not come back together, and is sent again: every contact gets one client and one
 * contract.
 */
import { postToWebhook } from '../e2e/n8n-instance.mts';
import { crmContact, leftAtService } from '../e2e/once-example.mts';
import type { StandIn } from '../service/stand-in.mts';

const ANSWER_TIMEOUT_MS = 600_000;

export interface StormOutcome {
	contacts: number;
	perSecond: number;
	seconds: number;
	requests: number;
	refused: number;
	/** Contacts not answered with both keys. */
	notAnsweredOk: string[];
	/** Contacts without exactly one client and one contract. */
	notOnce: string[];
	/** Accepted requests per second at the service, from the first accepted to the last. */
	acceptedPerSecond: number;
}

function answeredWithKeys(status: number, body: string): boolean {
	if (status !== 200) return false;
	try {
		const keys = JSON.parse(body) as { clientKey?: string; contractKey?: string };
		return Boolean(keys.clientKey && keys.contractKey);
	} catch {
		return false;
	}
}

/** Posts `count` contacts at once to `webhookUrl` with the service limited to `perSecond`. */
export async function blowStorm(
	webhookUrl: string,
	service: StandIn,
	count: number,
	perSecond: number,
): Promise<StormOutcome> {
	service.settings.rateLimit = { perSecond };
	const from = service.requests.length;
	const startedAt = Date.now();
	const contacts = Array.from({ length: count }, (_, index) => crmContact(`storm-${index + 1}`));
	const answers = await Promise.all(
		contacts.map(async (contact) => {
			try {
				const response = await postToWebhook(webhookUrl, contact, {
					signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
				});
				return answeredWithKeys(response.status, await response.text());
			} catch {
				return false;
			}
		}),
	);
	const seconds = (Date.now() - startedAt) / 1000;
	service.settings.rateLimit = undefined;
	const requests = service.requests.slice(from);
	const accepted = requests.filter((request) => !request.limited);
	const span =
		accepted.length > 1
			? (accepted[accepted.length - 1].receivedAt - accepted[0].receivedAt) / 1000
			: 0;
	return {
		contacts: count,
		perSecond,
		seconds,
		requests: requests.length,
		refused: requests.length - accepted.length,
		notAnsweredOk: contacts.filter((_, index) => !answers[index]).map(({ crmId }) => crmId),
		notOnce: contacts
			.filter(({ crmId }) => {
				const { clients, contracts } = leftAtService(service, crmId);
				return clients.length !== 1 || contracts.length !== 1;
			})
			.map(({ crmId }) => crmId),
		acceptedPerSecond: span > 0 ? accepted.length / span : 0,
	};
}

export function describeStorm(storm: StormOutcome): string {
	return (
		`  storm:                    ${storm.contacts} contacts at once, the service allowing ${storm.perSecond}/s: ` +
		`${storm.requests} requests, ${storm.refused} refused (${((100 * storm.refused) / Math.max(1, storm.requests)).toFixed(1)} %), ` +
		`accepted ${storm.acceptedPerSecond.toFixed(2)}/s, ${storm.seconds.toFixed(1)} s ` +
		`(1.5 × 2N / R = ${((1.5 * 2 * storm.contacts) / storm.perSecond).toFixed(0)} s); ` +
		`${storm.contacts - storm.notAnsweredOk.length} answered with their keys`
	);
}
