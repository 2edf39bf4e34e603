/**
 * The events of the calendar folder that overlap a time range, one row per occurrence. A repeating event's dates
 * are its DTSTART, its RRULE (expanded by ical.js's rule iterator) and its RDATEs (dates, date-times and periods,
 * each with its own length), less its EXDATEs; a changed occurrence (RECURRENCE-ID) replaces the one it names: the
 * occurrence starting at that instant, or, when none does (an Exchange all-day exception written as a midnight
 * date-time, an app that moved DTSTART), the one on that day. Every time becomes an instant through its own zone
 * (icsValues.ts). Events are grouped per UID and calendar; two masters with one UID are duplicates, reported, and
 * a newer copy (higher SEQUENCE) replaces an older one.
 */
import ICAL from 'ical.js';
import type { CalendarFile, CalendarPart, Problem } from './calendarFiles.js';
import type { EventData, Person } from './eventData.js';
import { isRepeatingData, readEventData } from './eventData.js';
import type { IcsTime, WallTime } from './icsValues.js';
import { dayKey, formatValue, fromIcalTime, toIcalTime, toMillis, wallAt } from './icsValues.js';

export type { Person } from './eventData.js';

type IcalTime = InstanceType<typeof ICAL.Time>;

/** A repeating event is expanded at most this far (a daily event started 25 years ago is about 9,000). */
export const MAX_EXPANSION = 20_000;
const DAY_MS = 86_400_000;

/** The events of one UID in one VCALENDAR: a master (or none) and its changed occurrences. */
export interface EventEntry {
  readonly file: CalendarFile;
  readonly calendar: CalendarPart;
  readonly uid: string;
  /** The file name, or "name.ics#2" when the file holds this UID more than once: what `file` arguments name. */
  readonly place: string;
  readonly master?: EventData;
  readonly exceptions: EventData[];
  /** Another master with this UID in the same calendar has a higher SEQUENCE: this copy is not listed. */
  readonly superseded: boolean;
  /** False for the second and later masters of one UID in a calendar: their shared exceptions are listed once. */
  readonly listsExceptions: boolean;
}

export interface DuplicateUid {
  readonly uid: string;
  readonly title: string;
  readonly places: string[];
}

export interface Occurrence {
  readonly uid: string;
  readonly summary: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly allDay: boolean;
  readonly location?: string;
  readonly description?: string;
  readonly attendees: Person[];
  readonly organizer?: Person;
  readonly transparent: boolean;
  readonly recurring: boolean;
  /** The original start of this occurrence of a repeating event (its RECURRENCE-ID), as an instant. */
  readonly recurrenceMs?: number;
  /** That original start as a wall clock in the form of the series' DTSTART: what an EXDATE or RECURRENCE-ID says. */
  readonly recurrenceWall?: WallTime;
  /** The component the occurrence is listed from (the series, or the changed occurrence). */
  readonly source: EventData;
  readonly entry: EventEntry;
  /** Where it is, as `place` says. */
  readonly file: string;
}

export interface CalendarIndex {
  readonly entries: EventEntry[];
  readonly duplicates: DuplicateUid[];
}

/** Reads every event of the files into entries by UID; what cannot be read is added to `problems`. */
export function indexEvents(files: readonly CalendarFile[], problems: Problem[]): CalendarIndex {
  const entries: EventEntry[] = [];
  for (const file of files) {
    const inFile: Array<Omit<EventEntry, 'place'>> = [];
    for (const calendar of file.calendars) {
      const masters = new Map<string, EventData[]>();
      const exceptions = new Map<string, EventData[]>();
      for (const part of calendar.events) {
        let data: EventData;
        try {
          data = readEventData(part, calendar.zones, file.name, problems, calendar.calendarZone);
        } catch (err) {
          problems.push({
            file: file.name,
            uid: part.uid,
            title: part.summary,
            problem: `The event cannot be read: ${(err as Error).message}.`,
          });
          continue;
        }
        const into = data.recurrenceId ? exceptions : masters;
        into.set(data.uid, [...(into.get(data.uid) ?? []), data]);
      }
      for (const [uid, list] of masters) {
        const newest = Math.max(...list.map((m) => m.sequence));
        let first = true;
        for (const master of list) {
          const superseded = master.sequence < newest;
          inFile.push({
            file,
            calendar,
            uid,
            master,
            exceptions: superseded ? [] : (exceptions.get(uid) ?? []),
            superseded,
            listsExceptions: !superseded && first,
          });
          if (!superseded) first = false;
        }
      }
      for (const [uid, list] of exceptions) {
        if (masters.has(uid)) continue;
        inFile.push({ file, calendar, uid, exceptions: list, superseded: false, listsExceptions: true });
      }
    }
    const count = new Map<string, number>();
    for (const e of inFile) count.set(e.uid, (count.get(e.uid) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const e of inFile) {
      const n = (seen.get(e.uid) ?? 0) + 1;
      seen.set(e.uid, n);
      entries.push({ ...e, place: (count.get(e.uid) ?? 1) > 1 ? `${file.name}#${n}` : file.name });
    }
  }
  const byUid = new Map<string, EventEntry[]>();
  for (const e of entries) byUid.set(e.uid, [...(byUid.get(e.uid) ?? []), e]);
  const duplicates: DuplicateUid[] = [];
  for (const [uid, list] of byUid) {
    if (list.length < 2) continue;
    const title = (list[0]?.master ?? list[0]?.exceptions[0])?.summary ?? '(no title)';
    duplicates.push({ uid, title, places: list.map((e) => e.place) });
  }
  return { entries, duplicates };
}

const overlaps = (o: Occurrence, from: number, to: number): boolean =>
  o.startMs < to && (o.endMs > from || (o.endMs === o.startMs && o.startMs >= from));

function addDays(wall: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 };
}

function daysBetween(a: WallTime, b: WallTime): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/**
 * Where an occurrence starting at `start` ends, by the rules of `data` (RFC 5545 3.6.1, 3.8.5.3): DTEND's exact
 * length (whole days for a DATE), DURATION, or the same instant (the next day for a DATE).
 */
function endFor(data: EventData, start: IcsTime, startMs: number, userZone: string): number {
  const isDate = start.basis.kind === 'date';
  if (data.end) {
    if (isDate && data.start.basis.kind === 'date') {
      const days = daysBetween(data.start.wall, data.end.wall);
      if (days > 0) return toMillis({ wall: addDays(start.wall, days), basis: start.basis }, userZone);
    } else {
      const length = toMillis(data.end, userZone) - toMillis(data.start, userZone);
      if (length >= 0) return startMs + length;
    }
  }
  if (data.duration) {
    const seconds = data.duration.toSeconds();
    if (isDate) {
      const days = Math.round(seconds / 86_400);
      if (days > 0) return toMillis({ wall: addDays(start.wall, days), basis: start.basis }, userZone);
    } else if (seconds >= 0) {
      return startMs + seconds * 1000;
    }
  }
  if (isDate) return toMillis({ wall: addDays(start.wall, 1), basis: start.basis }, userZone);
  return startMs;
}

function isUtc(time: IcalTime): boolean {
  return time.zone?.tzid === 'UTC' || time.zone === ICAL.Timezone.utcTimezone;
}

/** Whether a rule's UNTIL still allows an occurrence (RFC 5545 3.3.10: inclusive), read in the series' form. */
function untilAllows(until: IcalTime, occurrence: IcsTime, occurrenceMs: number): boolean {
  const untilWall = fromIcalTime(until, { kind: 'floating' }).wall;
  if (until.isDate || occurrence.basis.kind === 'date') return dayKey(occurrence.wall) <= dayKey(untilWall);
  if (isUtc(until)) {
    const untilMs = Date.UTC(until.year, until.month - 1, until.day, until.hour, until.minute, until.second);
    return occurrenceMs <= untilMs;
  }
  // A floating UNTIL on a zoned series (not what RFC 5545 allows, but common): the series' own wall clock.
  return (
    formatValue({ wall: occurrence.wall, basis: { kind: 'floating' } }) <=
    formatValue({
      wall: untilWall,
      basis: { kind: 'floating' },
    })
  );
}

interface Start {
  readonly time: IcsTime;
  readonly ms: number;
  /** An RDATE period's own end. */
  readonly endMs?: number;
  replaced: boolean;
}

/** The series' occurrence starts up to `horizonMs`, in order, less its EXDATEs. */
function seriesStarts(
  data: EventData,
  horizonMs: number,
  userZone: string,
  file: string,
  problems: Problem[],
): Start[] {
  const starts = new Map<number, Start>();
  const add = (time: IcsTime, endMs?: number): void => {
    const ms = toMillis(time, userZone);
    if (!starts.has(ms)) starts.set(ms, { time, ms, ...(endMs !== undefined ? { endMs } : {}), replaced: false });
  };
  add(data.start);
  let capped = false;
  for (const rule of data.rrules) {
    const unbounded = rule.clone();
    const until = unbounded.until;
    unbounded.until = null;
    try {
      const iterator = unbounded.iterator(toIcalTime(data.ruleStart));
      for (let count = 0; ; count += 1) {
        if (count >= MAX_EXPANSION) {
          capped = true;
          break;
        }
        const next = iterator.next();
        if (!next) break;
        const time = fromIcalTime(next, data.ruleStart.basis);
        const ms = toMillis(time, userZone);
        if (until && !untilAllows(until, time, ms)) break;
        if (ms >= horizonMs) break;
        add(time);
      }
    } catch (err) {
      problems.push({
        file,
        uid: data.uid,
        title: data.summary,
        problem: `Its repeat rule cannot be expanded (${(err as Error).message}); only its other dates are listed.`,
      });
    }
  }
  if (capped) {
    problems.push({
      file,
      uid: data.uid,
      title: data.summary,
      problem: `The repeating event was expanded only ${MAX_EXPANSION} times.`,
    });
  }
  for (const period of data.rdates) {
    const startMs = toMillis(period.start, userZone);
    let endMs: number | undefined;
    if (period.end) endMs = toMillis(period.end, userZone);
    else if (period.duration) endMs = startMs + period.duration.toSeconds() * 1000;
    add(period.start, endMs !== undefined && endMs >= startMs ? endMs : undefined);
  }
  const excluded = (s: Start): boolean =>
    data.exdates.some((ex) =>
      ex.basis.kind === 'date' || s.time.basis.kind === 'date'
        ? // A DATE on either side names the day (Exchange writes all-day EXDATEs as midnight date-times).
          dayKey(ex.wall) === dayKey(s.time.wall)
        : toMillis(ex, userZone) === s.ms,
    );
  return [...starts.values()].filter((s) => !excluded(s)).sort((a, b) => a.ms - b.ms);
}

function describe(
  data: EventData,
  entry: EventEntry,
  startMs: number,
  endMs: number,
  allDay: boolean,
  recurrence?: { recurrenceMs: number; recurrenceWall: WallTime },
): Occurrence {
  return {
    uid: data.uid,
    summary: data.summary,
    startMs,
    endMs,
    allDay,
    ...(data.location ? { location: data.location } : {}),
    ...(data.description ? { description: data.description } : {}),
    attendees: data.attendees,
    ...(data.organizer ? { organizer: data.organizer } : {}),
    transparent: data.transparent,
    recurring: recurrence !== undefined,
    ...(recurrence ?? {}),
    source: data,
    entry,
    file: entry.place,
  };
}

function single(
  data: EventData,
  entry: EventEntry,
  userZone: string,
  recurrence?: Occurrence['recurrenceMs'],
): Occurrence {
  const startMs = toMillis(data.start, userZone);
  const endMs = endFor(data, data.start, startMs, userZone);
  const rid = data.recurrenceId;
  return describe(
    data,
    entry,
    startMs,
    endMs,
    data.start.basis.kind === 'date',
    recurrence !== undefined && rid ? { recurrenceMs: recurrence, recurrenceWall: rid.wall } : undefined,
  );
}

/** Of several changes to one occurrence, the newest (highest SEQUENCE; the later one in the file on a tie). */
function newestExceptions(exceptions: readonly EventData[], userZone: string): EventData[] {
  const byRid = new Map<number, EventData>();
  for (const ex of exceptions) {
    const ms = toMillis(ex.recurrenceId as IcsTime, userZone);
    const other = byRid.get(ms);
    if (!other || ex.sequence >= other.sequence) byRid.set(ms, ex);
  }
  return [...byRid.values()];
}

/** The occurrences of one entry overlapping [fromMs, toMs). */
export function entryOccurrences(
  entry: EventEntry,
  fromMs: number,
  toMs: number,
  userZone: string,
  problems: Problem[],
): Occurrence[] {
  const out: Occurrence[] = [];
  const master = entry.master;
  const exceptions = newestExceptions(entry.exceptions, userZone);
  if (!master) {
    for (const ex of exceptions) {
      if (ex.cancelled) continue;
      const o = single(ex, entry, userZone, toMillis(ex.recurrenceId as IcsTime, userZone));
      if (overlaps(o, fromMs, toMs)) out.push(o);
    }
    return out;
  }
  if (master.cancelled || entry.superseded) return out;
  const repeating = isRepeatingData(master);
  if (!repeating && exceptions.length === 0) {
    const o = single(master, entry, userZone);
    return overlaps(o, fromMs, toMs) ? [o] : [];
  }
  const ridMs = exceptions.map((ex) => toMillis(ex.recurrenceId as IcsTime, userZone));
  const horizon = Math.max(toMs, ...ridMs.map((ms) => ms + 2 * DAY_MS));
  const starts = seriesStarts(master, horizon, userZone, entry.file.name, problems);

  // Each changed occurrence replaces the occurrence it names: the same instant, else the same day.
  const matched = new Map<EventData, Start>();
  exceptions.forEach((ex, i) => {
    const rid = ex.recurrenceId as IcsTime;
    const exact = starts.find((s) => !s.replaced && s.ms === ridMs[i]);
    const sameDay = exact ?? starts.find((s) => !s.replaced && dayKey(s.time.wall) === dayKey(rid.wall));
    if (sameDay) {
      sameDay.replaced = true;
      matched.set(ex, sameDay);
    }
  });

  for (const s of starts) {
    if (s.replaced) continue;
    const endMs = s.endMs ?? endFor(master, s.time, s.ms, userZone);
    const o = describe(master, entry, s.ms, endMs, s.time.basis.kind === 'date', {
      recurrenceMs: s.ms,
      recurrenceWall: wallAt(s.ms, master.start.basis, userZone),
    });
    if (overlaps(o, fromMs, toMs)) out.push(o);
    if (s.ms >= toMs) break;
  }
  if (!entry.listsExceptions) return out;
  exceptions.forEach((ex, i) => {
    if (ex.cancelled) return;
    const startMs = toMillis(ex.start, userZone);
    const original = matched.get(ex);
    const recurrenceMs = original?.ms ?? (ridMs[i] as number);
    const recurrenceWall =
      master.start.basis.kind === 'date'
        ? (original?.time.wall ?? (ex.recurrenceId as IcsTime).wall)
        : wallAt(recurrenceMs, master.start.basis, userZone);
    const o = describe(ex, entry, startMs, endFor(ex, ex.start, startMs, userZone), ex.start.basis.kind === 'date', {
      recurrenceMs,
      recurrenceWall,
    });
    if (overlaps(o, fromMs, toMs)) out.push(o);
  });
  return out;
}

/**
 * Every occurrence overlapping [fromMs, toMs) in the indexed files, sorted by start. An event that cannot be read
 * is in `problems` by file, UID and title; the others are still listed.
 */
export function occurrencesBetween(
  index: CalendarIndex,
  fromMs: number,
  toMs: number,
  userZone: string,
  problems: Problem[],
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const entry of index.entries) {
    try {
      out.push(...entryOccurrences(entry, fromMs, toMs, userZone, problems));
    } catch (err) {
      problems.push({
        file: entry.file.name,
        uid: entry.uid,
        title: (entry.master ?? entry.exceptions[0])?.summary,
        problem: `The event cannot be listed: ${(err as Error).message}.`,
      });
    }
  }
  return out.sort((a, b) => a.startMs - b.startMs || a.summary.localeCompare(b.summary));
}
