/**
 * iCalendar date values, each read on its own so that one bad value is skipped and named rather than losing the
 * property or the event: DATE, DATE-TIME (UTC, zoned or floating) and PERIOD (RFC 5545 3.3.4, 3.3.5, 3.3.9), and
 * their text when Homebody writes one back. Durations and rules stay with ical.js (ICAL.Duration, ICAL.Recur).
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import type { ParsedLine } from './icsText.js';
import { paramOf } from './icsText.js';
import { ianaZoneForTzid, isIanaZone } from './timeZoneNames.js';

type IcalTimezone = InstanceType<typeof ICAL.Timezone>;
type IcalDuration = InstanceType<typeof ICAL.Duration>;

/** How a time's wall clock becomes an instant. */
export type TimeBasis =
  | { readonly kind: 'date' }
  | { readonly kind: 'utc' }
  /** A TZID that is no IANA name, with its VTIMEZONE in the same calendar: the exporting app's own rules. */
  | { readonly kind: 'vtimezone'; readonly tzid: string; readonly zone: IcalTimezone }
  /** A TZID that names an IANA zone: directly, or (without a VTIMEZONE) as a Windows name. */
  | { readonly kind: 'iana'; readonly tzid: string; readonly iana: string }
  /** No TZID: the user's zone (RFC 5545 "floating" time). */
  | { readonly kind: 'floating' }
  /** A TZID Homebody cannot place: read in the user's zone, and reported. */
  | { readonly kind: 'unknown'; readonly tzid: string };

export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

export interface IcsTime {
  readonly wall: WallTime;
  readonly basis: TimeBasis;
}

export interface IcsPeriod {
  readonly start: IcsTime;
  readonly end?: IcsTime;
  readonly duration?: IcalDuration;
}

/** The VTIMEZONEs of one VCALENDAR, by TZID. */
export type ZoneTable = ReadonlyMap<string, IcalTimezone>;

// Google writes some RDATE dates with a Z ("20131210Z"); a date has no zone, so the Z says nothing.
const DATE = /^(\d{4})(\d{2})(\d{2})Z?$/;
const DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function checked(wall: WallTime, text: string): WallTime {
  const ok =
    wall.month >= 1 &&
    wall.month <= 12 &&
    wall.day >= 1 &&
    wall.day <= daysIn(wall.year, wall.month) &&
    wall.hour <= 23 &&
    wall.minute <= 59 &&
    wall.second <= 60;
  if (!ok) throw new Error(`"${text}" is not a real date`);
  return wall.second === 60 ? { ...wall, second: 59 } : wall;
}

/** The basis a TZID (or its absence) gives a date-time in this calendar. */
export function basisFor(tzid: string | undefined, zones: ZoneTable): TimeBasis {
  if (tzid === undefined || tzid.trim() === '') return { kind: 'floating' };
  if (/^(utc|gmt|z|etc\/utc|etc\/gmt)$/i.test(tzid.trim())) return { kind: 'utc' };
  // An IANA name means the IANA zone, as other readers take it: exporters often ship a VTIMEZONE cut down to a
  // few years (Apple's, Google's), which ical.js reads as offset zero outside them.
  if (tzid.includes('/') && isIanaZone(tzid.trim())) return { kind: 'iana', tzid, iana: tzid.trim() };
  const zone = zones.get(tzid) ?? zones.get(tzid.trim());
  if (zone) return { kind: 'vtimezone', tzid, zone };
  const iana = ianaZoneForTzid(tzid);
  return iana ? { kind: 'iana', tzid, iana } : { kind: 'unknown', tzid };
}

/**
 * One DATE or DATE-TIME value. `isDate` comes from VALUE=DATE or from the value's own shape (many apps leave
 * VALUE=DATE out). Throws an Error whose message names the value.
 */
export function parseTimeValue(text: string, tzid: string | undefined, zones: ZoneTable): IcsTime {
  const value = text.trim();
  const date = DATE.exec(value);
  if (date) {
    const wall = checked({ year: +date[1]!, month: +date[2]!, day: +date[3]!, hour: 0, minute: 0, second: 0 }, value);
    return { wall, basis: { kind: 'date' } };
  }
  const dateTime = DATE_TIME.exec(value);
  if (!dateTime) throw new Error(`"${value}" is not a date or a date and time`);
  const wall = checked(
    {
      year: +dateTime[1]!,
      month: +dateTime[2]!,
      day: +dateTime[3]!,
      hour: +dateTime[4]!,
      minute: +dateTime[5]!,
      second: +dateTime[6]!,
    },
    value,
  );
  return { wall, basis: dateTime[7] === 'Z' ? { kind: 'utc' } : basisFor(tzid, zones) };
}

export interface ListProblem {
  readonly value: string;
  readonly why: string;
}

/**
 * The values of an EXDATE or RDATE line (comma-separated dates, date-times or periods). A value that cannot be
 * read is left out and returned in `bad`; the others still count.
 */
export function parseTimeList(line: ParsedLine, zones: ZoneTable): { periods: IcsPeriod[]; bad: ListProblem[] } {
  const tzid = paramOf(line, 'TZID');
  const periods: IcsPeriod[] = [];
  const bad: ListProblem[] = [];
  for (const raw of line.value.split(',')) {
    const value = raw.trim();
    if (value === '') continue;
    try {
      const slash = value.indexOf('/');
      if (slash < 0) {
        periods.push({ start: parseTimeValue(value, tzid, zones) });
        continue;
      }
      const start = parseTimeValue(value.slice(0, slash), tzid, zones);
      const rest = value.slice(slash + 1);
      if (/^[+-]?P/i.test(rest)) {
        periods.push({ start, duration: parseDuration(rest) });
      } else {
        periods.push({ start, end: parseTimeValue(rest, tzid, zones) });
      }
    } catch (err) {
      bad.push({ value, why: (err as Error).message });
    }
  }
  return { periods, bad };
}

export function parseDuration(text: string): IcalDuration {
  const value = text.trim().toUpperCase();
  if (!/^[+-]?P(\d+W|(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?)$/.test(value) || /T$/.test(value) || value.endsWith('P')) {
    throw new Error(`"${text.trim()}" is not a duration`);
  }
  return ICAL.Duration.fromString(value);
}

/** The instant a time stands for. A DATE (all-day) means midnight of that day in the user's zone. */
export function toMillis(time: IcsTime, userZone: string): number {
  const { wall, basis } = time;
  switch (basis.kind) {
    case 'date':
      return DateTime.fromObject({ year: wall.year, month: wall.month, day: wall.day }, { zone: userZone }).toMillis();
    case 'utc':
      return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
    case 'vtimezone':
      return ICAL.Time.fromData({ ...wall, isDate: false }, basis.zone).toUnixTime() * 1000;
    case 'iana':
      return DateTime.fromObject(wall, { zone: basis.iana }).toMillis();
    case 'floating':
    case 'unknown':
      return DateTime.fromObject(wall, { zone: userZone }).toMillis();
    default:
      return basis satisfies never;
  }
}

/** The wall clock of instant `ms` in the zone of `basis` (a DATE basis: the user's local day). */
export function wallAt(ms: number, basis: TimeBasis, userZone: string): WallTime {
  const fromLuxon = (zone: string): WallTime => {
    const d = DateTime.fromMillis(ms, { zone });
    return { year: d.year, month: d.month, day: d.day, hour: d.hour, minute: d.minute, second: d.second };
  };
  switch (basis.kind) {
    case 'date': {
      const d = fromLuxon(userZone);
      return { ...d, hour: 0, minute: 0, second: 0 };
    }
    case 'utc':
      return fromLuxon('UTC');
    case 'vtimezone': {
      const t = ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true).convertToZone(basis.zone);
      return { year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second };
    }
    case 'iana':
      return fromLuxon(basis.iana);
    case 'floating':
    case 'unknown':
      return fromLuxon(userZone);
    default:
      return basis satisfies never;
  }
}

/** An ical.js Time with the same wall clock, for ical.js's rule iterator; zoned only when ical.js has the rules. */
export function toIcalTime(time: IcsTime): InstanceType<typeof ICAL.Time> {
  const isDate = time.basis.kind === 'date';
  const data = { ...time.wall, isDate };
  if (time.basis.kind === 'utc') return ICAL.Time.fromData(data, ICAL.Timezone.utcTimezone);
  if (time.basis.kind === 'vtimezone') return ICAL.Time.fromData(data, time.basis.zone);
  return ICAL.Time.fromData(data);
}

export function fromIcalTime(time: InstanceType<typeof ICAL.Time>, basis: TimeBasis): IcsTime {
  return {
    wall: {
      year: time.year,
      month: time.month,
      day: time.day,
      hour: time.hour,
      minute: time.minute,
      second: time.second,
    },
    basis,
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** "20261204" or "20261204T110000" (with Z for UTC): the value as iCalendar writes it. */
export function formatValue(time: IcsTime): string {
  const { wall, basis } = time;
  const date = `${pad(wall.year, 4)}${pad(wall.month)}${pad(wall.day)}`;
  if (basis.kind === 'date') return date;
  return `${date}T${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}${basis.kind === 'utc' ? 'Z' : ''}`;
}

/** "2026-12-04": the wall clock's day, to match occurrences by date. */
export function dayKey(wall: WallTime): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}
