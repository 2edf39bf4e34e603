/**
 * Homebody's side of the calendar golden files (calendarReference.py writes the reference's side): the occurrences
 * Homebody lists for a fixture in a month, in the form the reference script prints them, and the comparison of the
 * two with the disagreements a golden file's notes explain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { readCalendarText } from '../../tools/builtin/calendar/calendarFiles.js';
import type { Problem } from '../../tools/builtin/calendar/calendarFiles.js';
import { indexEvents, occurrencesBetween } from '../../tools/builtin/calendar/occurrences.js';

export const REAL_FIXTURES = path.join(
  import.meta.dirname,
  '..',
  '..',
  'tools',
  'builtin',
  'calendar',
  'fixtures',
  'real',
);
const GOLDEN = path.join(REAL_FIXTURES, 'golden');

export interface Listed {
  readonly uid: string;
  readonly title?: string;
  readonly start: string;
  readonly end: string;
}

type ReferenceMonth =
  Listed[] | { error: string } | { perUid: string; skippedUids: Record<string, string>; occurrences: Listed[] };

export interface GoldenNote {
  readonly month: string;
  /** Which side lists these occurrences and the other does not. */
  readonly only: 'homebody' | 'reference';
  readonly occurrences: Listed[];
  readonly why: string;
}

export interface GoldenFile {
  readonly file: string;
  readonly timeZone: string;
  readonly reference: string;
  readonly months: Record<string, ReferenceMonth>;
  readonly notes: GoldenNote[];
}

export function goldenFiles(): GoldenFile[] {
  return readdirSync(GOLDEN)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => JSON.parse(readFileSync(path.join(GOLDEN, n), 'utf8')) as GoldenFile);
}

export function referenceListing(month: ReferenceMonth): Listed[] {
  if (Array.isArray(month)) return month;
  return 'occurrences' in month ? month.occurrences : [];
}

export const keyOf = (o: Listed): string => `${o.uid} ${o.start} ${o.end}`;

/** Homebody's occurrences of `file` in `month` (e.g. "2026-02") in `zone`, as the reference script shows them. */
export function homebodyListing(file: string, month: string, zone: string, problems: Problem[] = []): Listed[] {
  const text = readFileSync(path.join(REAL_FIXTURES, file), 'utf8');
  const index = indexEvents([readCalendarText(text, file, file, problems)], problems);
  const from = DateTime.fromISO(`${month}-01`, { zone });
  const found = occurrencesBetween(index, from.toMillis(), from.plus({ months: 1 }).toMillis(), zone, problems);
  const shown = (ms: number, allDay: boolean): string =>
    DateTime.fromMillis(ms, { zone }).toFormat(allDay ? 'yyyy-MM-dd' : "yyyy-MM-dd'T'HH:mm");
  return (
    found
      // The reference keeps a missing UID empty; Homebody names such events by file and position.
      .map((o) => ({
        uid: o.uid.startsWith('no-uid:') ? '' : o.uid,
        title: o.summary,
        start: shown(o.startMs, o.allDay),
        end: shown(o.endMs, o.allDay),
      }))
      .sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid) || a.end.localeCompare(b.end))
  );
}

/** What each side lists that the other does not, once the notes are taken into account. */
export function disagreements(golden: GoldenFile, month: string): { homebodyOnly: string[]; referenceOnly: string[] } {
  const reference = referenceListing(golden.months[month] as ReferenceMonth).map(keyOf);
  const homebody = homebodyListing(golden.file, month, golden.timeZone).map(keyOf);
  const notes = golden.notes.filter((n) => n.month === month);
  const noted = (only: GoldenNote['only']): string[] =>
    notes.filter((n) => n.only === only).flatMap((n) => n.occurrences.map(keyOf));
  // Notes say how the reference is wrong: its listing, corrected by them, is what Homebody must list.
  const expected = [...reference.filter((k) => !noted('reference').includes(k)), ...noted('homebody')].sort();
  const actual = [...homebody].sort();
  return {
    homebodyOnly: actual.filter((k) => !expected.includes(k)),
    referenceOnly: expected.filter((k) => !actual.includes(k)),
  };
}
