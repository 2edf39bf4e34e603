/** Small edits on an event's components that calendar_move and calendar_cancel share. */
import ICAL from 'ical.js';
import { ToolError } from '../../toolTypes.js';
import type { Component } from './calendarFiles.js';
import type { FoundEvent } from './calendarWrites.js';
import type { Occurrence } from './occurrences.js';
import { occurrencesBetween } from './occurrences.js';
import { formatDate, icalUtc, toMillis, localMidnight, nextLocalMidnight, parseUserTime } from './zonedTime.js';

type Time = InstanceType<typeof ICAL.Time>;

export function tzidParam(component: Component, name: string): string | undefined {
  const tzid: unknown = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
}

/**
 * Sets a date or date-time property, with the TZID its zone needs: a VTIMEZONE zone's id, none for UTC, and for a
 * floating wall clock the TZID it had (an IANA name without a VTIMEZONE stays as it was written).
 */
export function setTimeProp(component: Component, name: string, time: Time, floatingTzid?: string): void {
  let prop = component.getFirstProperty(name);
  if (!prop) prop = component.addProperty(new ICAL.Property(name));
  const zone = time.zone;
  if (time.isDate || zone === ICAL.Timezone.utcTimezone || zone?.tzid === 'UTC') prop.removeParameter('tzid');
  else if (zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')
    prop.setParameter('tzid', zone.tzid);
  else if (floatingTzid !== undefined) prop.setParameter('tzid', floatingTzid);
  else prop.removeParameter('tzid');
  prop.setValue(time);
}

/** Marks a changed event as changed, so other apps that sync it take the new version (RFC 5545 SEQUENCE). */
export function touch(component: Component): void {
  const now = icalUtc(Date.now());
  const sequence = Number(component.getFirstPropertyValue('sequence') ?? 0);
  component.updatePropertyWithValue('sequence', Number.isFinite(sequence) ? sequence + 1 : 1);
  component.updatePropertyWithValue('dtstamp', now);
  component.updatePropertyWithValue('last-modified', now);
}

export function isRepeating(component: Component | undefined): boolean {
  return component !== undefined && (component.hasProperty('rrule') || component.hasProperty('rdate'));
}

/**
 * The occurrence of a repeating event on the local date `occurrence` names (as calendar_events lists it in
 * `occurrence`, or the day it now takes place on).
 */
export function findOccurrence(found: FoundEvent, uid: string, occurrence: unknown, zone: string): Occurrence {
  const day = parseUserTime(occurrence, zone, 'occurrence');
  const from = localMidnight(day.ms, zone);
  const to = nextLocalMidnight(day.ms, zone);
  const file = { ...found.file, calendars: [found.calendar] };
  // A moved occurrence may now lie up to a few days away from the date it is named by.
  const around = occurrencesBetween([file], from - 7 * 86_400_000, to + 7 * 86_400_000, zone, []).filter(
    (o) => o.uid === uid && o.recurrenceMs !== undefined,
  );
  const wanted = formatDate(day.ms, zone);
  const match =
    around.find((o) => formatDate(o.recurrenceMs as number, zone) === wanted) ??
    around.find((o) => formatDate(o.startMs, zone) === wanted);
  if (!match) {
    throw new ToolError(
      'NOT_FOUND',
      `The repeating event ${JSON.stringify(uid)} has no occurrence on ${wanted}. Use calendar_events to see its dates.`,
    );
  }
  return match;
}

/** The moved-occurrence component (RECURRENCE-ID) for the occurrence that originally started at `recurrenceMs`. */
export function exceptionFor(found: FoundEvent, recurrenceMs: number, zone: string): Component | undefined {
  return found.exceptions.find((c) => {
    const rid = c.getFirstPropertyValue('recurrence-id') as Time | null;
    return rid !== null && toMillis(rid, tzidParam(c, 'recurrence-id'), zone) === recurrenceMs;
  });
}
