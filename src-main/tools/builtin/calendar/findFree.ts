import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, shownArg } from '../files/common.js';
import { readCalendarFolder } from './calendarFiles.js';
import { folderNotes, parseRange, samePerson, timeParam } from './calendarCommon.js';
import type { Occurrence } from './occurrences.js';
import { indexEvents, occurrencesBetween } from './occurrences.js';
import { atLocalTime, formatLocal, nextLocalMidnight, weekday } from './zonedTime.js';
import { summarizeFree } from './calendarSummary.js';
import { summarizer } from '../summaryText.js';

export type FindFreeArgs = {
  from: string;
  to?: string;
  minutes: number;
  dayStart?: string;
  dayEnd?: string;
  weekends?: boolean;
  attendee?: string;
};

export const FREE_MAX_SLOTS = 10;
const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Whether an occurrence keeps the user (or, with an attendee, that person too) from meeting then. */
export function blocks(o: Occurrence, attendee: string | undefined): boolean {
  if (!o.transparent) return true;
  if (attendee === undefined) return false;
  // An event the user shows as free still takes the attendee's time, unless they declined it.
  const people = [...o.attendees, ...(o.organizer ? [o.organizer] : [])];
  return people.some((p) => samePerson(attendee, p) && p.status !== 'DECLINED');
}

function involves(o: Occurrence, attendee: string): boolean {
  return [...o.attendees, ...(o.organizer ? [o.organizer] : [])].some((p) => samePerson(attendee, p));
}

export const findFree: BuiltinToolDefinition<FindFreeArgs> = {
  name: 'calendar_free',
  description:
    'Find free time in the calendar: open slots of at least the given minutes within working hours, ' +
    'optionally also free for an attendee (name or email).',
  parameters: objectSchema(
    {
      from: timeParam('Search from: a date (2026-12-03) or date and time.'),
      to: timeParam('Search until: a date (included) or date and time. Default: the end of the "from" day.'),
      minutes: {
        type: 'integer',
        minimum: 5,
        maximum: 1440,
        description: 'How long the free slot must be, in minutes.',
      },
      dayStart: { type: 'string', pattern: HHMM, maxLength: 5, description: 'Working day starts (default 09:00).' },
      dayEnd: { type: 'string', pattern: HHMM, maxLength: 5, description: 'Working day ends (default 17:00).' },
      weekends: { type: 'boolean', description: 'Include Saturdays and Sundays (default false).' },
      attendee: { type: 'string', minLength: 1, maxLength: 320, description: 'Someone to meet: a name or email.' },
    },
    ['from', 'minutes'],
  ),
  risk: 'read',
  touches: 'calendar',
  forPeople: {
    title: 'Find free time',
    text: 'Finds times when your calendar is free, long enough for what you plan.',
  },
  untrustedOutput: {
    what: 'calendar invitations',
    fields: ['attendeeEvents', 'unreadable[].title', 'unreadable[].problem'],
  },
  describe(args) {
    const details = [
      { label: 'From', value: shownArg(args.from) },
      { label: 'To', value: args.to === undefined ? '(end of that day)' : shownArg(args.to) },
      { label: 'Length', value: `${shownArg(args.minutes)} minutes` },
    ];
    if (args.attendee) details.push({ label: 'With', value: shownArg(args.attendee) });
    return {
      title: 'Look for free time in your calendar',
      summary: `Find ${shownArg(args.minutes)} free minutes between ${shownArg(args.from)} and ${shownArg(args.to ?? args.from)}.`,
      details,
    };
  },
  summarize: summarizer<FindFreeArgs>(summarizeFree),
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const range = parseRange(args.from, args.to, zone);
    const minutes = intArg(args.minutes, 60, 5, 1440);
    const dayStart = args.dayStart ?? '09:00';
    const dayEnd = args.dayEnd ?? '17:00';
    if (!new RegExp(HHMM).test(dayStart) || !new RegExp(HHMM).test(dayEnd) || dayEnd <= dayStart) {
      throw new ToolError(
        'INVALID_INPUT',
        `Working hours ${dayStart}-${dayEnd} are not a time range like 09:00-17:00.`,
      );
    }
    const attendee = args.attendee?.trim() || undefined;

    const folder = await readCalendarFolder(ctx.packs.calendarDir, ctx.signal);
    const problems = [...folder.problems];
    const index = indexEvents(folder.files, problems);
    const events = occurrencesBetween(index, range.fromMs, range.toMs, zone, problems);
    const busy = events.filter((o) => blocks(o, attendee)).map((o) => [o.startMs, o.endMs] as const);

    const slots: Array<{ start: string; end: string; day: string }> = [];
    let more = 0;
    for (let day = range.fromMs; day < range.toMs; day = nextLocalMidnight(day, zone)) {
      const name = weekday(day, zone);
      if (!args.weekends && (name === 'Saturday' || name === 'Sunday')) continue;
      let cursor = Math.max(atLocalTime(day, dayStart, zone), range.fromMs);
      const close = Math.min(atLocalTime(day, dayEnd, zone), range.toMs);
      const today = busy.filter(([s, e]) => s < close && e > cursor).sort((a, b) => a[0] - b[0]);
      const gaps: Array<[number, number]> = [];
      for (const [s, e] of today) {
        if (s > cursor) gaps.push([cursor, s]);
        cursor = Math.max(cursor, e);
      }
      if (cursor < close) gaps.push([cursor, close]);
      for (const [s, e] of gaps) {
        if (e - s < minutes * 60_000) continue;
        if (slots.length >= FREE_MAX_SLOTS) more += 1;
        else slots.push({ day: name, start: formatLocal(s, zone), end: formatLocal(e, zone) });
      }
    }
    const withAttendee = attendee === undefined ? [] : events.filter((o) => involves(o, attendee));
    return {
      result: {
        timeZone: zone,
        free: slots,
        ...(more > 0 ? { more } : {}),
        ...(attendee !== undefined
          ? {
              attendee,
              attendeeEvents: withAttendee.map((o) => ({ title: o.summary, start: formatLocal(o.startMs, zone) })),
            }
          : {}),
        ...folderNotes(problems, index.duplicates),
      },
    };
  },
};
