import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { readCalendarFolder } from './calendarFiles.js';
import { folderNotes, occurrenceView, parseRange, timeParam } from './calendarCommon.js';
import { indexEvents, occurrencesBetween } from './occurrences.js';
import { summarizeEvents } from './calendarSummary.js';
import { summarizer } from '../summaryText.js';

export type ListEventsArgs = { from: string; to?: string };

/** Most occurrences returned by one call; the rest are counted. */
export const LIST_MAX_EVENTS = 100;

export const listEvents: BuiltinToolDefinition<ListEventsArgs> = {
  name: 'calendar_events',
  description:
    "What is on the user's calendar: events and appointments on a day (today, Monday, Tuesday, Wednesday, " +
    'Thursday, Friday, Saturday, Sunday) or between two dates, repeating ones included.',
  parameters: objectSchema(
    {
      from: timeParam('Start: a date (2026-12-03) or date and time (2026-12-03T09:00).'),
      to: timeParam('End: a date (the whole day is included) or date and time. Default: the end of the "from" day.'),
    },
    ['from'],
  ),
  risk: 'read',
  touches: 'calendar',
  forPeople: { title: 'See your calendar', text: 'Shows the events on your calendar on a day or between two dates.' },
  // Descriptions, organizers and attendees come with invitations other people sent.
  untrustedOutput: {
    what: 'calendar events',
    // A skipped event's title, and the words of its file a problem quotes, are other people's text too.
    fields: [
      'events[].description',
      'events[].organizer',
      'events[].attendees',
      'unreadable[].title',
      'unreadable[].problem',
    ],
    from: 'events[].organizer.email',
  },
  provenance: { reads: [{ field: 'events[].uid', prefix: 'event:' }] },
  describe(args) {
    const range = args.to === undefined ? shownArg(args.from) : `${shownArg(args.from)} to ${shownArg(args.to)}`;
    return {
      title: 'Read your calendar',
      summary: `List the events in your calendar from ${range}.`,
      details: [
        { label: 'From', value: shownArg(args.from) },
        { label: 'To', value: args.to === undefined ? '(end of that day)' : shownArg(args.to) },
      ],
    };
  },
  summarize: summarizer<ListEventsArgs>(summarizeEvents),
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const range = parseRange(args.from, args.to, zone);
    const folder = await readCalendarFolder(ctx.packs.calendarDir, ctx.signal);
    const problems = [...folder.problems];
    const index = indexEvents(folder.files, problems);
    if (index.entries.length === 0 && problems.length > 0) {
      throw new ToolError(
        'INVALID_INPUT',
        `No calendar event could be read: ${problems.map((p) => `${p.file}: ${p.problem}`).join(' ')}`,
      );
    }
    const found = occurrencesBetween(index, range.fromMs, range.toMs, zone, problems);
    return {
      result: {
        events: found.slice(0, LIST_MAX_EVENTS).map((o) => occurrenceView(o, zone)),
        ...(found.length > LIST_MAX_EVENTS ? { more: found.length - LIST_MAX_EVENTS } : {}),
        timeZone: zone,
        ...folderNotes(problems, index.duplicates),
      },
    };
  },
};
