import type { Resource } from '../description/operation';
import { clientCreate } from './client/create';
import { contractCreate } from './contract/create';
import { userGet } from './user/get';

/** Every operation of the node: the Resource and Operation fields and each panel derive from it. */
export const resources: Resource[] = [
	{ name: 'Client', value: 'client', operations: [clientCreate] },
	{ name: 'Contract', value: 'contract', operations: [contractCreate] },
	{ name: 'User', value: 'user', operations: [userGet] },
];
