import { DateTime, Duration, type DurationLikeObject } from 'luxon';
import { ToolError } from '../../toolTypes.js';

const UNITS: Record<string, keyof DurationLikeObject> = {
  second: 'seconds',
  sec: 'seconds',
  minute: 'minutes',
  min: 'minutes',
  hour: 'hours',
  hr: 'hours',
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
};

/** "in 20 minutes", "in 1 hour 30 minutes", "in 2 days" as a luxon Duration; undefined when it is not that form. */
export function relativeDuration(text: string): Duration | undefined {
  const match = /^in\s+(.+)$/i.exec(text.trim());
  if (!match?.[1]) return undefined;
  const parts = match[1]
    .toLowerCase()
    .replace(/\band\b|,/g, ' ')
    .trim()
    .split(/\s+/);
  if (parts.length % 2 !== 0) return undefined;
  const fields: DurationLikeObject = {};
  for (let i = 0; i < parts.length; i += 2) {
    const amount = Number(parts[i]);
    const unit = UNITS[(parts[i + 1] ?? '').replace(/s$/, '')];
    if (!Number.isFinite(amount) || amount < 0 || unit === undefined) return undefined;
    fields[unit] = (fields[unit] ?? 0) + amount;
  }
  const duration = Duration.fromObject(fields);
  return duration.isValid ? duration : undefined;
}

/** "tomorrow at 9:00", "today 18:30", "tomorrow 9am" in `zone`; undefined when it is not that form. */
export function dayAndTime(text: string, zone: string, now: DateTime): DateTime | undefined {
  const match = /^(today|tomorrow)(?:\s+at)?\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!match) return undefined;
  let hour = Number(match[2]);
  const minute = Number(match[3] ?? '0');
  const half = match[4]?.toLowerCase();
  if (half && (hour < 1 || hour > 12)) return undefined;
  if (half === 'pm' && hour < 12) hour += 12;
  if (half === 'am' && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return undefined;
  const day = now
    .setZone(zone)
    .startOf('day')
    .plus({ days: match[1]?.toLowerCase() === 'tomorrow' ? 1 : 0 });
  return day.set({ hour, minute });
}

/**
 * When a reminder is due: an ISO date and time ("2026-12-01T09:00", read in `zone` unless it carries an offset),
 * a time from now ("in 20 minutes"), or a time today or tomorrow. The answer is in `zone`.
 */
export function parseDue(text: string, zone: string, now: DateTime): DateTime {
  const relative = relativeDuration(text);
  if (relative) return now.setZone(zone).plus(relative);
  const dayTime = dayAndTime(text, zone, now);
  if (dayTime) return dayTime;
  const absolute = DateTime.fromISO(text.trim(), { zone, setZone: true });
  if (!absolute.isValid) {
    throw new ToolError(
      'INVALID_INPUT',
      `"${text}" is not a time Homebody understands: give "in 20 minutes", "tomorrow at 9:00", or an ISO date and time like 2026-12-01T09:00.`,
    );
  }
  return absolute.setZone(zone);
}
