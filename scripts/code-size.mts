/**
 * The size of the node's source: the longest files and functions under nodes/ (or the folder
 * given), in lines, as CONTRIBUTING.md's limits count them (a function from its first line to its
 * closing brace, doc comment excluded).
 *
 *   npx vite-node scripts/code-size.mts [folder]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'nodes';

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

interface Measured {
	where: string;
	lines: number;
}

function functionsOf(path: string, text: string): Measured[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: Measured[] = [];
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const name =
				'name' in node && node.name
					? node.name.getText(source)
					: `(anonymous at ${lineOf(node.getStart()) + 1})`;
			found.push({
				where: `${relative('.', path)}:${lineOf(node.getStart()) + 1} ${name}`,
				lines: lineOf(node.getEnd()) - lineOf(node.getStart()) + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const files = sourceFiles(root).map((path) => {
	const text = readFileSync(path, 'utf8');
	return { path, text, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
});
const longestFiles = [...files].sort((a, b) => b.lines - a.lines).slice(0, 5);
const longestFunctions = files
	.flatMap(({ path, text }) => functionsOf(path, text))
	.sort((a, b) => b.lines - a.lines)
	.slice(0, 5);

console.log(
	`${files.length} files under ${root}/, ${files.reduce((sum, f) => sum + f.lines, 0)} lines`,
);
console.log('longest files:');
for (const { path, lines } of longestFiles)
	console.log(`  ${String(lines).padStart(4)}  ${relative('.', path)}`);
console.log('longest functions:');
for (const { where, lines } of longestFunctions)
	console.log(`  ${String(lines).padStart(4)}  ${where}`);
