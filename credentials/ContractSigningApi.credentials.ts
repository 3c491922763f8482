import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

/*
 * What the Base URL and API Key mean, checked the same way here, for every request any node sends
 * with this credential, and by the node before it sends anything, so that a credential that
 * cannot work is reported as "nothing was sent".
 */

/**
 * Blanks around a value: whitespace, and the invisible characters a copy from a web page or a
 * spreadsheet brings along (zero-width spaces and joiners, the byte-order mark, NEL), which
 * JavaScript's own trim() leaves in place. The node trims the text of its fields the same way.
 */
const EDGE_BLANKS =
	/^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+|[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+$/g;

export function trimText(text: string): string {
	return text.replace(EDGE_BLANKS, '');
}

/** Shorter keys are refused: no real service key is this short, and a key that short could not be told apart from other words in a reply. */
export const SHORTEST_KEY = 8;

const CREDENTIAL = 'the Contract Signing credential';

/**
 * The service root for request paths such as `/v1/client`: a trailing `/` or `/v1` (even twice)
 * is tolerated, since both are common ways to copy the URL. A query or fragment is refused: the
 * request paths cannot be added to it.
 */
export function serviceRoot(baseUrl: unknown): string {
	const text = trimText(typeof baseUrl === 'string' ? baseUrl : '');
	let url: URL | undefined;
	try {
		url = /^https?:\/\/[^/\s]+/i.test(text) ? new URL(text) : undefined;
	} catch {
		url = undefined;
	}
	if (!url) {
		throw new Error(
			`'Base URL' ("${text}") is not a web address: it must start with https:// or http://. Correct it in ${CREDENTIAL}.`,
		);
	}
	if (/[?#]/.test(text)) {
		throw new Error(
			`'Base URL' ("${text}") has a ${text.includes('?') ? 'query (?…)' : 'fragment (#…)'}: enter only the service’s address, such as ${url.origin}, in ${CREDENTIAL}.`,
		);
	}
	let root = text;
	for (let previous = ''; previous !== root; ) {
		previous = root;
		root = root.replace(/\/+$/, '').replace(/\/v1$/i, '');
	}
	return root;
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

function isUrlObject(value: unknown): value is URL {
	return value instanceof URL;
}

/**
 * The origin of one address field of a request, read against the root, or undefined when the
 * field is not there. n8n's request helpers turn whatever stands in `url` or `uri` into text,
 * so an address of any other kind than text or a URL object cannot be read, and gets no key.
 */
function originOf(address: unknown, root: string): string | undefined {
	if (address === undefined || address === null || address === '') return undefined;
	const text =
		typeof address === 'string' ? address : isUrlObject(address) ? address.href : undefined;
	if (text === undefined) return 'an address that cannot be read';
	try {
		return new URL(text, `${root}/`).origin;
	} catch {
		return `an address that cannot be read ("${text}")`;
	}
}

/**
 * Where a request would take the key, when that is anywhere but the root's origin: its `url`
 * (n8n's request helper) and its `uri` (n8n's legacy one, which reads `url` first) are both
 * checked, whichever is used. No address at all means the base URL, which is the root.
 */
export function elsewhere(
	options: { url?: unknown; uri?: unknown },
	root: string,
): string | undefined {
	const origin = new URL(root).origin;
	for (const address of [options.url, options.uri]) {
		const target = originOf(address, root);
		if (target !== undefined && target !== origin) return target;
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

/**
 * A request as it goes to the service with the key: to the root, with the key's header, and
 * without following redirects, since n8n would send the X-Service-Key header on to wherever a
 * redirect points. A request to any other origin is refused, so the key never leaves the Base
 * URL's. The credential's `authenticate` applies it to every request sent with the credential, the
 * node's included.
 */
function withServiceKey(
	requestOptions: IHttpRequestOptions,
	root: string,
	key: string,
): IHttpRequestOptions {
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

/** The headers of every request to the service: JSON, both ways. */
export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };

/** The statuses with which the service says it is busy: it did not act, and asks to be asked later. */
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

	/**
	 * Plain code rather than expressions, run for every request any node sends with this
	 * credential (the HTTP Request node too): see `withServiceKey`.
	 */
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
