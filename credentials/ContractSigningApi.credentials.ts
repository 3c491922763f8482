import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

const REFUSED_KEY = "The service refused the API key. Check 'API Key'.";
const SERVICE_BUSY =
	'The Contract Signing service is busy or unavailable, so the key could not be checked. Try again in a few minutes.';
const NOT_THE_SERVICE =
	"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.";

/** Fails the test when the reply's `key` is `value`. */
const failWhen = (key: string, value: unknown, message: string) => ({
	type: 'responseSuccessBody' as const,
	properties: { key, value, message },
});

/** Fails the test when the reply's `code` is one of these, as text or number. */
const codeRule = (codes: number[], message: string) =>
	codes.flatMap((code) => [String(code), code].map((value) => failWhen('code', value, message)));

export class ContractSigningApi implements ICredentialType {
	name = 'contractSigningApi';

	displayName = 'Contract Signing API';

	icon: Icon = {
		light: 'file:../icons/contract-signing.svg',
		dark: 'file:../icons/contract-signing.dark.svg',
	};

	documentationUrl =
		'https://github.com/contract-signing/n8n-nodes-contract-signing/blob/main/docs/reference.md#the-credential';

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
			description: 'The service key of your Contract Signing account',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-Service-Key': '={{ $credentials.apiKey.trim() }}' } },
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/v1$/i, "") }}',
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
			disableFollowRedirect: true,
		},
		rules: [
			...codeRule([401, 403], REFUSED_KEY),
			// A failing gateway in front of the service cannot check the key either.
			...codeRule([429, 503, 500, 502, 504], SERVICE_BUSY),
			// The service always sends code and message: a reply without them is not the service's.
			...['code', 'message'].map((key) => failWhen(key, undefined, NOT_THE_SERVICE)),
		],
	};
}
