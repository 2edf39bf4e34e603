import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { readCalendarText } from './calendarFiles.js';
import { occurrenceView, timeParam } from './calendarCommon.js';
import { createPackFile, fileNameFor } from './calendarWrites.js';
import { indexEvents, occurrencesBetween } from './occurrences.js';
import { DAY_MS, icalDate, icalUtc, nextLocalMidnight, parseUserTime } from './zonedTime.js';
import { summarizeAdded } from './calendarSummary.js';
import { summarizer } from '../summaryText.js';

export type AddEventArgs = {
  title: string;
  start: string;
  end?: string;
  location?: string;
  attendees?: string[];
  description?: string;
};

const DEFAULT_MINUTES = 60;
export const PRODID = '-//Homebody//Homebody Calendar 1.0//EN';

/** A new VCALENDAR with Homebody's PRODID (RFC 5545 requires VERSION and PRODID). */
export function newCalendar(): InstanceType<typeof ICAL.Component> {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', PRODID);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  return calendar;
}

export const addEvent: BuiltinToolDefinition<AddEventArgs> = {
  name: 'calendar_add',
  description: 'Add an event (appointment, meeting) to the calendar. A date without a time makes an all-day event.',
  parameters: objectSchema(
    {
      title: { type: 'string', minLength: 1, maxLength: 200, description: 'What the event is, e.g. "Dentist".' },
      start: timeParam('When it starts: 2026-12-03T09:00, or a date for an all-day event.'),
      end: timeParam('When it ends (default: one hour later; for all-day events the last day).'),
      location: { type: 'string', maxLength: 300, description: 'Where (optional).' },
      attendees: {
        type: 'array',
        maxItems: 30,
        items: { type: 'string', minLength: 3, maxLength: 320 },
        description: 'Email addresses of people invited (optional; nobody is sent anything).',
      },
      description: { type: 'string', maxLength: 4000, description: 'Notes (optional).' },
    },
    ['title', 'start'],
  ),
  risk: 'write',
  touches: 'calendar',
  forPeople: {
    title: 'Add an event',
    text: 'Adds an event or appointment to your calendar, without sending anyone an invitation.',
  },
  provenance: { writes: [{ key: { field: 'added.uid', prefix: 'event:' } }] },
  describe(args) {
    const details = [
      { label: 'Title', value: shownArg(args.title) },
      { label: 'Start', value: shownArg(args.start) },
      { label: 'End', value: args.end === undefined ? '(one hour later, or the same day)' : shownArg(args.end) },
    ];
    if (args.location) details.push({ label: 'Where', value: shownArg(args.location) });
    if (args.attendees?.length) details.push({ label: 'With', value: args.attendees.join(', ') });
    return {
      title: 'Add a calendar event',
      summary: `Add "${shownArg(args.title)}" on ${shownArg(args.start)} to your calendar.`,
      details,
    };
  },
  summarize: summarizer<AddEventArgs>(summarizeAdded),
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const title = typeof args.title === 'string' ? args.title.trim() : '';
    if (title === '') throw new ToolError('INVALID_INPUT', 'The event needs a title.');
    const start = parseUserTime(args.start, zone, 'start');
    const end = args.end === undefined ? undefined : parseUserTime(args.end, zone, 'end');
    if (end !== undefined && end.dateOnly !== start.dateOnly) {
      throw new ToolError('INVALID_INPUT', 'Give start and end both as dates (all-day) or both as date and time.');
    }
    let endMs: number;
    if (start.dateOnly) endMs = nextLocalMidnight(end?.ms ?? start.ms, zone);
    else endMs = end?.ms ?? start.ms + DEFAULT_MINUTES * 60_000;
    if (endMs <= start.ms) throw new ToolError('INVALID_INPUT', 'The end must come after the start.');
    if (endMs - start.ms > 366 * DAY_MS) throw new ToolError('INVALID_INPUT', 'An event may last at most a year.');

    const uid = `${randomUUID()}@homebody`;
    const calendar = newCalendar();
    const vevent = new ICAL.Component('vevent');
    const now = icalUtc(Date.now());
    vevent.addPropertyWithValue('uid', uid);
    vevent.addPropertyWithValue('dtstamp', now);
    vevent.addPropertyWithValue('created', now);
    vevent.addPropertyWithValue('last-modified', now);
    vevent.addPropertyWithValue('dtstart', start.dateOnly ? icalDate(start.ms, zone) : icalUtc(start.ms));
    vevent.addPropertyWithValue('dtend', start.dateOnly ? icalDate(endMs, zone) : icalUtc(endMs));
    vevent.addPropertyWithValue('summary', title);
    if (args.location) vevent.addPropertyWithValue('location', args.location);
    if (args.description) vevent.addPropertyWithValue('description', args.description);
    for (const email of args.attendees ?? []) {
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ToolError('INVALID_INPUT', `"${email}" is not an email address.`);
      const attendee = vevent.addPropertyWithValue('attendee', `mailto:${email}`);
      attendee.setParameter('partstat', 'NEEDS-ACTION');
    }
    vevent.addPropertyWithValue('sequence', 0);
    calendar.addSubcomponent(vevent);

    const name = fileNameFor(title, uid, '.ics');
    // RFC 5545 line ends (CRLF), whatever ical.js joins lines with.
    const text = calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
    const undo = await createPackFile(ctx, ctx.packs.calendarDir, name, text);
    const written = indexEvents([readCalendarText(text, name, name, [])], []);
    const [added] = occurrencesBetween(written, start.ms, endMs, zone, []);
    return { result: { added: added ? occurrenceView(added, zone) : { uid, title } }, undo };
  },
};
