/**
 * The direction of the node's imports, and the length of its files and functions, checked by
 * `npm run lint` after n8n's own lint (whose eslint.config.mjs n8n's strict mode keeps as n8n
 * ships it). It reuses that config's parser, plugins and import resolver, without its rules, and
 * adds two rules of the import-x plugin it brings and ESLint's own max-lines rules.
 *
 * The node's folders, in the order of their imports, each import only those after it: the node
 * file composes the description and the send path; item/ reads the item and builds its output,
 * pacing/ sends it in its turns, wire/ makes one request and reads its reply, account/ gives
 * what to send with (the run's account, from the credential), run/ holds the run's state,
 * failure/ is the vocabulary they all speak, and description/ (what an operation declares, which
 * resources/ fills in) imports none of them. The credential in credentials/ imports nothing of
 * the node.
 */
import { config } from '@n8n/node-cli/eslint';

const NODE = './nodes/ContractSigning';
const LAYERS = ['item', 'pacing', 'wire', 'account', 'run', 'failure', 'description'];
const NODE_FILE = `${NODE}/ContractSigning.node.ts`;

const zones = [
	...LAYERS.map((layer, index) => {
		const below = LAYERS.slice(index + 1).map((next) => `${next}/`);
		return {
			target: `${NODE}/${layer}`,
			from: [
				NODE_FILE,
				`${NODE}/resources`,
				...LAYERS.slice(0, index).map((above) => `${NODE}/${above}`),
			],
			message: `${layer}/ imports only ${below.join(', ') || 'n8n'} (eslint.layers.config.mjs).`,
		};
	}),
	{
		target: `${NODE}/resources`,
		from: [
			NODE_FILE,
			...LAYERS.filter((layer) => layer !== 'description').map((layer) => `${NODE}/${layer}`),
		],
		message:
			'An operation is data: resources/ imports only description/ (eslint.layers.config.mjs).',
	},
	{
		target: './credentials',
		from: './nodes',
		message: 'The credential imports nothing of the node (eslint.layers.config.mjs).',
	},
];

export default [
	...config.map(({ rules, ...setup }) => setup),
	{
		files: ['**/*.ts'],
		rules: {
			'import-x/no-restricted-paths': ['error', { zones }],
			'import-x/no-cycle': 'error',
			// A file a reader takes in at once, a function that fits on a screen.
			'max-lines': ['error', { max: 300 }],
			'max-lines-per-function': ['error', { max: 50 }],
		},
	},
];
