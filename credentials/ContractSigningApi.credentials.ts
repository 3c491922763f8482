import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { elsewhere, serviceKey, serviceRoot } from './service-account';

/** Both spellings: n8n's request helper reads the first, its legacy request helper the others. */
const NO_REDIRECTS = {
	disableFollowRedirect: true,
	followRedirect: false,
	followAllRedirects: false,
	maxRedirects: 0,
};

const REFUSED_KEY = 'The service refused the API key. Check the API Key.';
const SERVICE_ERROR =
	'The Contract Signing service answered with an error, so the key could not be checked. Try again in a few minutes.';
const NOT_THE_SERVICE =
	'Something answers at the Base URL, but not the Contract Signing service (or it redirects elsewhere). Check the Base URL.';

/** Fails the test when the reply's `code` is one of these, as text or number. */
function codeRule(codes: number[], message: string) {
	return codes.flatMap((code) =>
		[String(code), code].map((value) => ({
			type: 'responseSuccessBody' as const,
			properties: { key: 'code', value, message },
		})),
	);
}

export class ContractSigningApi implements ICredentialType {
	name = 'contractSigningApi';

	displayName = 'Contract Signing API';

	icon: Icon = {
		light: 'file:../icons/contract-signing.svg',
		dark: 'file:../icons/contract-signing.dark.svg',
	};

	documentationUrl = 'https://github.com/contract-signing/n8n-nodes-contract-signing#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.contract-signing.example',
			description: 'Address of the Contract Signing service; a trailing / or /v1 is fine',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The service key of your account, sent as the X-Service-Key header',
		},
	];

	/**
	 * Plain code rather than expressions: this runs for every request the node sends. It is also
	 * what keeps the key at the Base URL's origin for every node using this credential (the HTTP
	 * Request node too): a request elsewhere is refused, and redirects are not followed, since
	 * n8n would send the X-Service-Key header on to wherever a redirect points.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const root = serviceRoot(credentials.baseUrl);
		const key = serviceKey(credentials.apiKey);
		const target = elsewhere(requestOptions as IHttpRequestOptions & { uri?: unknown }, root);
		if (target !== undefined) {
			throw new Error(
				`The Contract Signing API credential sends its key only to ${new URL(root).origin}, its Base URL, but this request goes to ${target}. Use an address under the Base URL, or correct the Base URL.`,
			);
		}
		return {
			...requestOptions,
			...NO_REDIRECTS,
			baseURL: root,
			headers: { ...requestOptions.headers, 'X-Service-Key': key },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '/v1/user',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: {
				data: {
					action: 'read',
					clientKey: 'credential-test',
					user: { userKey: 'credential-test' },
				},
			},
			ignoreHttpStatusErrors: true,
		},
		rules: [
			...codeRule([401, 403], REFUSED_KEY),
			...codeRule([429, 500, 502, 503, 504], SERVICE_ERROR),
			// The service always sends code and message: a reply without them is not the service's.
			{
				type: 'responseSuccessBody',
				properties: { key: 'code', value: undefined, message: NOT_THE_SERVICE },
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'message', value: undefined, message: NOT_THE_SERVICE },
			},
		],
	};
}
