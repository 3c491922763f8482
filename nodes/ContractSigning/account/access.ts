/**
 * What the node keeps of the credential while a run's items are under way: the account, which
 * names its pace, checked as the credential checks it (so that nothing is sent when it cannot
 * work), and the mask for what comes back. n8n reads the credential again to send each request.
 */
import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { serviceKey, serviceRoot } from '../../../credentials/ContractSigningApi.credentials';
import { inputFailure, ItemFailure, NOTHING_SENT } from '../failure/item-failure';
import { CREDENTIAL_TYPE } from '../run/n8n';
import type { RunState } from '../run/run-state';
import { SecretMask } from './secret';

/** The service account: the Base URL's origin and the key as sent. */
export interface Access {
	account: { origin: string; key: string };
	mask: SecretMask;
}

/** The run's access, read for its first item and shared by the rest; or why the node cannot send. */
export async function accessFor(
	context: IExecuteSingleFunctions,
	run: RunState,
): Promise<Access | ItemFailure> {
	return await run.accessOnce(async () => {
		let credential: ICredentialDataDecryptedObject;
		try {
			credential = await context.getCredentials(CREDENTIAL_TYPE);
		} catch (error) {
			return new ItemFailure(
				'input',
				`The Contract Signing credential could not be read: ${(error as Error).message ?? String(error)}`,
				`${NOTHING_SENT} Select the credential again in the node, or create it anew.`,
			);
		}
		let account: Access['account'];
		try {
			account = {
				origin: new URL(serviceRoot(credential.baseUrl)).origin,
				key: serviceKey(credential.apiKey),
			};
		} catch (error) {
			return inputFailure(error).with(NOTHING_SENT);
		}
		const apiKey = typeof credential.apiKey === 'string' ? credential.apiKey : undefined;
		return { account, mask: new SecretMask(apiKey) };
	});
}
