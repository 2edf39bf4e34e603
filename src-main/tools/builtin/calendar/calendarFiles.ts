/**
 * The calendar folder: every .ics file in it (Homebody's own, one event per file, and any other app's export,
 * however many events it holds), parsed with ical.js. A file that does not parse is reported by name and left
 * untouched; the others are still read.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { fsError } from '../../sandbox/pathGuard.js';
import { ToolError } from '../../toolTypes.js';

export type Component = InstanceType<typeof ICAL.Component>;

/** Larger files are skipped with a note (a calendar export of many years is a few MB). */
export const MAX_ICS_BYTES = 20 * 1024 * 1024;
export const MAX_ICS_FILES = 5000;

export interface CalendarFile {
  readonly path: string;
  readonly name: string;
  /** The VCALENDARs in the file (usually one). */
  readonly calendars: Component[];
}

export interface FileProblem {
  readonly file: string;
  readonly problem: string;
}

export interface CalendarFolder {
  readonly files: CalendarFile[];
  readonly problems: FileProblem[];
}

/** Parses one iCalendar text; throws ToolError INVALID_INPUT naming the file. */
export function parseCalendarText(text: string, name: string): Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (err) {
    throw new ToolError('INVALID_INPUT', `${name} is not a valid iCalendar file: ${(err as Error).message}.`);
  }
  const roots = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  const calendars = roots.map((jcal) => new ICAL.Component(jcal as never));
  if (calendars.length === 0 || calendars.some((c) => c.name !== 'vcalendar')) {
    throw new ToolError('INVALID_INPUT', `${name} is not an iCalendar file (no VCALENDAR).`);
  }
  return calendars;
}

export async function readCalendarFile(file: string): Promise<CalendarFile> {
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
  return { path: file, name, calendars: parseCalendarText(text, name) };
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
  const problems: FileProblem[] = [];
  if (names.length > MAX_ICS_FILES) {
    problems.push({ file: dir, problem: `Only the first ${MAX_ICS_FILES} of ${names.length} .ics files were read.` });
  }
  for (const name of names.slice(0, MAX_ICS_FILES)) {
    signal.throwIfAborted();
    try {
      files.push(await readCalendarFile(path.join(dir, name)));
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      problems.push({ file: name, problem: err.message });
    }
  }
  return { files, problems };
}

/** The file's text as Homebody writes it back: every VCALENDAR, CRLF line ends (RFC 5545). */
export function serializeCalendars(calendars: Component[]): string {
  return calendars.map((c) => c.toString().replace(/\r?\n/g, '\r\n') + '\r\n').join('');
}
