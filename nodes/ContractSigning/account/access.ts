/**
 * The run's credential as the node sends with it: read and decrypted once per run (see the top
 * of item/send.ts), checked as the credential itself checks it for every request, so that one
 * that cannot work is reported before anything is sent, and the mask for what comes back.
 */
import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { serviceKey, serviceRoot } from '../../../credentials/ContractSigningApi.credentials';
import { inputFailure, ItemFailure, NOTHING_SENT } from '../failure/item-failure';
import { CREDENTIAL_TYPE } from '../run/n8n';
import type { RunState } from '../run/run-state';
import { SecretMask } from './secret';

/** The service account: its Base URL's origin and its key as sent. */
export interface Account {
	origin: string;
	key: string;
}

/** The run's credential, ready to send with, its account, and the mask for what comes back. */
export interface Access {
	credential: ICredentialDataDecryptedObject;
	account: Account;
	mask: SecretMask;
}

/** The run's access, made for its first item and shared by the rest; or why the node cannot send. */
export async function accessFor(
	context: IExecuteSingleFunctions,
	run: RunState,
): Promise<Access | ItemFailure> {
	return await run.accessOnce(async () => await readAccess(context));
}

async function readAccess(context: IExecuteSingleFunctions): Promise<Access | ItemFailure> {
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
	let account: Account;
	try {
		account = {
			origin: new URL(serviceRoot(credential.baseUrl)).origin,
			key: serviceKey(credential.apiKey),
		};
	} catch (error) {
		return inputFailure(error).with(NOTHING_SENT);
	}
	const apiKey = typeof credential.apiKey === 'string' ? credential.apiKey : undefined;
	return { credential, account, mask: new SecretMask(apiKey) };
}
