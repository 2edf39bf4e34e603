/**
 * The calendar tools' lines for people (summarize()), from results read without trusting their shape: events as
 * occurrenceView writes them (wall-clock "2026-12-03T08:00" or dates in the user's zone), free slots as calendar_free
 * lists them. Titles come from other people's invitations, so they are always quoted.
 */
import type { JsonObject, LooseArgs, WallTime } from '../summaryText.js';
import {
  asCount,
  asNumber,
  asObject,
  asObjects,
  asText,
  dateText,
  dayText,
  plain,
  plural,
  quoted,
  sameDay,
  series,
  wallTime,
  weekdayShort,
} from '../summaryText.js';

const TITLE_CHARS = 40;

/** "Thu 3 Dec, 09:00–10:00", "Thu 3 Dec, all day", "Thu 3 Dec 22:00 to Fri 4 Dec 01:00". */
export function eventWhen(view: JsonObject): string | undefined {
  const start = wallTime(view.start);
  if (start === undefined) return undefined;
  const end = wallTime(view.end);
  if (view.allDay === true || start.time === undefined) {
    if (end === undefined || sameDay(start, end)) return `${dayText(start)}, all day`;
    return `${dayText(start)} to ${dayText(end)}, all days`;
  }
  if (end?.time !== undefined && sameDay(start, end)) return `${dayText(start)}, ${start.time}–${end.time}`;
  if (end?.time !== undefined) return `${dayText(start)} ${start.time} to ${dayText(end)} ${end.time}`;
  return `${dayText(start)}, ${start.time}`;
}

/** An event's title for the line, quoted; "an event with no title" when it has none. */
export function eventTitle(view: JsonObject | undefined): string {
  const title = asText(view?.title);
  // "(no title)" is what the calendar reader calls an event without one.
  return title !== undefined && title !== '(no title)' ? quoted(title, TITLE_CHARS) : 'an event with no title';
}

interface Span {
  /** "on Thu 3 Dec", "from 3 Dec to 9 Dec", or "" when the arguments do not say. */
  readonly text: string;
  /** Whether it is one day (times then need no day). */
  readonly oneDay: boolean;
  /** At most a week: a weekday names a day without doubt. */
  readonly week: boolean;
}

/** The range a call asked about, from its from/to arguments. */
function spanOf(fromArg: unknown, toArg: unknown): Span {
  const from = wallTime(fromArg);
  const to = toArg === undefined ? undefined : wallTime(toArg);
  if (from === undefined || (toArg !== undefined && to === undefined)) return { text: '', oneDay: false, week: false };
  if (to === undefined || sameDay(from, to)) return { text: `on ${dayText(from)}`, oneDay: true, week: true };
  const days = (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000;
  return { text: `from ${dateText(from)} to ${dateText(to)}`, oneDay: false, week: days >= 0 && days < 7 };
}

/** When an occurrence starts, as short as the span allows: "08:00", "Thu 08:00", "3 Dec 08:00", "all day". */
function startIn(span: Span, start: WallTime, allDay: boolean): string {
  const day = span.oneDay ? '' : span.week ? weekdayShort(start) : dateText(start);
  const time = allDay || start.time === undefined ? 'all day' : start.time;
  return day === '' ? time : allDay ? `${day}, ${time}` : `${day} ${time}`;
}

const withSpan = (head: string, span: Span): string => (span.text === '' ? head : `${head} ${span.text}`);

export function summarizeEvents(r: JsonObject, args: LooseArgs<{ from: string; to?: string }>): string | null {
  const events = asObjects(r.events);
  if (events === undefined) return null;
  const span = spanOf(args.from, args.to);
  const total = events.length + (asCount(r.more) ?? 0);
  const skipped = (asObjects(r.unreadable)?.length ?? 0) > 0 ? ' Some calendar entries could not be read.' : '';
  if (total === 0) return `${withSpan('No events', span)}.${skipped}`;
  const items = events.map((e) => {
    const start = wallTime(e.start);
    const when = start === undefined ? '' : ` (${startIn(span, start, e.allDay === true)})`;
    return `${eventTitle(e)}${when}`;
  });
  return `${withSpan(plural(total, 'event'), span)}: ${series(items, total)}.${skipped}`;
}

export function summarizeFree(
  r: JsonObject,
  args: LooseArgs<{ from: string; to?: string; minutes: number; attendee?: string }>,
): string | null {
  const slots = asObjects(r.free);
  if (slots === undefined) return null;
  const span = spanOf(args.from, args.to);
  const total = slots.length + (asCount(r.more) ?? 0);
  const minutes = asNumber(args.minutes);
  const attendee = asText(r.attendee) ?? asText(args.attendee);
  const long = minutes !== undefined ? ` of ${plural(minutes, 'minute')} or more` : '';
  const whom = attendee !== undefined ? ` when ${plain(attendee, 40)} is free too` : '';
  if (total === 0) return `${withSpan(`No free time${long}`, span)}${whom}.`;
  const items = slots
    .map((slot) => {
      const start = wallTime(slot.start);
      const end = wallTime(slot.end);
      if (start?.time === undefined) return undefined;
      const day = span.oneDay ? '' : span.week ? `${weekdayShort(start)} ` : `${dateText(start)} `;
      return `${day}${start.time}${end?.time !== undefined ? `–${end.time}` : ''}`;
    })
    .filter((item): item is string => item !== undefined);
  const head = `${withSpan(`${plural(total, 'free time')}${long}`, span)}${whom}`;
  return items.length > 0 ? `${head}: ${series(items, total)}.` : `${head}.`;
}

export function summarizeAdded(r: JsonObject): string | null {
  const added = asObject(r.added);
  if (added === undefined) return null;
  const when = eventWhen(added);
  return `Added ${eventTitle(added)} to your calendar${when !== undefined ? `: ${when}` : ''}.`;
}

export function summarizeMoved(r: JsonObject): string | null {
  const moved = asObject(r.moved);
  if (moved === undefined) return null;
  const when = eventWhen(moved);
  const what = asText(moved.title) === undefined ? 'the event' : eventTitle(moved);
  const one = moved.repeats === true ? `one date of ${what}` : what;
  return when !== undefined ? `Moved ${one} to ${when}.` : `Moved ${one}.`;
}

export function summarizeCancelled(r: JsonObject): string | null {
  if (typeof r.cancelled !== 'string') return null;
  const title = eventTitle({ title: r.cancelled });
  const occurrence = wallTime(r.occurrence);
  if (occurrence !== undefined) return `Cancelled ${title} on ${dayText(occurrence)}; its other dates stay.`;
  if (r.wholeSeries === true) return `Cancelled ${title} and all its dates; it can be undone.`;
  return `Cancelled ${title}; it can be undone.`;
}
