/**
 * Blanks around a value: whitespace, and the invisible characters a copy from a web page or a
 * spreadsheet brings along (zero-width spaces and joiners, the byte-order mark, NEL), which
 * JavaScript's own trim() leaves in place.
 */
const EDGE_BLANKS =
	/^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+|[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]+$/g;

export function trimText(text: string): string {
	return text.replace(EDGE_BLANKS, '');
}

/** The text, cut after `longest` characters with a note of how much was left out. */
export function boundText(text: string, longest: number): string {
	if (text.length <= longest) return text;
	return `${text.slice(0, longest)}… (${text.length - longest} more characters)`;
}
