/**
 * n8n data tables as the examples use them: made as a user makes them under Data tables, picked
 * in the examples' data table steps, and their rows read back, through the owner's REST session.
 */
import type { ExampleWorkflow, N8nHome, RestSession } from './n8n-instance.mts';
import { ownerSession, restJson, startN8n } from './n8n-instance.mts';
import { N8N_LINE_UNDER_TEST } from './n8n-runtime.mts';

export interface DataTable {
	name: string;
	/** Text columns, in order. */
	columns: string[];
}

const personalProject = async (rest: RestSession) =>
	await restJson<{ id: string }>(rest, '/rest/projects/personal');

/** Makes the table in a running n8n, in the owner's project; its id. */
export async function createDataTable(rest: RestSession, table: DataTable): Promise<string> {
	const project = await personalProject(rest);
	const created = await restJson<{ id: string }>(rest, `/rest/projects/${project.id}/data-tables`, {
		method: 'POST',
		body: JSON.stringify({
			name: table.name,
			columns: table.columns.map((name) => ({ name, type: 'string' })),
		}),
	});
	return created.id;
}

/**
 * Makes the table before the workflows that use it are imported; its id. A table exists only in
 * a running n8n, so this starts n8n in the user folder and stops it again.
 */
export async function makeDataTable(home: N8nHome, table: DataTable): Promise<string> {
	const n8n = await startN8n(home);
	try {
		return await createDataTable(await ownerSession(n8n.url), table);
	} finally {
		await n8n.stop();
	}
}

/**
 * The table in every data table step of the workflow, as the README has users set it. The
 * examples find it by its name, which the pinned n8n does as shipped. Before 2.3 n8n has no By
 * Name (its Data table field offers From list and ID): users pick the table from the list, which
 * stores its id.
 */
export function pickDataTable<T extends Pick<ExampleWorkflow, 'nodes'>>(
	workflow: T,
	tableId: string,
	tableName: string,
): T {
	if (N8N_LINE_UNDER_TEST === undefined) return workflow;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.dataTable') {
			node.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: tableId,
				cachedResultName: tableName,
			};
		}
	}
	return workflow;
}

/** The table's rows whose columns hold the given values, oldest first. */
export async function tableRows(
	rest: RestSession,
	tableId: string,
	where: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> {
	const project = await personalProject(rest);
	const { data } = await restJson<{ data: Array<Record<string, unknown>> }>(
		rest,
		`/rest/projects/${project.id}/data-tables/${tableId}/rows?take=1000`,
	);
	return data.filter((row) =>
		Object.entries(where).every(([column, value]) => row[column] === value),
	);
}

/** Sets columns of the rows whose columns hold the given values, as a person edits them in the table. */
export async function updateTableRows(
	rest: RestSession,
	tableId: string,
	where: Record<string, string>,
	data: Record<string, string>,
): Promise<void> {
	const project = await personalProject(rest);
	await restJson<unknown>(rest, `/rest/projects/${project.id}/data-tables/${tableId}/rows`, {
		method: 'PATCH',
		body: JSON.stringify({
			filter: {
				type: 'and',
				filters: Object.entries(where).map(([columnName, value]) => ({
					columnName,
					condition: 'eq',
					value,
				})),
			},
			data,
		}),
	});
}

/** Renames the table, as a user does under Data tables. */
export async function renameDataTable(rest: RestSession, tableId: string, name: string) {
	const project = await personalProject(rest);
	await restJson<unknown>(rest, `/rest/projects/${project.id}/data-tables/${tableId}`, {
		method: 'PATCH',
		body: JSON.stringify({ name }),
	});
}
