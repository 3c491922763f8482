/** How scripts/code-size.mts and its test count the node's source. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The TypeScript files under a folder, at any depth. */
export function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Lines on which a token other than a comment starts or goes on, as cloc counts lines of code. */
export function codeLines(text: string): number {
	const source = ts.createSourceFile('code.ts', text, ts.ScriptTarget.Latest, true);
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
	const lines = new Set<number>();
	const visit = (node: ts.Node) => {
		if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode)
			return;
		if (node.getChildCount(source) === 0 && node.kind !== ts.SyntaxKind.EndOfFileToken) {
			for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++)
				lines.add(line);
		}
		node.getChildren(source).forEach(visit);
	};
	visit(source);
	return lines.size;
}
