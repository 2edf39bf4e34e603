/**
 * What the built-in tools' summarize() share: one line for people about what a call did (shown on its card, the raw
 * result a click away), built from a result that came back from the sandboxed worker. Nothing here trusts that
 * result's shape: every value is read through a typeof check, and a line that cannot be said is null.
 *
 * Text written by others (an event's title, a mail's subject, a page's title) is put on one line, stripped of control
 * and direction characters, cut short and quoted, so that it never reads as the app speaking.
 */
import path from 'node:path';
import type { JsonValue } from '../toolTypes.js';

export type JsonObject = { [key: string]: JsonValue };

/** The arguments as summarize() reads them: each may be missing or of any type. */
export type LooseArgs<Args> = { readonly [K in keyof Args]?: unknown };

/** The longest line a summary gives; a longer one is cut with "…". */
export const MAX_SUMMARY_CHARS = 200;

/**
 * A tool's summarize(): `build` gets the result as an object (anything else is no summary) and the arguments as
 * loose values; a line it returns is cut to MAX_SUMMARY_CHARS, and an exception it throws is no summary.
 */
export function summarizer<Args>(
  build: (result: JsonObject, args: LooseArgs<Args>) => string | null,
): (result: JsonValue, args: Args) => string | null {
  return (result, args) => {
    const shape = asObject(result);
    if (shape === undefined) return null;
    try {
      const line = build(shape, (asObject(args) ?? {}) as LooseArgs<Args>);
      return typeof line === 'string' && line.trim() !== '' ? cut(line.trim(), MAX_SUMMARY_CHARS) : null;
    } catch {
      return null;
    }
  };
}

// ---- reading values -------------------------------------------------------------------------------------------

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** A string with something in it, else undefined. */
export function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A finite number, else undefined. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A count (a whole number, not negative), else undefined. */
export function asCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function asList(value: unknown): readonly JsonValue[] | undefined {
  return Array.isArray(value) ? (value as JsonValue[]) : undefined;
}

/** The objects of a list (anything else in it is left out); undefined when it is not a list. */
export function asObjects(value: unknown): JsonObject[] | undefined {
  const list = asList(value);
  if (list === undefined) return undefined;
  return list.map(asObject).filter((item): item is JsonObject => item !== undefined);
}

/** The strings of a list that have something in them; [] when it is not a list. */
export function asTexts(value: unknown): string[] {
  return (asList(value) ?? []).map(asText).filter((item): item is string => item !== undefined);
}

// ---- writing text ---------------------------------------------------------------------------------------------

/** Cuts `text` to `max` characters (whole code points), ending it with "…" when it was longer. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points
    .slice(0, Math.max(1, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** One line of someone's text: control and direction characters out, runs of white space as one space, cut short. */
export function plain(text: string, max = 80): string {
  const line = text
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    // Format characters (direction overrides, zero-width spaces), but not the joiner emoji are built with.
    .replace(/(?!\u200d)\p{Cf}/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cut(line, max);
}

/** Someone's text in quotes ("Lunch?"), on one line and cut short; quotes inside become single quotes. */
export function quoted(text: string, max = 60): string {
  return `"${plain(text.replace(/["\u201c\u201d]/g, "'"), max)}"`;
}

/** 1,200; 9.72. */
export function formatNumber(value: number, maxFractionDigits = 2): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: maxFractionDigits });
}

/** Whole numbers in a text grouped by thousands ("1031 km" → "1,031 km"); digits after a point are left alone. */
export function groupDigits(text: string): string {
  return text.replace(/(^|[^\d.,])(\d{4,})/g, (_all, before: string, digits: string) => {
    return `${before}${digits.replace(/\B(?=(\d{3})+$)/g, ',')}`;
  });
}

/** "1 file", "3 files", "1,200 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** Sizes as the app shows them to people: "20 bytes", "1.2 KB", "340 KB", "4.5 MB" (decimal units). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return plural(bytes, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  // 999.6 KB would round to "1000 KB": it is 1.0 MB.
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 99.95 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** Words in a text, as people count them: runs of letters or digits between spaces. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Lines of a text as an editor counts them: a last line break ends a line, it does not start another. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.replace(/\r?\n$/, '').split(/\r?\n/).length;
}

/** "a", "a and b", "a, b and c", or the first `cap` then "and N more" when `total` is larger. */
export function series(items: readonly string[], total = items.length, cap = 3): string {
  const shown = items.slice(0, cap);
  const rest = Math.max(0, total - shown.length);
  if (rest > 0) return `${shown.join(', ')} and ${formatNumber(rest)} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

// ---- paths ----------------------------------------------------------------------------------------------------

/** A path for the line: on one line, and when long, its end ("…/Reports/2026/q3.txt"). */
export function shownPath(p: string, max = 90): string {
  const line = plain(p, Number.MAX_SAFE_INTEGER);
  if (line.length <= max) return line;
  const points = Array.from(line);
  return points.length <= max ? line : `…${points.slice(points.length - (max - 1)).join('')}`;
}

/** The last part of a path ("report.txt"), whatever the separator. */
export function lastPart(p: string): string {
  const parts = p.split(/[\\/]+/).filter((s) => s !== '');
  return plain(parts[parts.length - 1] ?? p, 80);
}

/** What goes before a file tool's entry name: "" for a file (or an unknown kind), "the folder ", "the link ". */
export function kindWord(kind: unknown): string {
  return kind === 'folder' ? 'the folder ' : kind === 'link' ? 'the link ' : '';
}

/** `p` below `folder` as a relative path ("Archive/a.txt"), or undefined when it is not inside it. */
export function below(folder: string, p: string): string | undefined {
  const relative = path.relative(folder, p);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative;
}

/**
 * Where something went, as seen from where it was: "Archive/a.txt" beside or below its old folder, else the full
 * path of its new place.
 */
export function placeFrom(from: string, to: string): string {
  return shownPath(below(path.dirname(from), to) ?? to);
}

/** A web address's host ("example.org"), or the address itself (on one line, cut) when it is not one. */
export function hostOf(url: string): string {
  try {
    const host = new URL(url).host;
    if (host !== '') return plain(host, 80);
  } catch {
    // Not a URL: say what it is.
  }
  return plain(url, 80);
}

// ---- dates ----------------------------------------------------------------------------------------------------

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A date (and time) on a wall clock, as the tools write them in the user's zone ("2026-12-03T08:00"). */
export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** 0 is Sunday. */
  readonly weekday: number;
  /** "08:00", absent for a date alone. */
  readonly time?: string;
}

/** "2026-12-03" or "2026-12-03T08:00[…]" (an offset after it is ignored: it is that place's wall clock). */
export function wallTime(value: unknown): WallTime | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return undefined;
  const time = m[4] !== undefined && m[5] !== undefined ? `${m[4]}:${m[5]}` : undefined;
  if (time !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return undefined;
  return { year, month, day, weekday: at.getUTCDay(), ...(time !== undefined ? { time } : {}) };
}

/** "3 Dec", with the year when it is not this year ("3 Dec 2027"). */
export function dateText(w: WallTime, options: { year?: 'auto' | 'always' } = {}): string {
  const withYear = options.year === 'always' || w.year !== new Date().getFullYear();
  return `${w.day} ${MONTHS[w.month - 1]}${withYear ? ` ${w.year}` : ''}`;
}

/** "Thu 3 Dec". */
export function dayText(w: WallTime, options: { year?: 'auto' | 'always' } = {}): string {
  return `${WEEKDAYS[w.weekday]} ${dateText(w, options)}`;
}

/** "Thu". */
export function weekdayShort(w: WallTime): string {
  return WEEKDAYS[w.weekday] ?? '';
}

/** "Thursday". */
export function weekdayName(w: WallTime): string {
  return WEEKDAY_NAMES[w.weekday] ?? '';
}

export function sameDay(a: WallTime, b: WallTime): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** A moment (an ISO time with its offset, e.g. a mail's date) as this computer's calendar date: "2 Dec". */
export function momentDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return undefined;
  const year = at.getFullYear();
  return `${at.getDate()} ${MONTHS[at.getMonth()]}${year !== new Date().getFullYear() ? ` ${year}` : ''}`;
}
