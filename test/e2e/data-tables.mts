/**
 * n8n data tables as the examples use them: made as a user makes them under Data tables, picked
 * in the examples' data table steps, and their rows read back, through the owner's REST session.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CUSTOMERS_TABLE, WON_DEALS_TABLE } from '../../scripts/deal-examples.mts';
import type { ExampleWorkflow, N8nHome, RestSession } from './n8n-instance.mts';
import {
	importWorkflows,
	onTheTestsClock,
	restJson,
	runError,
	runFromTrigger,
	sendKeysTo,
} from './n8n-instance.mts';
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
 * The tables in the workflow's data table steps, as the README has users set them: `tables` by
 * name, each with its id. The examples find a table by its name, which the pinned n8n does as
 * shipped. Before 2.3 n8n has no By Name (its Data table field offers From list and ID): users pick
 * each step's table from the list, which stores its id. n8n 1.x has no Table → Create either:
 * users make the tables by hand and delete the steps that would make them, with their connections.
 */
export function pickDataTables<
	T extends Pick<ExampleWorkflow, 'nodes'> & { connections?: unknown },
>(workflow: T, tables: Record<string, string>): T {
	if (N8N_LINE_UNDER_TEST === undefined) return workflow;
	const makesTable = workflow.nodes.filter((node) => node.parameters.resource === 'table');
	const gone = new Set(makesTable.map((node) => node.name));
	workflow.nodes = workflow.nodes.filter((node) => !gone.has(node.name));
	const connections = (workflow.connections ?? {}) as Record<
		string,
		{ main: Array<Array<{ node: string }>> }
	>;
	for (const name of gone) delete connections[name];
	for (const outputs of Object.values(connections)) {
		outputs.main = outputs.main.map((output) => output.filter(({ node }) => !gone.has(node)));
	}
	const names = Object.keys(tables);
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-base.dataTable') continue;
		// A step picked before keeps the table's name beside its id.
		const picked = node.parameters.dataTableId as
			| { value?: string; cachedResultName?: string }
			| undefined;
		const named = picked?.cachedResultName ?? picked?.value ?? '';
		const name = names.length === 1 ? names[0] : named;
		if (!(name in tables)) throw new Error(`${node.name}: no table "${named}" to pick`);
		node.parameters.dataTableId = {
			__rl: true,
			mode: 'list',
			value: tables[name],
			cachedResultName: name,
		};
	}
	return workflow;
}

/** pickDataTables for a workflow of one table. */
export const pickDataTable = <T extends Pick<ExampleWorkflow, 'nodes'> & { connections?: unknown }>(
	workflow: T,
	tableId: string,
	tableName: string,
): T => pickDataTables(workflow, { [tableName]: tableId });

/** The id of the owner's data table of this name. */
export async function dataTableId(rest: RestSession, name: string): Promise<string> {
	const project = await personalProject(rest);
	const tables = await restJson<{ data: Array<{ id: string; name: string }> }>(
		rest,
		`/rest/projects/${project.id}/data-tables`,
	);
	const table = tables.data.find((found) => found.name === name);
	if (!table) throw new Error(`no data table "${name}"`);
	return table.id;
}

/**
 * Imports a won-deal example as the tests set it up (on the tests' clock, its keys sent to the
 * recorder, the CRM's side) with its tables (`deals`, CUSTOMERS_TABLE) as a user gets them;
 * their ids. On n8n 2.x the workflow makes them when it first runs (Make Table), here from its
 * schedule. n8n 1.x has no Table → Create: the tables are made first and picked as the README says.
 */
export async function importWonDealExample(
	{ home, rest, recorder }: { home: N8nHome; rest: RestSession; recorder: { url: string } },
	example: ExampleWorkflow,
	deals: DataTable = WON_DEALS_TABLE,
): Promise<{ tableId: string; customersTableId: string }> {
	const workflow = sendKeysTo(onTheTestsClock(structuredClone(example)), recorder.url);
	if (N8N_LINE_UNDER_TEST === undefined) {
		await importWorkflows(home, [workflow]);
		const first = await runFromTrigger(rest, workflow.id, 'Every 10 Minutes', 60_000);
		if (first.status !== 'success') throw new Error(`the first run failed: ${runError(first)}`);
		return {
			tableId: await dataTableId(rest, WON_DEALS_TABLE.name),
			customersTableId: await dataTableId(rest, CUSTOMERS_TABLE.name),
		};
	}
	const tableId = await createDataTable(rest, deals);
	const customersTableId = await createDataTable(rest, CUSTOMERS_TABLE);
	await importWorkflows(home, [
		pickDataTables(workflow, {
			[WON_DEALS_TABLE.name]: tableId,
			[CUSTOMERS_TABLE.name]: customersTableId,
		}),
	]);
	return { tableId, customersTableId };
}

/**
 * Takes a text column out of the table (its values with it), or puts it back empty, as a user
 * does in its header: on n8n 1.x, which cannot rename a column, the way to make a step that
 * writes it fail for a while.
 */
export async function dropColumn(rest: RestSession, tableId: string, name: string) {
	const project = await personalProject(rest);
	const path = `/rest/projects/${project.id}/data-tables/${tableId}/columns`;
	const columns = await restJson<Array<{ id: string; name: string }>>(rest, path);
	const column = columns.find((found) => found.name === name);
	if (!column) throw new Error(`no column "${name}"`);
	await restJson<unknown>(rest, `${path}/${column.id}`, { method: 'DELETE' });
}

export async function addColumn(rest: RestSession, tableId: string, name: string) {
	const project = await personalProject(rest);
	await restJson<unknown>(rest, `/rest/projects/${project.id}/data-tables/${tableId}/columns`, {
		method: 'POST',
		body: JSON.stringify({ name, type: 'string' }),
	});
}

/** Renames a column of the table, as a user does in its header. */
export async function renameColumn(rest: RestSession, tableId: string, from: string, to: string) {
	const project = await personalProject(rest);
	const path = `/rest/projects/${project.id}/data-tables/${tableId}/columns`;
	const columns = await restJson<Array<{ id: string; name: string }>>(rest, path);
	const column = columns.find((found) => found.name === from);
	if (!column) throw new Error(`no column "${from}"`);
	await restJson<unknown>(rest, `${path}/${column.id}/rename`, {
		method: 'PATCH',
		body: JSON.stringify({ name: to }),
	});
}

/** The table's rows whose columns hold the given values, oldest first. */
export async function tableRows(
	rest: RestSession,
	tableId: string,
	where: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> {
	const project = await personalProject(rest);
	const rows: Array<Record<string, unknown>> = [];
	// n8n gives at most MAX_ITEMS_PER_PAGE rows a page whatever `take` asks (@n8n/api-types: 250 in
	// 2.41.1, 50 in 1.123.81): pages are read until one is empty.
	for (;;) {
		const { data } = await restJson<{ data: Array<Record<string, unknown>> }>(
			rest,
			`/rest/projects/${project.id}/data-tables/${tableId}/rows?take=250&skip=${rows.length}`,
		);
		if (data.length === 0) break;
		rows.push(...data);
	}
	return rows.filter((row) =>
		Object.entries(where).every(([column, value]) => row[column] === value),
	);
}

/** Sets columns of the rows whose columns hold the given values, as a person edits the table. */
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

/** Where n8n keeps its database when it is PostgreSQL, for `ageDealRow`. */
export interface PostgresAt {
	port: number;
	user: string;
	database: string;
}

/**
 * Moves a deal's row back by `minutes` in n8n's database (SQLite in the user folder, or
 * PostgreSQL), as that much time would: what the sweep's `updatedAt` filter reads.
 */
export function ageDealRow(
	home: N8nHome,
	table: { id: string; dealId: string },
	minutes: number,
	postgres?: PostgresAt,
) {
	const name = `data_table_user_${table.id}`;
	const script = postgres
		? `
		const { Client } = require(${JSON.stringify(join(home.runtime.root, 'node_modules', 'pg'))});
		const client = new Client({ host: '127.0.0.1', port: ${postgres.port}, user: ${JSON.stringify(postgres.user)}, database: ${JSON.stringify(postgres.database)} });
		client.connect()
			.then(() => client.query('UPDATE "${name}" SET "updatedAt" = "updatedAt" - interval \\'${minutes} minutes\\' WHERE "dealId" = $1', [process.argv[1]]))
			.then((result) => { if (result.rowCount !== 1) throw new Error('rows changed: ' + result.rowCount); return client.end(); })
			.catch((error) => { console.error(error.message); process.exit(1); });`
		: `
		const { DatabaseSync } = require('node:sqlite');
		const db = new DatabaseSync(${JSON.stringify(join(home.userFolder, '.n8n', 'database.sqlite'))});
		const changed = db
			.prepare("UPDATE ${name} SET updatedAt = strftime('%Y-%m-%d %H:%M:%f', updatedAt, '-${minutes} minutes') WHERE dealId = ?")
			.run(process.argv[1]).changes;
		if (changed !== 1) throw new Error('rows changed: ' + changed);`;
	const aged = spawnSync(home.runtime.nodeBin, ['-e', script, table.dealId], { encoding: 'utf8' });
	if (aged.status !== 0) throw new Error(`could not age the row: ${aged.stderr}`);
}
