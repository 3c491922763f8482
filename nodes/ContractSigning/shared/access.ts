import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { accountPaces } from './account-paces';
import { inputFailure, ItemFailure, NOTHING_SENT } from './failure';
import type { Pace } from './pace';
import { resourcesOf } from './run-resources';
import { SecretMask } from './secret';
import { serviceKey, serviceRoot } from './service-access';

export const CREDENTIAL_TYPE = 'contractSigningApi';

/** The run's credential, ready to send with, the mask for what comes back, the account's pace. */
export interface Access {
	credential: ICredentialDataDecryptedObject;
	mask: SecretMask;
	pace: Pace;
}

/**
 * The run's credential, read and decrypted once (see the top of send.ts) and checked as the
 * credential itself checks it for every request, so that one that cannot work is reported
 * before anything is sent.
 */
export async function accessOf(context: IExecuteSingleFunctions): Promise<Access | ItemFailure> {
	let credential: ICredentialDataDecryptedObject;
	try {
		credential = await resourcesOf(context.getExecuteData()).credentialOnce(
			async () => await context.getCredentials(CREDENTIAL_TYPE),
		);
	} catch (error) {
		return new ItemFailure(
			'input',
			`The Contract Signing credential could not be read: ${(error as Error).message ?? String(error)}`,
			`${NOTHING_SENT} Select the credential again in the node, or create it anew.`,
		);
	}
	let pace: Pace;
	try {
		pace = accountPaces.of(
			new URL(serviceRoot(credential.baseUrl)).origin,
			serviceKey(credential.apiKey),
		);
	} catch (error) {
		return inputFailure(error).with(NOTHING_SENT);
	}
	const apiKey = typeof credential.apiKey === 'string' ? credential.apiKey : undefined;
	return { credential, mask: new SecretMask(apiKey), pace };
}
