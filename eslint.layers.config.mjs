/**
 * The direction of the node's imports, and the length of its files and functions, checked by
 * `npm run lint` after n8n's own lint (whose eslint.config.mjs n8n's strict mode keeps as n8n
 * ships it). It reuses that config's parser, plugins and import resolver, without its rules, and
 * adds two rules of the import-x plugin it brings and ESLint's own max-lines rules.
 *
 * The node file composes the panel from resources/ (one folder per resource, one file per
 * operation), which uses shared/ (the envelope, the reply check, the send); shared/ speaks of no
 * resource. The credential in credentials/ imports nothing of the node.
 */
import { config } from '@n8n/node-cli/eslint';

const NODE = './nodes/ContractSigning';

const zones = [
	{
		target: `${NODE}/shared`,
		from: [`${NODE}/ContractSigning.node.ts`, `${NODE}/resources`],
		message: 'shared/ speaks of no resource (eslint.layers.config.mjs).',
	},
	{
		target: `${NODE}/resources`,
		from: `${NODE}/ContractSigning.node.ts`,
		message: 'resources/ imports only shared/ (eslint.layers.config.mjs).',
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
