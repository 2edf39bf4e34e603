/**
 * Instants and wall clocks in the user's zone for the calendar tools: the times the model gives and reads. How a
 * file's own times become instants (VTIMEZONE, IANA and Windows names, floating, all-day) is in icsValues.ts.
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { ToolError } from '../../toolTypes.js';

type Time = InstanceType<typeof ICAL.Time>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MINUTE = 60_000;
export const DAY_MS = 24 * 60 * MINUTE;

/** "2026-12-03T09:00" in `zone`: what the model and the user read. */
export function formatLocal(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}

export function formatDate(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd');
}

export function weekday(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).setLocale('en').toFormat('cccc');
}

export interface UserTime {
  readonly ms: number;
  /** The user gave a date without a time. */
  readonly dateOnly: boolean;
}

/**
 * An ISO date ("2026-12-03") or date-time ("2026-12-03T09:00", with or without an offset) from the model; without
 * an offset it is a wall clock in the user's zone.
 */
export function parseUserTime(text: unknown, zone: string, label: string): UserTime {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ToolError('INVALID_INPUT', `${label} must be a date like 2026-12-03 or a time like 2026-12-03T09:00.`);
  }
  const value = text.trim().replace(' ', 'T');
  const parsed = DateTime.fromISO(value, { zone });
  if (!parsed.isValid) {
    throw new ToolError(
      'INVALID_INPUT',
      `${label} "${text}" is not a date like 2026-12-03 or a time like 2026-12-03T09:00.`,
    );
  }
  return { ms: parsed.toMillis(), dateOnly: DATE_ONLY.test(value) };
}

/** The start of the local day after the one `ms` falls in (DST days are 23 or 25 hours long). */
export function nextLocalMidnight(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).startOf('day').plus({ days: 1 }).toMillis();
}

export function localMidnight(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).startOf('day').toMillis();
}

/** "HH:MM" on the local day of `dayMs`. */
export function atLocalTime(dayMs: number, hhmm: string, zone: string): number {
  const [hour, minute] = hhmm.split(':').map(Number);
  return DateTime.fromMillis(dayMs, { zone })
    .startOf('day')
    .set({ hour: hour ?? 0, minute: minute ?? 0 })
    .toMillis();
}

/** An all-day ical.js DATE for the local day `ms` falls on. */
export function icalDate(ms: number, zone: string): Time {
  const local = DateTime.fromMillis(ms, { zone });
  return ICAL.Time.fromData({ year: local.year, month: local.month, day: local.day, isDate: true });
}

/** A UTC ical.js DATE-TIME (what Homebody writes for new events: every reader agrees on it). */
export function icalUtc(ms: number): Time {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return ICAL.Time.fromData(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
    },
    ICAL.Timezone.utcTimezone,
  );
}
