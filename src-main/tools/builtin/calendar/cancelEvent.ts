import type ICAL from 'ical.js';
import type { ToolDefinition, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { timeParam, uidParam } from './calendarCommon.js';
import { findEvent, replaceCalendarFile, trashPackFile } from './calendarWrites.js';
import { exceptionFor, findOccurrence, isRepeating, touch, tzidParam } from './eventEdit.js';
import { formatDate, sameFormAs } from './zonedTime.js';

type Time = InstanceType<typeof ICAL.Time>;

export type CancelEventArgs = { uid: string; occurrence?: string };

export const cancelEvent: ToolDefinition<CancelEventArgs> = {
  name: 'calendar_cancel',
  description:
    'Cancel (remove) a calendar event. For a repeating event, give occurrence to cancel only that date; ' +
    'without it the whole series is removed.',
  parameters: objectSchema(
    {
      uid: uidParam(),
      occurrence: timeParam('Repeating events only: the date of the one occurrence to cancel, e.g. 2026-12-08.'),
    },
    ['uid'],
  ),
  risk: 'write',
  describe(args) {
    return {
      title: args.occurrence ? 'Cancel one occurrence of an event' : 'Cancel a calendar event',
      summary: args.occurrence
        ? `Remove the occurrence of ${shownArg(args.occurrence)} from a repeating event (the others stay).`
        : 'Remove the event from your calendar (it can be undone).',
      details: [
        { label: 'Event', value: shownArg(args.uid) },
        ...(args.occurrence ? [{ label: 'Occurrence', value: shownArg(args.occurrence) }] : []),
      ],
    };
  },
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const found = await findEvent(ctx, args.uid);
    const title = String((found.master ?? found.exceptions[0])?.getFirstPropertyValue('summary') ?? '(no title)');

    if (args.occurrence !== undefined && found.master && isRepeating(found.master)) {
      const occurrence = findOccurrence(found, args.uid, args.occurrence, zone);
      const recurrenceMs = occurrence.recurrenceMs as number;
      const master = found.master;
      const dtstart = master.getFirstPropertyValue('dtstart') as Time;
      const tzid = tzidParam(master, 'dtstart');
      const exdate = master.addPropertyWithValue('exdate', sameFormAs(dtstart, tzid, recurrenceMs, zone));
      if (dtstart.isDate) exdate.resetType('date');
      else if (tzid !== undefined) exdate.setParameter('tzid', tzid);
      const moved = exceptionFor(found, recurrenceMs, zone);
      if (moved) found.calendar.removeSubcomponent(moved);
      touch(master);
      const undo = await replaceCalendarFile(ctx, found.file.path, found.file.calendars);
      return {
        result: { cancelled: title, uid: args.uid, occurrence: formatDate(recurrenceMs, zone), othersKept: true },
        undo,
      };
    }

    const mine = [...(found.master ? [found.master] : []), ...found.exceptions];
    const others = found.file.calendars
      .flatMap((c) => c.getAllSubcomponents('vevent'))
      .filter((v) => !mine.includes(v));
    let undo: UndoRecord;
    if (others.length === 0) {
      undo = await trashPackFile(ctx, ctx.packs.calendarDir, found.file.path);
    } else {
      for (const component of mine) found.calendar.removeSubcomponent(component);
      undo = await replaceCalendarFile(ctx, found.file.path, found.file.calendars);
    }
    return {
      result: { cancelled: title, uid: args.uid, ...(isRepeating(found.master) ? { wholeSeries: true } : {}) },
      undo,
    };
  },
};
