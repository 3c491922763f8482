/**
 * Bad input, field by field, as each operation's test file lists it: each value is either sent as
 * the service accepts it, or refused before any request with a message that names the field.
 */
import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import { runStep, seedClient } from '../helpers.mts';
import type { StandIn } from '../service/stand-in.mts';

export const LONG_TEXT = 'x'.repeat(5000);
export const NON_ASCII = 'Zoë Ångström – 李小龍 🚀';
/** A date as `$now` gives one (a Luxon DateTime), fixed so that what is sent can be compared. */
export const A_DATE = 'DateTime.fromISO("2026-01-02T03:04:05.000Z", { zone: "utc" })';
export const A_DATE_TEXT = '2026-01-02T03:04:05.000Z';

/** The keys of the client each case starts from (seedClient). */
export interface Keys {
	clientKey: string;
	defaultUserKey: string;
}

type Expectation = { sends: (keys: Keys) => IDataObject } | { refuses: string };

export interface BadInputCase {
	name: string;
	parameters: (keys: Keys) => IDataObject;
	item?: IDataObject;
	expect: Expectation;
}

/** The operation's bad-input cases, each run through n8n's engine against a fresh client. */
export function describeBadInput(service: () => StandIn, cases: BadInputCase[]): void {
	describe('bad input, field by field', () => {
		it.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
			const keys = await seedClient(service());
			const { error } = await runStep(service(), entry.parameters(keys), {
				items: [entry.item ?? {}],
			});

			if ('refuses' in entry.expect) {
				expect(error?.message).toBe(entry.expect.refuses);
				expect(error?.description).toMatch(/\S/);
				expect(service().requests).toHaveLength(0);
			} else {
				expect(service().requests.map((request) => request.body)).toEqual([
					entry.expect.sends(keys),
				]);
			}
		});
	});
}
