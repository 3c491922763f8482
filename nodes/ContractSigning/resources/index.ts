import type { Operations } from '../description/operation';
import { clientOperations } from './client';
import { contractOperations } from './contract';
import { userOperations } from './user';

/** What each operation sends and gets back, by its Resource and Operation values. */
export const operations: Record<string, Operations> = {
	client: clientOperations,
	contract: contractOperations,
	user: userOperations,
};
