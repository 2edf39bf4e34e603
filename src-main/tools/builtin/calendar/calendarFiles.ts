/**
 * The calendar folder: every .ics file in it (Homebody's own, one event per file, and any other app's export,
 * however many events it holds). Each file is read one component at a time: its VTIMEZONEs and VEVENTs are parsed
 * by ical.js separately, so one event (or one line of it) that cannot be read is skipped and named by file, UID and
 * title, and the rest of the file is still read. The file's text is kept with each component's span in it, so a
 * write can change one component and leave every other byte as it was.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';
import type { ContentLine, ParsedLine, RawComponent, RawDocument } from './icsText.js';
import { parseDocument, parseLine } from './icsText.js';
import type { ZoneTable } from './icsValues.js';
import { isIanaZone } from './timeZoneNames.js';

export type Component = InstanceType<typeof ICAL.Component>;
type IcalTimezone = InstanceType<typeof ICAL.Timezone>;

/** Larger files are skipped with a note (a calendar export of many years is a few MB). */
export const MAX_ICS_BYTES = 20 * 1024 * 1024;
export const MAX_ICS_FILES = 5000;

/** Something in the folder that was skipped, or read only in part, and why. */
export interface Problem {
  readonly file: string;
  readonly uid?: string;
  readonly title?: string;
  readonly problem: string;
}

/** A content line of an event, with where it stands in the file. */
export interface EventLine {
  readonly line: ContentLine;
  readonly parsed: ParsedLine;
}

export interface EventPart {
  /** Where the VEVENT stands in the file's text. */
  readonly raw: RawComponent;
  /** The VEVENT as ical.js reads it (text values, people); lines that could not be read are left out. */
  readonly component: Component;
  /** Its own lines that could be read (sub-components such as VALARM excluded). */
  readonly lines: EventLine[];
  readonly uid: string;
  readonly summary: string;
}

export interface CalendarPart {
  readonly raw: RawComponent;
  readonly zones: ZoneTable;
  /** X-WR-TIMEZONE (Google, Apple): the calendar's own zone, in which its UTC repeating events repeat. */
  readonly calendarZone?: string;
  readonly events: EventPart[];
}

export interface CalendarFile {
  readonly path: string;
  readonly name: string;
  readonly text: string;
  readonly doc: RawDocument;
  readonly calendars: CalendarPart[];
}

export interface CalendarFolder {
  readonly files: CalendarFile[];
  readonly problems: Problem[];
}

const componentText = (text: string, raw: RawComponent): string =>
  text.slice(raw.start, raw.end) + (raw.closed ? '' : `\r\nEND:${raw.name}\r\n`);

function parseComponent(text: string): Component {
  return new ICAL.Component(ICAL.parse(text) as never);
}

function firstValue(raw: RawComponent, name: string): string | undefined {
  for (const line of raw.lines) {
    const parsed = parseLine(line.text);
    if (parsed?.name === name) return parsed.value;
  }
  return undefined;
}

/** A VTIMEZONE's rules, or a problem when ical.js cannot read them (events then fall back to the zone's name). */
function readZone(text: string, raw: RawComponent, file: string, problems: Problem[]): IcalTimezone | undefined {
  const tzid = firstValue(raw, 'TZID');
  try {
    const zone = new ICAL.Timezone(parseComponent(componentText(text, raw)));
    // Reading one offset makes ical.js check the rules now, not in the middle of a listing.
    zone.utcOffset(ICAL.Time.fromData({ year: 2000, month: 1, day: 1 }));
    return zone;
  } catch (err) {
    problems.push({
      file,
      problem: `The time zone ${JSON.stringify(tzid ?? '?')} cannot be read (${(err as Error).message}); its name is used instead.`,
    });
    return undefined;
  }
}

/**
 * A VEVENT through ical.js. When the whole does not parse, each line and sub-component is tried on its own and
 * the ones that fail are left out (and named), so one bad property does not cost the event.
 */
function readEvent(text: string, raw: RawComponent, file: string, index: number, problems: Problem[]): EventPart {
  const summary =
    firstValue(raw, 'SUMMARY')
      ?.replace(/\\([,;\\])/g, '$1')
      .replace(/\\[nN]/g, ' ') ?? '(no title)';
  const uid = firstValue(raw, 'UID')?.trim() || `no-uid:${file}:${index + 1}`;
  const report = (problem: string): void => void problems.push({ file, uid, title: summary, problem });
  if (!raw.closed) report(`The event has no END:VEVENT line; it was read up to where the next part begins.`);

  const lines: EventLine[] = [];
  const unreadable: ContentLine[] = [];
  for (const line of raw.lines) {
    const parsed = parseLine(line.text);
    if (parsed) lines.push({ line, parsed });
    else unreadable.push(line);
  }
  let component: Component;
  try {
    if (unreadable.length > 0) throw new Error('a line is not an iCalendar property');
    component = parseComponent(componentText(text, raw));
  } catch {
    // Line by line: keep what ical.js can read.
    const kept: EventLine[] = [];
    const keptText: string[] = [];
    for (const entry of lines) {
      try {
        parseComponent(`BEGIN:VEVENT\r\n${entry.line.text}\r\nEND:VEVENT\r\n`);
        kept.push(entry);
        keptText.push(entry.line.text);
      } catch (err) {
        report(`Its ${entry.parsed.name} line was skipped: ${(err as Error).message}.`);
      }
    }
    for (const line of unreadable) {
      report(
        `Line ${line.lineNo} was skipped: ${JSON.stringify(line.text.slice(0, 80))} is not an iCalendar property.`,
      );
    }
    const children: string[] = [];
    for (const child of raw.children) {
      const childText = componentText(text, child);
      try {
        parseComponent(childText);
        children.push(childText);
      } catch (err) {
        report(`Its ${child.name} was skipped: ${(err as Error).message}.`);
      }
    }
    component = parseComponent(['BEGIN:VEVENT', ...keptText, ...children, 'END:VEVENT', ''].join('\r\n'));
    lines.splice(0, lines.length, ...kept);
  }
  return { raw, component, lines, uid, summary };
}

/** Parses one iCalendar text component by component; what cannot be read is added to `problems`. */
export function readCalendarText(text: string, filePath: string, name: string, problems: Problem[]): CalendarFile {
  const doc = parseDocument(text.replace(/^\uFEFF/, ''));
  const roots = doc.roots.filter((r) => r.name === 'VCALENDAR');
  if (roots.length === 0) {
    throw new ToolError('INVALID_INPUT', `${name} is not an iCalendar file (it has no BEGIN:VCALENDAR).`);
  }
  const calendars: CalendarPart[] = [];
  for (const root of roots) {
    if (!root.closed) {
      problems.push({
        file: name,
        problem: `${name} ends without END:VCALENDAR (cut short?); what it holds was read.`,
      });
    }
    const zones = new Map<string, IcalTimezone>();
    for (const child of root.children.filter((c) => c.name === 'VTIMEZONE')) {
      const zone = readZone(text, child, name, problems);
      if (zone) zones.set(zone.tzid, zone);
    }
    const events: EventPart[] = [];
    root.children
      .filter((c) => c.name === 'VEVENT')
      .forEach((child, index) => {
        try {
          events.push(readEvent(text, child, name, index, problems));
        } catch (err) {
          problems.push({
            file: name,
            uid: firstValue(child, 'UID'),
            title: firstValue(child, 'SUMMARY'),
            problem: `The event cannot be read: ${(err as Error).message}.`,
          });
        }
      });
    const calendarZone = firstValue(root, 'X-WR-TIMEZONE')?.trim();
    calendars.push({ raw: root, zones, events, ...(calendarZone && isIanaZone(calendarZone) ? { calendarZone } : {}) });
  }
  return { path: filePath, name, text, doc, calendars };
}

/**
 * The VCALENDARs of a text as ical.js reads the whole at once: for callers that check a file Homebody ships (the
 * evaluation fixtures) and want it to be valid as a whole. Reading the user's folder goes through readCalendarText.
 */
export function parseCalendarText(text: string, name: string): Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (err) {
    throw new ToolError('INVALID_INPUT', `${name} is not a valid iCalendar file: ${(err as Error).message}.`);
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  return roots.map((jcal) => new ICAL.Component(jcal as never));
}

export async function readCalendarFile(file: string, problems: Problem[]): Promise<CalendarFile> {
  const name = path.basename(file);
  let text: string;
  try {
    const info = await stat(file);
    if (info.size > MAX_ICS_BYTES) {
      throw new ToolError('TOO_LARGE', `${name} is larger than ${MAX_ICS_BYTES / (1024 * 1024)} MB; it was skipped.`);
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw fsError(err, file);
  }
  return readCalendarText(text, file, name, problems);
}

/** Files Homebody leaves mid-write are hidden (".homebody-….tmp"); other hidden files are other apps' business. */
function isCalendarFileName(name: string): boolean {
  return !name.startsWith('.') && name.toLowerCase().endsWith('.ics');
}

export async function readCalendarFolder(dir: string, signal: AbortSignal): Promise<CalendarFolder> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && isCalendarFileName(d.name))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    throw fsError(err, dir);
  }
  const files: CalendarFile[] = [];
  const problems: Problem[] = [];
  if (names.length > MAX_ICS_FILES) {
    problems.push({ file: dir, problem: `Only the first ${MAX_ICS_FILES} of ${names.length} .ics files were read.` });
  }
  for (const name of names.slice(0, MAX_ICS_FILES)) {
    signal.throwIfAborted();
    try {
      files.push(await readCalendarFile(path.join(dir, name), problems));
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      problems.push({ file: name, problem: err.message });
    }
  }
  return { files, problems };
}

/** The problems as a tool result lists them. */
export function problemsView(problems: readonly Problem[]): Array<{ [key: string]: string }> {
  return problems.map((p) => ({
    file: p.file,
    ...(p.uid !== undefined ? { uid: p.uid } : {}),
    ...(p.title !== undefined ? { title: p.title } : {}),
    problem: p.problem,
  }));
}
