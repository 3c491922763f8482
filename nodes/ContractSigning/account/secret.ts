/**
 * Masks the API key in what the service sends back, before the node reads any of it: text,
 * headers, values and object keys at any depth. The key is found as sent and as stored, in any
 * letter case, URL-encoded, and inside longer tokens (`key_<KEY>`). A key shorter than
 * SHORTEST_KEY, which is never sent, is masked only as a whole word: "k" must not garble words.
 */
import { SHORTEST_KEY, trimText } from '../../../credentials/ContractSigningApi.credentials';

const MASK = '***';

/** Lower case, one character for one: a character whose lower case is longer stays as it is. */
function fold(text: string): string {
	const lower = text.toLowerCase();
	if (lower.length === text.length) return lower;
	return [...text].map((c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
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

	value<T>(value: T): T {
		return this.spellings.length === 0 ? value : (this.any(value) as T);
	}

	private any(value: unknown): unknown {
		if (typeof value === 'string') return this.text(value);
		if (Array.isArray(value)) return value.map((entry) => this.any(entry));
		if (typeof value !== 'object' || value === null) return value;
		const used = new Set<string>();
		// Own properties, `__proto__` too; two keys that mask alike ("<KEY>", "***") both stay.
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => {
				let free = this.text(name);
				for (let number = 2; used.has(free); number++) free = `${this.text(name)} (${number})`;
				used.add(free);
				return [free, this.any(entry)];
			}),
		);
	}

	private standsAlone(text: string, start: number, end: number): boolean {
		return !WORD_CHARACTER.test(text[start - 1] ?? ' ') && !WORD_CHARACTER.test(text[end] ?? ' ');
	}
}
