/**
 * The size of the node's source: lines in nodes/ and credentials/ (or the folders given), in all
 * and of code (lines with more than blanks and comments, as cloc counts them: n8n-nodes-starter's
 * nodes/ and credentials/ are 939), then the longest files and functions, in lines, as
 * CONTRIBUTING.md's limits count them (a function from its first line to its closing brace, doc
 * comment excluded).
 *
 *   npx vite-node scripts/code-size.mts [folder…]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { codeLines, sourceFiles } from './code-lines.mts';

const roots = process.argv.length > 2 ? process.argv.slice(2) : ['nodes', 'credentials'];

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

const files = roots.flatMap(sourceFiles).map((path) => {
	const text = readFileSync(path, 'utf8');
	const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
	return { path, text, lines, code: codeLines(text) };
});
const sum = (key: 'lines' | 'code') => files.reduce((total, file) => total + file[key], 0);
const longestFiles = [...files].sort((a, b) => b.lines - a.lines).slice(0, 5);
const longestFunctions = files
	.flatMap(({ path, text }) => functionsOf(path, text))
	.sort((a, b) => b.lines - a.lines)
	.slice(0, 5);

console.log(
	`${files.length} files under ${roots.join('/, ')}/: ${sum('lines')} lines, ${sum('code')} of code`,
);
console.log('longest files (lines, of code):');
for (const { path, lines, code } of longestFiles)
	console.log(`  ${String(lines).padStart(4)} ${String(code).padStart(4)}  ${relative('.', path)}`);
console.log('longest functions:');
for (const { where, lines } of longestFunctions)
	console.log(`  ${String(lines).padStart(4)}  ${where}`);
