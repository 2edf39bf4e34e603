/**
 * Changes to one event as edits of the file's text, for calendar_move and calendar_cancel: a line of the touched
 * component replaced, a line added to it, the component removed, or a new component (a changed occurrence) added
 * beside it. Nothing is re-serialised: every byte outside the touched component stays as the other app wrote it,
 * a neighbour's odd or broken lines included, and the touched component keeps its other lines as they were.
 * Written times take the form of the time they replace: VALUE=DATE for an all-day series, its TZID for a zoned one,
 * Z for UTC.
 */
import { ToolError } from '../../toolTypes.js';
import type { CalendarFile, EventLine, EventPart } from './calendarFiles.js';
import type { EventData } from './eventData.js';
import type { FoundEvent } from './calendarWrites.js';
import type { RawComponent, TextEdit } from './icsText.js';
import { foldLine } from './icsText.js';
import type { IcsTime, TimeBasis, WallTime } from './icsValues.js';
import { formatValue, wallAt } from './icsValues.js';
import type { Occurrence } from './occurrences.js';
import { entryOccurrences } from './occurrences.js';
import { formatDate, localMidnight, nextLocalMidnight, parseUserTime } from './zonedTime.js';

const WEEK_MS = 7 * 86_400_000;

/** A parameter value, quoted when it holds a character that would end it (RFC 5545 3.2). */
function paramValue(value: string): string {
  return /[;:,]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
}

/** The parameters a value of `basis` needs: VALUE=DATE, a TZID, or none (UTC and floating). */
export function paramsFor(basis: TimeBasis): string {
  switch (basis.kind) {
    case 'date':
      return ';VALUE=DATE';
    case 'vtimezone':
    case 'iana':
    case 'unknown':
      return `;TZID=${paramValue(basis.tzid)}`;
    case 'utc':
    case 'floating':
      return '';
    default:
      return basis satisfies never;
  }
}

/** The instant `ms` as a time of the same form as `basis` (an all-day basis: the user's local day). */
export function sameForm(basis: TimeBasis, ms: number, userZone: string): IcsTime {
  return { wall: wallAt(ms, basis, userZone), basis };
}

export function lineFor(name: string, params: string, value: string, lineBreak: string): string {
  return foldLine(`${name}${params}:${value}`, lineBreak);
}

function utcStamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Collects the edits of one component: its lines replaced, removed or added before its first sub-component. */
export class ComponentEdit {
  private readonly edits: TextEdit[] = [];
  private readonly added: string[] = [];

  constructor(
    private readonly file: CalendarFile,
    private readonly part: EventPart,
  ) {}

  get lineBreak(): string {
    return this.file.doc.lineBreak;
  }

  linesNamed(name: string): EventLine[] {
    return this.part.lines.filter((l) => l.parsed.name === name);
  }

  /** Replaces the first line called `name` (the others are removed), or adds it when there is none. */
  set(name: string, params: string, value: string): void {
    const [first, ...rest] = this.linesNamed(name);
    const text = lineFor(name, params, value, this.lineBreak);
    if (first) this.edits.push({ start: first.line.start, end: first.line.end, text });
    else this.added.push(text);
    for (const extra of rest) this.edits.push({ start: extra.line.start, end: extra.line.end, text: '' });
  }

  remove(name: string): void {
    for (const entry of this.linesNamed(name))
      this.edits.push({ start: entry.line.start, end: entry.line.end, text: '' });
  }

  add(name: string, params: string, value: string): void {
    this.added.push(lineFor(name, params, value, this.lineBreak));
  }

  /** SEQUENCE up by one, DTSTAMP and LAST-MODIFIED now: other apps that sync the event take the new version. */
  touch(nowMs: number): void {
    const sequence = Number.parseInt(this.linesNamed('SEQUENCE')[0]?.parsed.value ?? '0', 10);
    this.set('SEQUENCE', '', String(Number.isFinite(sequence) ? sequence + 1 : 1));
    this.set('DTSTAMP', '', utcStamp(nowMs));
    this.set('LAST-MODIFIED', '', utcStamp(nowMs));
  }

  done(): TextEdit[] {
    if (this.added.length === 0) return this.edits;
    // After the component's last own line, so a new line never lands inside a VALARM.
    const at = Math.max(...this.part.raw.lines.map((l) => l.end));
    return [...this.edits, { start: at, end: at, text: this.added.join('') }];
  }
}

/** Removes whole components (their BEGIN to END lines). */
export function removeComponents(components: readonly RawComponent[]): TextEdit[] {
  return components.map((c) => ({ start: c.start, end: c.end, text: '' }));
}

/** Whether anything but time zones would be left in the file once `removed` are gone. */
export function leavesOtherComponents(file: CalendarFile, removed: readonly RawComponent[]): boolean {
  const starts = new Set(removed.map((c) => c.start));
  return file.doc.roots.some((root) =>
    root.children.some((child) => child.name !== 'VTIMEZONE' && !starts.has(child.start)),
  );
}

/**
 * A new component for one changed occurrence of `master`: its lines, less the rule lines, with a RECURRENCE-ID for
 * the occurrence and its new start and end; sub-components (alarms) copied as they are.
 */
export function newException(
  file: CalendarFile,
  master: EventData,
  recurrence: WallTime,
  start: IcsTime,
  end: IcsTime,
  nowMs: number,
): string {
  const lb = file.doc.lineBreak;
  const rewritten = new Set(['RRULE', 'RDATE', 'EXDATE', 'EXRULE', 'DTSTART', 'DTEND', 'DURATION']);
  rewritten.add('RECURRENCE-ID').add('SEQUENCE').add('DTSTAMP').add('LAST-MODIFIED');
  const copied = master.part.lines
    .filter((l) => !rewritten.has(l.parsed.name))
    .map((l) => file.text.slice(l.line.start, l.line.end))
    .map((text) => (/[\r\n]$/.test(text) ? text : text + lb));
  const children = master.part.raw.children.map((c) => {
    const text = file.text.slice(c.start, c.end);
    return /[\r\n]$/.test(text) ? text : text + lb;
  });
  const startBasis = master.start.basis;
  return [
    `BEGIN:VEVENT${lb}`,
    lineFor('DTSTART', paramsFor(start.basis), formatValue(start), lb),
    lineFor('DTEND', paramsFor(end.basis), formatValue(end), lb),
    lineFor('RECURRENCE-ID', paramsFor(startBasis), formatValue({ wall: recurrence, basis: startBasis }), lb),
    ...copied,
    lineFor('SEQUENCE', '', String(master.sequence + 1), lb),
    lineFor('DTSTAMP', '', utcStamp(nowMs), lb),
    lineFor('LAST-MODIFIED', '', utcStamp(nowMs), lb),
    ...children,
    `END:VEVENT${lb}`,
  ].join('');
}

/** Where a new component for this event goes: right after the last of its components in the file. */
export function afterEvent(found: FoundEvent): { at: number; prefix: string } {
  const parts = [found.entry.master, ...found.entry.exceptions].filter((d): d is EventData => d !== undefined);
  const at = Math.max(...parts.map((d) => d.part.raw.end));
  const text = found.entry.file.text;
  return { at, prefix: at > 0 && !/[\r\n]/.test(text[at - 1] ?? '') ? found.entry.file.doc.lineBreak : '' };
}

export function isRepeating(found: FoundEvent): boolean {
  const master = found.entry.master;
  return master !== undefined && (master.rrules.length > 0 || master.rdates.length > 0);
}

/**
 * The occurrence of a repeating event on the local date `occurrence` names (as calendar_events lists it in
 * `occurrence`, or the day it now takes place on).
 */
export function findOccurrence(found: FoundEvent, uid: string, occurrence: unknown, zone: string): Occurrence {
  const day = parseUserTime(occurrence, zone, 'occurrence');
  const from = localMidnight(day.ms, zone);
  const to = nextLocalMidnight(day.ms, zone);
  // A moved occurrence may now lie up to a few days away from the date it is named by.
  const around = entryOccurrences(found.entry, from - WEEK_MS, to + WEEK_MS, zone, []).filter(
    (o) => o.recurrenceMs !== undefined,
  );
  const wanted = formatDate(day.ms, zone);
  const match =
    around.find((o) => formatDate(o.recurrenceMs as number, zone) === wanted) ??
    around.find((o) => formatDate(o.startMs, zone) === wanted);
  if (!match) {
    throw new ToolError(
      'NOT_FOUND',
      `The repeating event ${JSON.stringify(uid)} has no occurrence on ${wanted}. Use calendar_events to see its dates.`,
    );
  }
  return match;
}

/** The changed-occurrence component an occurrence is listed from, if it is one. */
export function exceptionOf(occurrence: Occurrence): EventData | undefined {
  return occurrence.source.recurrenceId ? occurrence.source : undefined;
}
