import ICAL from 'ical.js';
import type { ToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { occurrenceView, timeParam, uidParam } from './calendarCommon.js';
import type { Component } from './calendarFiles.js';
import { findEvent, replaceCalendarFile } from './calendarWrites.js';
import { exceptionFor, findOccurrence, isRepeating, setTimeProp, touch, tzidParam } from './eventEdit.js';
import { occurrencesBetween } from './occurrences.js';
import { atLocalTime, formatLocal, nextLocalMidnight, parseUserTime, sameFormAs } from './zonedTime.js';

type Time = InstanceType<typeof ICAL.Time>;

export type MoveEventArgs = { uid: string; start: string; end?: string; occurrence?: string };

export const moveEvent: ToolDefinition<MoveEventArgs> = {
  name: 'calendar_move',
  description:
    'Move or reschedule a calendar event to a new start (it keeps its length unless end is given). ' +
    'For one occurrence of a repeating event give its occurrence date.',
  parameters: objectSchema(
    {
      uid: uidParam(),
      start: timeParam('New start: 2026-12-04T10:00 (a date alone keeps the time of day).'),
      end: timeParam('New end (optional; default: same length as before).'),
      occurrence: timeParam('Repeating events only: the date of the one occurrence to move, e.g. 2026-12-08.'),
    },
    ['uid', 'start'],
  ),
  risk: 'write',
  provenance: { writes: [{ key: { field: 'moved.uid', prefix: 'event:' } }] },
  describe(args) {
    const details = [
      { label: 'Event', value: shownArg(args.uid) },
      { label: 'New start', value: shownArg(args.start) },
    ];
    if (args.end !== undefined) details.push({ label: 'New end', value: shownArg(args.end) });
    if (args.occurrence !== undefined)
      details.push({ label: 'Occurrence (repeating events)', value: shownArg(args.occurrence) });
    return {
      title: 'Move a calendar event',
      summary: `Move the event to ${shownArg(args.start)}${args.occurrence ? ` (only its occurrence of ${shownArg(args.occurrence)})` : ''}.`,
      details,
    };
  },
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const found = await findEvent(ctx, args.uid);
    const repeating = isRepeating(found.master);
    let target: Component;
    let oldStartMs: number;
    let oldEndMs: number;
    if (repeating && found.master) {
      if (args.occurrence === undefined) {
        throw new ToolError(
          'INVALID_INPUT',
          `${JSON.stringify(args.uid)} is a repeating event; give occurrence (the date of the one to move, from calendar_events).`,
        );
      }
      const occurrence = findOccurrence(found, args.uid, args.occurrence, zone);
      oldStartMs = occurrence.startMs;
      oldEndMs = occurrence.endMs;
      const recurrenceMs = occurrence.recurrenceMs as number;
      target =
        exceptionFor(found, recurrenceMs, zone) ?? addException(found.calendar, found.master, recurrenceMs, zone);
    } else {
      const only = found.master ?? (found.exceptions.length === 1 ? found.exceptions[0] : undefined);
      if (only === undefined) {
        throw new ToolError('INVALID_INPUT', `${JSON.stringify(args.uid)} has several dates; give occurrence.`);
      }
      target = only;
      const [listed] = occurrencesBetween(
        [{ ...found.file, calendars: [wrap(found.calendar, only)] }],
        -8.64e15,
        8.64e15,
        zone,
        [],
      );
      if (!listed)
        throw new ToolError('INVALID_INPUT', `${found.file.name}: the event ${JSON.stringify(args.uid)} has no start.`);
      oldStartMs = listed.startMs;
      oldEndMs = listed.endMs;
    }

    const dtstart = target.getFirstPropertyValue('dtstart') as Time;
    const startTzid = tzidParam(target, 'dtstart');
    const requested = parseUserTime(args.start, zone, 'start');
    // A date alone moves a timed event to that day at the same time of day.
    const newStartMs =
      requested.dateOnly && !dtstart.isDate
        ? atLocalTime(requested.ms, formatLocal(oldStartMs, zone).slice(11), zone)
        : requested.ms;
    let newEndMs = newStartMs + (oldEndMs - oldStartMs);
    if (args.end !== undefined) {
      const end = parseUserTime(args.end, zone, 'end');
      newEndMs = end.dateOnly && dtstart.isDate ? nextLocalMidnight(end.ms, zone) : end.ms;
      if (newEndMs <= newStartMs) throw new ToolError('INVALID_INPUT', 'The end must come after the start.');
    }

    setTimeProp(target, 'dtstart', sameFormAs(dtstart, startTzid, newStartMs, zone), startTzid);
    if (target.hasProperty('dtend') || args.end !== undefined || !target.hasProperty('duration')) {
      const dtend = (target.getFirstPropertyValue('dtend') as Time | null) ?? dtstart;
      const endTzid = tzidParam(target, 'dtend') ?? startTzid;
      target.removeAllProperties('duration');
      setTimeProp(target, 'dtend', sameFormAs(dtend, endTzid, newEndMs, zone), endTzid);
    }
    touch(target);

    const undo = await replaceCalendarFile(ctx, found.file.path, found.file.calendars);
    const [moved] = occurrencesBetween(
      [{ ...found.file, calendars: [found.calendar] }],
      newStartMs,
      Math.max(newEndMs, newStartMs + 1),
      zone,
      [],
    ).filter((o) => o.uid === args.uid);
    return {
      result: { moved: moved ? occurrenceView(moved, zone) : { uid: args.uid, start: formatLocal(newStartMs, zone) } },
      undo,
    };
  },
};

/** A calendar holding only `event` (and the zones), to read one component's dates on their own. */
function wrap(calendar: Component, event: Component): Component {
  const copy = new ICAL.Component(['vcalendar', [], []]);
  for (const zone of calendar.getAllSubcomponents('vtimezone'))
    copy.addSubcomponent(new ICAL.Component(structuredClone(zone.toJSON())));
  copy.addSubcomponent(new ICAL.Component(structuredClone(event.toJSON())));
  return copy;
}

/** A new moved-occurrence component for one occurrence of `master`: its copy with RECURRENCE-ID and no rule. */
function addException(calendar: Component, master: Component, recurrenceMs: number, zone: string): Component {
  const exception = new ICAL.Component(structuredClone(master.toJSON()));
  for (const name of ['rrule', 'rdate', 'exdate', 'exrule']) exception.removeAllProperties(name);
  const dtstart = master.getFirstPropertyValue('dtstart') as Time;
  const tzid = tzidParam(master, 'dtstart');
  setTimeProp(exception, 'recurrence-id', sameFormAs(dtstart, tzid, recurrenceMs, zone), tzid);
  calendar.addSubcomponent(exception);
  return exception;
}
