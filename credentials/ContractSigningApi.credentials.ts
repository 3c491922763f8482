import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The service root for request paths such as `/v1/client`: a trailing `/` or `/v1`
 * in the credential is tolerated, since both are common ways to copy the URL.
 */
export function serviceRoot(baseUrl: unknown): string {
	const url = String(baseUrl ?? '').trim();
	if (!/^https?:\/\/[^/\s]+/i.test(url)) {
		throw new Error(
			`The Base URL "${url}" is not a web address: it must start with https:// or http://. Correct it in the Contract Signing credential.`,
		);
	}
	return url.replace(/\/+$/, '').replace(/\/v1$/i, '');
}

const REFUSED_KEY = 'The service refused the API key. Check the API Key.';

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
			description: 'Address of the Contract Signing service, without /v1',
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

	/** Plain code rather than expressions: this runs for every request the node sends. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			baseURL: serviceRoot(credentials.baseUrl),
			headers: { ...requestOptions.headers, 'X-Service-Key': String(credentials.apiKey ?? '') },
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
			...['401', 401, '403', 403].map((code) => ({
				type: 'responseSuccessBody' as const,
				properties: { key: 'code', value: code, message: REFUSED_KEY },
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: undefined,
					message:
						'Something answers at the Base URL, but not the Contract Signing service. Check the Base URL.',
				},
			},
		],
	};
}
