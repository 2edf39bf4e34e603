import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { readCalendarFile } from './calendarFiles.js';
import { fileParam, occurrenceView, timeParam, uidParam } from './calendarCommon.js';
import { findEvent, replaceFileText } from './calendarWrites.js';
import type { EventData } from './eventData.js';
import {
  afterEvent,
  ComponentEdit,
  exceptionOf,
  findOccurrence,
  isRepeating,
  newException,
  paramsFor,
  sameForm,
} from './eventEdit.js';
import type { TextEdit } from './icsText.js';
import { applyEdits } from './icsText.js';
import type { WallTime } from './icsValues.js';
import { formatValue } from './icsValues.js';
import { entryOccurrences, indexEvents, occurrencesBetween } from './occurrences.js';
import { atLocalTime, formatLocal, nextLocalMidnight, parseUserTime } from './zonedTime.js';
import { summarizeMoved } from './calendarSummary.js';
import { summarizer } from '../summaryText.js';

export type MoveEventArgs = { uid: string; start: string; end?: string; occurrence?: string; file?: string };

export const moveEvent: BuiltinToolDefinition<MoveEventArgs> = {
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
      file: fileParam(),
    },
    ['uid', 'start'],
  ),
  risk: 'write',
  touches: 'calendar',
  forPeople: { title: 'Move an event', text: 'Moves an event on your calendar to another time.' },
  provenance: { writes: [{ key: { field: 'moved.uid', prefix: 'event:' } }] },
  describe(args) {
    const details = [
      { label: 'Event', value: shownArg(args.uid) },
      { label: 'New start', value: shownArg(args.start) },
    ];
    if (args.end !== undefined) details.push({ label: 'New end', value: shownArg(args.end) });
    if (args.occurrence !== undefined)
      details.push({ label: 'Occurrence (repeating events)', value: shownArg(args.occurrence) });
    if (args.file !== undefined) details.push({ label: 'File', value: shownArg(args.file) });
    return {
      title: 'Move a calendar event',
      summary: `Move the event to ${shownArg(args.start)}${args.occurrence ? ` (only its occurrence of ${shownArg(args.occurrence)})` : ''}.`,
      details,
    };
  },
  summarize: summarizer<MoveEventArgs>(summarizeMoved),
  async run(args, ctx): Promise<ToolOutcome> {
    const zone = ctx.packs.timeZone;
    const found = await findEvent(ctx, args.uid, args.file);
    const { entry } = found;
    const file = entry.file;
    let target: EventData | undefined;
    let recurrence: WallTime | undefined;
    let oldStartMs: number;
    let oldEndMs: number;
    let allDay: boolean;
    if (isRepeating(found) && entry.master) {
      if (args.occurrence === undefined) {
        throw new ToolError(
          'INVALID_INPUT',
          `${JSON.stringify(args.uid)} is a repeating event; give occurrence (the date of the one to move, from calendar_events).`,
        );
      }
      const occurrence = findOccurrence(found, args.uid, args.occurrence, zone);
      oldStartMs = occurrence.startMs;
      oldEndMs = occurrence.endMs;
      allDay = occurrence.allDay;
      target = exceptionOf(occurrence);
      if (!target) recurrence = occurrence.recurrenceWall ?? entry.master.start.wall;
    } else {
      target = entry.master ?? (entry.exceptions.length === 1 ? entry.exceptions[0] : undefined);
      if (target === undefined) {
        throw new ToolError('INVALID_INPUT', `${JSON.stringify(args.uid)} has several dates; give occurrence.`);
      }
      const [listed] = entryOccurrences(entry, -8.64e15, 8.64e15, zone, []).filter((o) => o.source === target);
      if (!listed)
        throw new ToolError('INVALID_INPUT', `${file.name}: the event ${JSON.stringify(args.uid)} has no start.`);
      oldStartMs = listed.startMs;
      oldEndMs = listed.endMs;
      allDay = listed.allDay;
    }

    const requested = parseUserTime(args.start, zone, 'start');
    // A date alone moves a timed event to that day at the same time of day.
    const newStartMs =
      requested.dateOnly && !allDay
        ? atLocalTime(requested.ms, formatLocal(oldStartMs, zone).slice(11), zone)
        : requested.ms;
    let newEndMs = newStartMs + (oldEndMs - oldStartMs);
    if (args.end !== undefined) {
      const end = parseUserTime(args.end, zone, 'end');
      newEndMs = end.dateOnly && allDay ? nextLocalMidnight(end.ms, zone) : end.ms;
      if (newEndMs <= newStartMs) throw new ToolError('INVALID_INPUT', 'The end must come after the start.');
    }

    const now = Date.now();
    let edits: TextEdit[];
    if (target === undefined) {
      // A new changed occurrence, in the series' own form, right after the series' components.
      const master = entry.master as EventData;
      const start = sameForm(master.start.basis, newStartMs, zone);
      const end = sameForm(master.end?.basis ?? master.start.basis, newEndMs, zone);
      const { at, prefix } = afterEvent(found);
      const text = newException(file, master, recurrence as WallTime, start, end, now);
      edits = [{ start: at, end: at, text: prefix + text }];
    } else {
      const edit = new ComponentEdit(file, target.part);
      const startBasis = target.start.basis;
      const startLine = target.startLine.parsed;
      edit.set('DTSTART', startLine.paramsText, formatValue(sameForm(startBasis, newStartMs, zone)));
      const hasEnd = edit.linesNamed('DTEND').length > 0;
      if (hasEnd || args.end !== undefined || edit.linesNamed('DURATION').length === 0) {
        const endBasis = target.end?.basis ?? startBasis;
        const params = hasEnd ? (edit.linesNamed('DTEND')[0]?.parsed.paramsText ?? '') : paramsFor(endBasis);
        edit.remove('DURATION');
        edit.set('DTEND', params, formatValue(sameForm(endBasis, newEndMs, zone)));
      }
      edit.touch(now);
      edits = edit.done();
    }
    const undo = await replaceFileText(ctx, ctx.packs.calendarDir, file.path, applyEdits(file.text, edits));

    const [moved] = occurrencesBetween(
      indexEvents([await readCalendarFile(file.path, [])], []),
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
