/**
 * The events of the calendar folder that overlap a time range, one row per occurrence: repeating events are
 * expanded by ical.js (RRULE, RDATE, EXDATE), a moved occurrence (RECURRENCE-ID) replaces the one it moves, and
 * every time is turned into an instant through its own zone (see zonedTime.ts).
 */
import ICAL from 'ical.js';
import type { CalendarFile, Component, FileProblem } from './calendarFiles.js';
import { toMillis } from './zonedTime.js';

type Time = InstanceType<typeof ICAL.Time>;
type Event = InstanceType<typeof ICAL.Event>;

/** A repeating event is expanded at most this far (a daily event started 25 years ago is about 9,000). */
export const MAX_EXPANSION = 20_000;

export interface Person {
  readonly name?: string;
  readonly email?: string;
  /** ACCEPTED, DECLINED, TENTATIVE, NEEDS-ACTION… */
  readonly status?: string;
}

export interface Occurrence {
  readonly uid: string;
  readonly summary: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly allDay: boolean;
  readonly location?: string;
  readonly description?: string;
  readonly attendees: Person[];
  readonly organizer?: Person;
  /** TRANSP:TRANSPARENT: shown, but does not make the user busy. */
  readonly transparent: boolean;
  readonly recurring: boolean;
  /** The original start of this occurrence of a repeating event (its RECURRENCE-ID), as an instant. */
  readonly recurrenceMs?: number;
  readonly file: string;
}

function text(component: Component, name: string): string | undefined {
  const value: unknown = component.getFirstPropertyValue(name);
  if (value === null || value === undefined) return undefined;
  const shown = String(value).trim();
  return shown === '' ? undefined : shown;
}

function tzidOf(component: Component, name: string): string | undefined {
  const tzid: unknown = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
}

function person(prop: InstanceType<typeof ICAL.Property>): Person {
  const value = String(prop.getFirstValue() ?? '');
  const email = value.toLowerCase().startsWith('mailto:') ? value.slice(7) : undefined;
  const cn: unknown = prop.getParameter('cn');
  const status: unknown = prop.getParameter('partstat');
  return {
    ...(typeof cn === 'string' && cn !== '' ? { name: cn } : {}),
    ...(email ? { email } : {}),
    ...(typeof status === 'string' ? { status: status.toUpperCase() } : {}),
  };
}

/** Where an occurrence ends: DTEND, DURATION, or (RFC 5545 3.6.1) the same instant, or the next day for a DATE. */
function endOf(event: Event, start: Time, end: Time | undefined, zone: string, tzid: string | undefined): number {
  const startMs = toMillis(start, tzid, zone);
  if (end !== undefined && end !== null) {
    const endMs = toMillis(end, tzidOf(event.component, 'dtend') ?? tzid, zone);
    if (endMs >= startMs) return endMs;
  }
  if (start.isDate) {
    const next = start.clone();
    next.adjust(1, 0, 0, 0);
    return toMillis(next, tzid, zone);
  }
  return startMs;
}

function describeEvent(
  event: Event,
  file: string,
  start: Time,
  end: Time | undefined,
  zone: string,
  recurrence?: { recurring: boolean; recurrenceMs?: number },
): Occurrence {
  const c = event.component;
  const tzid = tzidOf(c, 'dtstart');
  const organizerProp = c.getFirstProperty('organizer');
  const location = text(c, 'location');
  const description = text(c, 'description');
  return {
    uid: event.uid,
    summary: text(c, 'summary') ?? '(no title)',
    startMs: toMillis(start, tzid, zone),
    endMs: endOf(event, start, end, zone, tzid),
    allDay: start.isDate,
    ...(location ? { location } : {}),
    ...(description ? { description } : {}),
    attendees: c.getAllProperties('attendee').map(person),
    ...(organizerProp ? { organizer: person(organizerProp) } : {}),
    transparent: String(c.getFirstPropertyValue('transp') ?? '').toUpperCase() === 'TRANSPARENT',
    recurring: recurrence?.recurring ?? false,
    ...(recurrence?.recurrenceMs !== undefined ? { recurrenceMs: recurrence.recurrenceMs } : {}),
    file,
  };
}

function cancelled(component: Component): boolean {
  return String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

const overlaps = (o: Occurrence, from: number, to: number): boolean =>
  o.startMs < to && (o.endMs > from || (o.endMs === o.startMs && o.startMs >= from));

/**
 * Every occurrence overlapping [fromMs, toMs) in the files, sorted by start. An event that cannot be read (a bad
 * date, an impossible rule) is reported in `problems` by file and UID; the others are still listed.
 */
export function occurrencesBetween(
  files: readonly CalendarFile[],
  fromMs: number,
  toMs: number,
  zone: string,
  problems: FileProblem[],
): Occurrence[] {
  const out: Occurrence[] = [];
  for (const file of files) {
    for (const calendar of file.calendars) {
      const vevents = calendar.getAllSubcomponents('vevent');
      const exceptions = new Map<string, Component[]>();
      for (const vevent of vevents) {
        if (!vevent.hasProperty('recurrence-id')) continue;
        const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
        exceptions.set(uid, [...(exceptions.get(uid) ?? []), vevent]);
      }
      const masters = new Set<string>();
      for (const vevent of vevents) {
        if (vevent.hasProperty('recurrence-id')) continue;
        const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
        masters.add(uid);
        try {
          expandOne(vevent, exceptions.get(uid) ?? [], file.name, fromMs, toMs, zone, out, problems);
        } catch (err) {
          problems.push({
            file: file.name,
            problem: `The event ${JSON.stringify(uid)} cannot be read: ${(err as Error).message}.`,
          });
        }
      }
      // A moved occurrence whose series lives elsewhere (or nowhere) is still an event the user has.
      for (const [uid, list] of exceptions) {
        if (masters.has(uid)) continue;
        for (const vevent of list) {
          try {
            if (cancelled(vevent)) continue;
            const event = new ICAL.Event(vevent);
            const o = describeEvent(event, file.name, event.startDate, event.endDate, zone);
            if (overlaps(o, fromMs, toMs)) out.push(o);
          } catch (err) {
            problems.push({
              file: file.name,
              problem: `The event ${JSON.stringify(uid)} cannot be read: ${(err as Error).message}.`,
            });
          }
        }
      }
    }
  }
  return out.sort((a, b) => a.startMs - b.startMs || a.summary.localeCompare(b.summary));
}

function expandOne(
  vevent: Component,
  exceptionComponents: Component[],
  file: string,
  fromMs: number,
  toMs: number,
  zone: string,
  out: Occurrence[],
  problems: FileProblem[],
): void {
  if (cancelled(vevent)) return;
  const event = new ICAL.Event(vevent, { exceptions: exceptionComponents, strictExceptions: true });
  if (event.startDate === null || event.startDate === undefined) throw new Error('it has no start (DTSTART)');
  if (!event.isRecurring()) {
    const o = describeEvent(event, file, event.startDate, event.endDate, zone);
    if (overlaps(o, fromMs, toMs)) out.push(o);
    return;
  }
  const tzid = tzidOf(vevent, 'dtstart');
  const iterator = event.iterator();
  for (let count = 0; ; count += 1) {
    if (count >= MAX_EXPANSION) {
      problems.push({
        file,
        problem: `The repeating event ${JSON.stringify(event.uid)} was expanded only ${MAX_EXPANSION} times.`,
      });
      break;
    }
    const next = iterator.next();
    if (!next) break;
    const recurrenceMs = toMillis(next, tzid, zone);
    if (recurrenceMs >= toMs) break;
    // A moved occurrence is listed below, from its own component, wherever it was moved to.
    const details = event.getOccurrenceDetails(next);
    if (details.item !== event) continue;
    const o = describeEvent(event, file, details.startDate, details.endDate, zone, { recurring: true, recurrenceMs });
    if (overlaps(o, fromMs, toMs)) out.push(o);
  }
  for (const component of exceptionComponents) {
    if (cancelled(component)) continue;
    const exception = new ICAL.Event(component);
    const recurrenceMs = toMillis(exception.recurrenceId, tzidOf(component, 'recurrence-id'), zone);
    const o = describeEvent(exception, file, exception.startDate, exception.endDate, zone, {
      recurring: true,
      recurrenceMs,
    });
    if (overlaps(o, fromMs, toMs)) out.push(o);
  }
}
