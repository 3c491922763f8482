/**
 * Masks the API key in what the service sends back, before the node reads any of it: its text,
 * headers, and error or success bodies (values and object keys, at any depth). The key is found
 * as it was sent and as it was stored, in any letter case, URL-encoded, and inside longer tokens
 * (`key_<KEY>`). The node's own texts are never passed through here, so they are never touched.
 *
 * A key shorter than SHORTEST_KEY is never sent (the credential refuses it); should one reach
 * this module all the same, it is masked only where it stands as a whole word, so that a key
 * such as "k" cannot garble the words around it.
 */
import { SHORTEST_KEY, trimText } from '../../../credentials/ContractSigningApi.credentials';

const MASK = '***';

/** Lower case, one character for one: a character whose lower case is longer stays as it is. */
function fold(text: string): string {
	const lower = text.toLowerCase();
	if (lower.length === text.length) return lower;
	let folded = '';
	for (const character of text) {
		const low = character.toLowerCase();
		folded += low.length === character.length ? low : character;
	}
	return folded;
}

/** Every spelling of the key a reply may carry, folded, longest first. */
function spellingsOf(key: string): string[] {
	const sent = trimText(key);
	const encoded = encodeURIComponent(sent);
	const spellings = new Set(
		[
			key,
			sent,
			encoded,
			encoded.replace(/%20/g, '+'),
			encodeURI(sent),
			JSON.stringify(sent).slice(1, -1),
		]
			.filter((spelling) => spelling.length > 0)
			.map(fold),
	);
	return [...spellings].sort((a, b) => b.length - a.length);
}

const WORD_CHARACTER = /[\p{L}\p{N}_-]/u;

export class SecretMask {
	private readonly spellings: string[];

	private readonly wholeWordsOnly: boolean;

	constructor(key: string | undefined) {
		const sent = trimText(key ?? '');
		this.spellings = sent ? spellingsOf(key ?? '') : [];
		this.wholeWordsOnly = sent.length < SHORTEST_KEY;
	}

	/** The text with every spelling of the key replaced by `***`. */
	text(text: string): string {
		if (this.spellings.length === 0 || text.length === 0) return text;
		const folded = fold(text);
		const spans: Array<[number, number]> = [];
		for (const spelling of this.spellings) {
			for (let at = folded.indexOf(spelling); at !== -1; at = folded.indexOf(spelling, at + 1)) {
				const end = at + spelling.length;
				if (this.wholeWordsOnly && !this.standsAlone(text, at, end)) continue;
				spans.push([at, end]);
			}
		}
		if (spans.length === 0) return text;
		spans.sort((a, b) => a[0] - b[0]);
		// Overlapping or adjacent spellings ("<KEY><KEY>") become one mask.
		let masked = '';
		let done = -1;
		for (const [start, end] of spans) {
			if (start > done) masked += text.slice(Math.max(done, 0), start) + MASK;
			done = Math.max(done, end);
		}
		return masked + text.slice(done);
	}

	/** Any value: strings masked, arrays and objects copied with their keys and values masked. */
	value<T>(value: T): T {
		return this.spellings.length === 0 ? value : (this.any(value) as T);
	}

	private any(value: unknown): unknown {
		if (typeof value === 'string') return this.text(value);
		if (Array.isArray(value)) return value.map((entry) => this.any(entry));
		if (typeof value !== 'object' || value === null) return value;
		const entries = Object.entries(value).map(([name, entry]) => [
			this.text(name),
			this.any(entry),
		]);
		const copy: Record<string, unknown> = {};
		for (const [name, entry] of entries as Array<[string, unknown]>) {
			let free = name;
			// Two keys that mask alike ("<KEY>" and "***") both stay.
			for (let number = 2; Object.prototype.hasOwnProperty.call(copy, free); number++) {
				free = `${name} (${number})`;
			}
			Object.defineProperty(copy, free, {
				value: entry,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		return copy;
	}

	private standsAlone(text: string, start: number, end: number): boolean {
		return !WORD_CHARACTER.test(text[start - 1] ?? ' ') && !WORD_CHARACTER.test(text[end] ?? ' ');
	}
}
