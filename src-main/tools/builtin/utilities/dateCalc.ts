import { DateTime, Duration, IANAZone } from 'luxon';
import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { relativeDuration } from '../reminders/parseDue.js';
import type { JsonObject, LooseArgs } from '../summaryText.js';
import { asNumber, asText, dateText, plain, plural, summarizer, wallTime, weekdayShort } from '../summaryText.js';

export type DateCalcArgs = {
  operation: 'add' | 'subtract' | 'difference' | 'convert_zone' | 'weekday';
  date: string;
  duration?: string;
  otherDate?: string;
  toZone?: string;
};

const OPERATIONS = ['add', 'subtract', 'difference', 'convert_zone', 'weekday'] as const;

function invalid(message: string): never {
  throw new ToolError('INVALID_INPUT', message);
}

function zoneOf(name: string): string {
  if (!IANAZone.isValidZone(name)) invalid(`"${name}" is not a time zone; use an IANA name like Europe/Paris.`);
  return name;
}

/** An ISO date or date and time (read in `zone` unless it has an offset), or "now" / "today". */
export function readDate(text: string, zone: string, now: DateTime): DateTime {
  const t = text.trim().toLowerCase();
  if (t === 'now') return now.setZone(zone);
  if (t === 'today') return now.setZone(zone).startOf('day');
  const date = DateTime.fromISO(text.trim(), { zone, setZone: true });
  if (!date.isValid) invalid(`"${text}" is not a date; use ISO like 2026-12-01 or 2026-12-01T09:30, or "now".`);
  return date;
}

/** "3 days", "2 hours 30 minutes" or ISO "P3DT2H". */
export function readDuration(text: string): Duration {
  const iso = Duration.fromISO(text.trim().toUpperCase());
  if (iso.isValid) return iso;
  const words = relativeDuration(`in ${text}`);
  if (!words) invalid(`"${text}" is not a duration; use e.g. "3 days", "2 hours 30 minutes" or P3DT2H.`);
  return words;
}

const show = (d: DateTime): string => d.toISO({ suppressMilliseconds: true, suppressSeconds: true }) ?? d.toString();

/** The calculation itself, on an injected "now" (the tool passes the clock's). */
export function dateCalc(args: DateCalcArgs, homeZone: string, now: DateTime): Record<string, string | number> {
  const zone = zoneOf(homeZone);
  const date = readDate(args.date, zone, now);
  switch (args.operation) {
    case 'add':
    case 'subtract': {
      if (!args.duration) invalid(`${args.operation} needs a duration, e.g. "3 days".`);
      const duration = readDuration(args.duration);
      const result = args.operation === 'add' ? date.plus(duration) : date.minus(duration);
      return { result: show(result), weekday: result.toFormat('cccc') };
    }
    case 'difference': {
      if (!args.otherDate) invalid('difference needs otherDate, the second date.');
      const other = readDate(args.otherDate, zone, now);
      const diff = other.diff(date, ['days', 'hours', 'minutes']);
      return {
        days: Math.trunc(other.diff(date, 'days').days * 100) / 100,
        exactly: diff.toHuman({ unitDisplay: 'long', maximumFractionDigits: 0 }),
        from: show(date),
        to: show(other),
      };
    }
    case 'convert_zone': {
      if (!args.toZone) invalid('convert_zone needs toZone, e.g. "America/New_York".');
      const there = date.setZone(zoneOf(args.toZone));
      return {
        from: show(date),
        result: show(there),
        local: there.toFormat('ccc d LLL yyyy, HH:mm'),
        zone: there.zoneName ?? '',
      };
    }
    case 'weekday':
      return { date: date.toISODate() ?? '', weekday: date.toFormat('cccc') };
    default:
      return args.operation satisfies never;
  }
}

export const dateCalcTool: BuiltinToolDefinition<DateCalcArgs> = {
  name: 'date_calc',
  description:
    'Date arithmetic: add or subtract a duration, the difference between two dates, a time in another time zone, the weekday of a date.',
  parameters: objectSchema(
    {
      operation: { type: 'string', enum: [...OPERATIONS], description: 'What to compute.' },
      date: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: 'ISO date or date-time (2026-12-01T09:30), or "now".',
      },
      duration: {
        type: 'string',
        maxLength: 64,
        description: 'For add/subtract: e.g. "3 days", "2 hours 30 minutes".',
      },
      otherDate: { type: 'string', maxLength: 64, description: 'For difference: the second date.' },
      toZone: { type: 'string', maxLength: 64, description: 'For convert_zone: IANA zone, e.g. "Asia/Tokyo".' },
    },
    ['operation', 'date'],
  ),
  risk: 'read',
  touches: 'nothing',
  forPeople: {
    title: 'Work out dates',
    text: 'Works out dates and times: the days between two dates, a date some weeks away, the time in another time zone.',
  },
  describe(args) {
    const extra = args.duration ?? args.otherDate ?? args.toZone;
    return {
      title: 'Date calculation',
      summary: `${shownArg(args.operation)} on ${shownArg(args.date)}${extra ? ` (${shownArg(extra)})` : ''}.`,
      details: [],
    };
  },
  summarize: summarizer<DateCalcArgs>(summarizeDateCalc),
  async run(args, ctx) {
    return { result: dateCalc(args, ctx.packs.timeZone, DateTime.now()) };
  },
};

/** "1 Dec 2026", "Tue 1 Dec 2026, 09:00" (with `weekday`; a time of midnight is left out), or the text as given. */
function when(value: unknown, options: { weekday?: boolean } = {}): string | undefined {
  const w = wallTime(value);
  if (w === undefined) return asText(value) !== undefined ? plain(value as string, 40) : undefined;
  const day = `${options.weekday ? `${weekdayShort(w)} ` : ''}${dateText(w, { year: 'always' })}`;
  return w.time !== undefined && w.time !== '00:00' ? `${day}, ${w.time}` : day;
}

/** "2 days, 12 hours" from luxon's "2 days, 12 hours, 0 minutes" (or "-2 days, …"), leaving out the zeros. */
function lengthText(days: number | undefined, exactly: string | undefined): string | undefined {
  if (days !== undefined && Number.isInteger(days)) return plural(Math.abs(days), 'day');
  if (exactly === undefined) return days !== undefined ? `${Math.abs(days)} days` : undefined;
  const parts = plain(exactly, 80)
    .split(/,\s*/)
    .map((part) => part.replace(/^-/, ''))
    .filter((part) => !/^0 /.test(part));
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function summarizeDateCalc(r: JsonObject, args: LooseArgs<DateCalcArgs>): string | null {
  const operation =
    typeof args.operation === 'string'
      ? args.operation
      : 'local' in r
        ? 'convert_zone'
        : 'days' in r
          ? 'difference'
          : 'date' in r
            ? 'weekday'
            : undefined;
  switch (operation) {
    case 'add':
    case 'subtract': {
      const result = when(r.result, { weekday: true });
      if (result === undefined) return null;
      const duration = asText(args.duration);
      const start = when(args.date);
      if (duration === undefined || start === undefined) return `The date is ${result}.`;
      return `${plain(duration, 40)} ${operation === 'add' ? 'after' : 'before'} ${start}: ${result}.`;
    }
    case 'difference': {
      const from = when(r.from);
      const to = when(r.to);
      const days = asNumber(r.days);
      const length = lengthText(days, asText(r.exactly));
      if (from === undefined || to === undefined || length === undefined) return null;
      if (days === 0 && /^0 /.test(length)) return `${to} is the same time as ${from}.`;
      return `${to} is ${length} ${days !== undefined && days < 0 ? 'before' : 'after'} ${from}.`;
    }
    case 'convert_zone': {
      const from = when(r.from, { weekday: true });
      const local = asText(r.local);
      const zone = asText(r.zone);
      if (from === undefined || local === undefined || zone === undefined) return null;
      return `${from} is ${plain(local, 40)} in ${plain(zone, 40)}.`;
    }
    case 'weekday': {
      const date = when(r.date);
      const weekday = asText(r.weekday);
      if (date === undefined || weekday === undefined) return null;
      return `${date} is a ${plain(weekday, 20)}.`;
    }
    default:
      return null;
  }
}
