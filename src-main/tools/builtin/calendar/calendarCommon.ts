/** What the calendar tools share: the time range argument, and an occurrence as the model reads it. */
import type { JsonSchema, JsonValue } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import type { Problem } from './calendarFiles.js';
import { problemsView } from './calendarFiles.js';
import type { DuplicateUid, Occurrence, Person } from './occurrences.js';
import { DAY_MS, formatDate, formatLocal, nextLocalMidnight, parseUserTime, weekday } from './zonedTime.js';

/** The longest range one call may ask about. */
export const MAX_RANGE_DAYS = 366;
const DESCRIPTION_CHARS = 200;

export function timeParam(description: string): JsonSchema {
  return { type: 'string', minLength: 10, maxLength: 40, description };
}

export function uidParam(): JsonSchema {
  return {
    type: 'string',
    minLength: 1,
    maxLength: 1000,
    description: 'The event id (uid) as calendar_events lists it.',
  };
}

export function fileParam(): JsonSchema {
  return {
    type: 'string',
    minLength: 1,
    maxLength: 300,
    description: 'Only when two events share the uid: the file of the one to change, as calendar_events lists it.',
  };
}

/**
 * What a read found wrong, for the result: `unreadable` names what was skipped or read only in part (file, uid,
 * title, why); `sameUid` names each uid that more than one place holds (a write to one of them needs `file`).
 */
export function folderNotes(
  problems: readonly Problem[],
  duplicates: readonly DuplicateUid[],
): { [key: string]: JsonValue } {
  return {
    ...(problems.length > 0 ? { unreadable: problemsView(problems) } : {}),
    ...(duplicates.length > 0
      ? { sameUid: duplicates.map((d) => ({ uid: d.uid, title: d.title, files: d.places })) }
      : {}),
  };
}

export interface Range {
  readonly fromMs: number;
  readonly toMs: number;
}

/** from/to from the model: a date-only `to` means the whole of that day. */
export function parseRange(from: unknown, to: unknown, zone: string): Range {
  const start = parseUserTime(from, zone, 'from');
  const end = parseUserTime(to ?? from, zone, 'to');
  const toMs = end.dateOnly ? nextLocalMidnight(end.ms, zone) : end.ms;
  if (toMs <= start.ms) throw new ToolError('INVALID_INPUT', `"to" must come after "from".`);
  if (toMs - start.ms > MAX_RANGE_DAYS * DAY_MS) {
    throw new ToolError('INVALID_INPUT', `Ask about at most ${MAX_RANGE_DAYS} days at once.`);
  }
  return { fromMs: start.ms, toMs };
}

function personView(p: Person): JsonValue {
  return {
    ...(p.name ? { name: p.name } : {}),
    ...(p.email ? { email: p.email } : {}),
    ...(p.status ? { status: p.status } : {}),
  };
}

/**
 * One occurrence for the model, in the user's zone. All-day events give dates, `end` being the last day (not
 * iCalendar's exclusive end). `occurrence` names one occurrence of a repeating event for calendar_move and
 * calendar_cancel.
 */
export function occurrenceView(o: Occurrence, zone: string): JsonValue {
  const description =
    o.description && o.description.length > DESCRIPTION_CHARS
      ? `${o.description.slice(0, DESCRIPTION_CHARS)}…`
      : o.description;
  // What a person reads first comes first (the chat shows the start of a result).
  const view: { [key: string]: JsonValue } = { title: o.summary };
  if (o.allDay) {
    view.start = formatDate(o.startMs, zone);
    view.end = formatDate(Math.max(o.startMs, o.endMs - 1), zone);
    view.allDay = true;
  } else {
    view.start = formatLocal(o.startMs, zone);
    view.end = formatLocal(o.endMs, zone);
  }
  view.day = weekday(o.startMs, zone);
  view.uid = o.uid;
  if (o.location) view.location = o.location;
  if (description) view.description = description;
  // Who sent the invitation: the model (and the prompt after it) should know whose words the event holds.
  if (o.organizer) view.organizer = personView(o.organizer);
  if (o.attendees.length > 0) view.attendees = o.attendees.map(personView);
  if (o.recurring && o.recurrenceMs !== undefined) {
    view.repeats = true;
    view.occurrence = formatDate(o.recurrenceMs, zone);
  }
  if (o.transparent) view.showsAsFree = true;
  const basis = o.source.start.basis;
  if (basis.kind === 'unknown') view.timeZoneUnknown = basis.tzid;
  view.file = o.file;
  return view;
}

/** Lower case, accents removed: "Björn" finds "bjorn". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** True when `person` is who `query` names: the same email, or every word of the query begins a word of the name. */
export function samePerson(query: string, person: Person): boolean {
  const q = fold(query.trim());
  if (q === '') return false;
  if (q.includes('@')) return person.email !== undefined && fold(person.email) === q;
  const words = [
    ...fold(person.name ?? '').split(/[^\p{L}\p{N}]+/u),
    ...fold(person.email?.split('@')[0] ?? '').split(/[^\p{L}\p{N}]+/u),
  ].filter((w) => w !== '');
  return q.split(/\s+/).every((part) => words.some((w) => w.startsWith(part)));
}
