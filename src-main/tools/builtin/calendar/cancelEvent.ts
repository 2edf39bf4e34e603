import type { BuiltinToolDefinition, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { fileParam, timeParam, uidParam } from './calendarCommon.js';
import { findEvent, replaceFileText, trashPackFile } from './calendarWrites.js';
import type { EventData } from './eventData.js';
import {
  ComponentEdit,
  exceptionOf,
  findOccurrence,
  isRepeating,
  leavesOtherComponents,
  paramsFor,
  removeComponents,
} from './eventEdit.js';
import { applyEdits } from './icsText.js';
import { formatValue } from './icsValues.js';
import { formatDate } from './zonedTime.js';
import { summarizeCancelled } from './calendarSummary.js';
import { summarizer } from '../summaryText.js';

export type CancelEventArgs = { uid: string; occurrence?: string; file?: string };

export const cancelEvent: BuiltinToolDefinition<CancelEventArgs> = {
  name: 'calendar_cancel',
  description:
    'Cancel (remove) a calendar event. For a repeating event, give occurrence to cancel only that date; ' +
    'without it the whole series is removed.',
  parameters: objectSchema(
    {
      uid: uidParam(),
      occurrence: timeParam('Repeating events only: the date of the one occurrence to cancel, e.g. 2026-12-08.'),
      file: fileParam(),
    },
    ['uid'],
  ),
  risk: 'write',
  touches: 'calendar',
  forPeople: {
    title: 'Cancel an event',
    text: 'Removes an event from your calendar, or one date of a repeating event.',
  },
  describe(args) {
    return {
      title: args.occurrence ? 'Cancel one occurrence of an event' : 'Cancel a calendar event',
      summary: args.occurrence
        ? `Remove the occurrence of ${shownArg(args.occurrence)} from a repeating event (the others stay).`
        : 'Remove the event from your calendar (it can be undone).',
      details: [
        { label: 'Event', value: shownArg(args.uid) },
        ...(args.occurrence ? [{ label: 'Occurrence', value: shownArg(args.occurrence) }] : []),
        ...(args.file ? [{ label: 'File', value: shownArg(args.file) }] : []),
      ],
    };
  },
  summarize: summarizer<CancelEventArgs>(summarizeCancelled),
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const found = await findEvent(ctx, args.uid, args.file);
    const { entry } = found;
    const file = entry.file;
    const master = entry.master;
    const title = (master ?? entry.exceptions[0])?.summary ?? '(no title)';

    if (args.occurrence !== undefined && master && isRepeating(found)) {
      const occurrence = findOccurrence(found, args.uid, args.occurrence, zone);
      const recurrenceMs = occurrence.recurrenceMs as number;
      const wall = occurrence.recurrenceWall ?? occurrence.source.start.wall;
      // The EXDATE takes the series' form: VALUE=DATE for an all-day series, its TZID, or UTC.
      const edit = new ComponentEdit(file, master.part);
      edit.add('EXDATE', paramsFor(master.start.basis), formatValue({ wall, basis: master.start.basis }));
      edit.touch(Date.now());
      const moved = exceptionOf(occurrence);
      const edits = [...edit.done(), ...(moved ? removeComponents([moved.part.raw]) : [])];
      const undo = await replaceFileText(ctx, ctx.packs.calendarDir, file.path, applyEdits(file.text, edits));
      return {
        result: { cancelled: title, uid: args.uid, occurrence: formatDate(recurrenceMs, zone), othersKept: true },
        undo,
      };
    }

    const mine = [...(master ? [master] : []), ...entry.exceptions].map((d: EventData) => d.part.raw);
    let undo: UndoRecord;
    if (!leavesOtherComponents(file, mine)) {
      undo = await trashPackFile(ctx, ctx.packs.calendarDir, file.path);
    } else {
      undo = await replaceFileText(
        ctx,
        ctx.packs.calendarDir,
        file.path,
        applyEdits(file.text, removeComponents(mine)),
      );
    }
    return {
      result: { cancelled: title, uid: args.uid, ...(isRepeating(found) ? { wholeSeries: true } : {}) },
      undo,
    };
  },
};
