import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/** Blanks a paste brings along: whitespace and invisible characters that trim() leaves. */
const EDGE_BLANKS =
	/^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+|[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+$/g;

export function trimText(text: string): string {
	return text.replace(EDGE_BLANKS, '');
}

/** No service key is shorter, and a shorter one could not be told apart from words in a reply. */
export const SHORTEST_KEY = 8;

const CREDENTIAL = 'the Contract Signing credential';

/** The root for paths such as `/v1/client`, without a trailing `/` or `/v1` a copied URL has. */
export function serviceRoot(baseUrl: unknown): string {
	const text = trimText(typeof baseUrl === 'string' ? baseUrl : '');
	if (!/^https?:\/\/[^/\s]+/i.test(text) || !URL.canParse(text)) {
		throw new Error(
			`'Base URL' ("${text}") is not a web address: it must start with https:// or http://. Correct it in ${CREDENTIAL}.`,
		);
	}
	if (/[?#]/.test(text)) {
		throw new Error(
			`'Base URL' ("${text}") has a ${text.includes('?') ? 'query (?…)' : 'fragment (#…)'}: enter only the service’s address, such as ${new URL(text).origin}, in ${CREDENTIAL}.`,
		);
	}
	return text.replace(/(?:\/+|\/v1)+$/i, '');
}

/** The key as it is sent: without the blanks a paste brings along. */
export function serviceKey(apiKey: unknown): string {
	const key = trimText(typeof apiKey === 'string' ? apiKey : '');
	if (!key) {
		throw new Error(`'API Key' in ${CREDENTIAL} is empty. Paste your service key there.`);
	}
	if ([...key].some((character) => character < ' ' || character === '\u007f')) {
		throw new Error(
			`'API Key' in ${CREDENTIAL} contains a line break or another control character. Paste the key alone, on one line.`,
		);
	}
	if (key.length < SHORTEST_KEY) {
		throw new Error(
			`'API Key' in ${CREDENTIAL} has only ${key.length} character${key.length === 1 ? '' : 's'}: a service key has at least ${SHORTEST_KEY}. Paste the whole key.`,
		);
	}
	return key;
}

/**
 * The origin a request would take the key to, when not the root's: `uri` is the legacy helper's
 * `url`. n8n turns an address into text, so one that is neither text nor a URL gets no key.
 */
export function elsewhere(
	options: { url?: unknown; uri?: unknown },
	root: string,
): string | undefined {
	for (const address of [options.url, options.uri]) {
		if (address === undefined || address === null || address === '') continue;
		const text = address instanceof URL ? address.href : address;
		let origin = 'an address that cannot be read';
		try {
			if (typeof text === 'string') origin = new URL(text, `${root}/`).origin;
		} catch {
			origin += ` ("${text as string}")`;
		}
		if (origin !== new URL(root).origin) return origin;
	}
	return undefined;
}

/** Both spellings: n8n's request helper reads the first, its legacy request helper the others. */
const NO_REDIRECTS = {
	disableFollowRedirect: true,
	followRedirect: false,
	followAllRedirects: false,
	maxRedirects: 0,
};

/** Redirects are not followed: n8n would send the X-Service-Key header on to where they point. */
function withServiceKey(requestOptions: IHttpRequestOptions, root: string, key: string) {
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

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/** The service is busy: it did not act, and asks to be asked later. */
export const BUSY_STATUSES = [429, 503];

const REFUSED_KEY = "The service refused the API key. Check 'API Key'.";
const SERVICE_BUSY =
	'The Contract Signing service is busy or unavailable, so the key could not be checked. Try again in a few minutes.';
const NOT_THE_SERVICE =
	"Something other than the Contract Signing service answers at 'Base URL' (or it redirects elsewhere). Check 'Base URL'.";

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

	// Code rather than expressions: it keeps the key at the Base URL's origin for every node.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withServiceKey(
			requestOptions,
			serviceRoot(credentials.baseUrl),
			serviceKey(credentials.apiKey),
		);
	}

	test: ICredentialTestRequest = {
		request: {
			method: 'POST',
			url: '/v1/user',
			headers: { ...JSON_HEADERS },
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
			// A failing gateway in front of the service cannot check the key either.
			...codeRule([...BUSY_STATUSES, 500, 502, 504], SERVICE_BUSY),
			// The service always sends code and message: a reply without them is not the service's.
			...['code', 'message'].map((key) => ({
				type: 'responseSuccessBody' as const,
				properties: { key, value: undefined, message: NOT_THE_SERVICE },
			})),
		],
	};
}
