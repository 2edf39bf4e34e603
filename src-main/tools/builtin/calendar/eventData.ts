/**
 * One VEVENT's times and people as the listing needs them. Dates are read value by value from the event's own
 * lines (icsValues.ts), so a bad EXDATE or RDATE value is dropped and named while the series keeps the others; a
 * rule ical.js cannot read leaves the event as its first date, named too.
 */
import ICAL from 'ical.js';
import type { EventLine, EventPart, Problem } from './calendarFiles.js';
import { paramOf } from './icsText.js';
import type { IcsPeriod, IcsTime, ZoneTable } from './icsValues.js';
import { parseDuration, parseTimeList, parseTimeValue, toMillis, wallAt } from './icsValues.js';

type Recur = InstanceType<typeof ICAL.Recur>;
type Duration = InstanceType<typeof ICAL.Duration>;
type Property = InstanceType<typeof ICAL.Property>;

export interface Person {
  readonly name?: string;
  readonly email?: string;
  /** ACCEPTED, DECLINED, TENTATIVE, NEEDS-ACTION… */
  readonly status?: string;
}

export interface EventData {
  readonly part: EventPart;
  readonly uid: string;
  readonly summary: string;
  readonly start: IcsTime;
  /**
   * The start as the repeat rule steps from it: DTSTART, except that a UTC start in a calendar with X-WR-TIMEZONE
   * repeats on that zone's wall clock (what Google means, and what recurring-ical-events reads).
   */
  readonly ruleStart: IcsTime;
  /** The DTSTART line, whose form (VALUE=DATE, TZID) a written EXDATE or RECURRENCE-ID copies. */
  readonly startLine: EventLine;
  readonly end?: IcsTime;
  readonly duration?: Duration;
  readonly rrules: Recur[];
  readonly rdates: IcsPeriod[];
  readonly exdates: IcsTime[];
  readonly recurrenceId?: IcsTime;
  readonly sequence: number;
  readonly cancelled: boolean;
  /** TRANSP:TRANSPARENT: shown, but does not make the user busy. */
  readonly transparent: boolean;
  readonly location?: string;
  readonly description?: string;
  readonly attendees: Person[];
  readonly organizer?: Person;
}

function text(component: EventPart['component'], name: string): string | undefined {
  const value: unknown = component.getFirstPropertyValue(name);
  if (value === null || value === undefined) return undefined;
  const shown = String(value).trim();
  return shown === '' ? undefined : shown;
}

function person(prop: Property): Person {
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

function linesNamed(part: EventPart, name: string): EventLine[] {
  return part.lines.filter((l) => l.parsed.name === name);
}

/** Reads an event's data; throws when it has no usable start. Partial problems are added to `problems`. */
export function readEventData(
  part: EventPart,
  zones: ZoneTable,
  file: string,
  problems: Problem[],
  calendarZone?: string,
): EventData {
  const report = (problem: string): void => void problems.push({ file, uid: part.uid, title: part.summary, problem });
  const time = (entry: EventLine | undefined): IcsTime | undefined =>
    entry ? parseTimeValue(entry.parsed.value, paramOf(entry.parsed, 'TZID'), zones) : undefined;

  const startLine = linesNamed(part, 'DTSTART')[0];
  if (!startLine) throw new Error('it has no start (DTSTART)');
  let start: IcsTime;
  try {
    start = time(startLine) as IcsTime;
  } catch (err) {
    throw new Error(`its start (DTSTART) cannot be read: ${(err as Error).message}`);
  }
  if (start.basis.kind === 'unknown') {
    report(
      `Its time zone ${JSON.stringify(start.basis.tzid)} is not one Homebody knows (the file has no VTIMEZONE for it); ` +
        'its times are shown as if they were in your time zone.',
    );
  }

  let end: IcsTime | undefined;
  try {
    end = time(linesNamed(part, 'DTEND')[0]);
  } catch (err) {
    report(`Its end (DTEND) was skipped: ${(err as Error).message}.`);
  }
  let duration: Duration | undefined;
  const durationLine = linesNamed(part, 'DURATION')[0];
  if (end === undefined && durationLine) {
    try {
      duration = parseDuration(durationLine.parsed.value);
    } catch (err) {
      report(`Its DURATION was skipped: ${(err as Error).message}.`);
    }
  }

  const rrules: Recur[] = [];
  for (const entry of linesNamed(part, 'RRULE')) {
    try {
      const rule = ICAL.Recur.fromString(entry.parsed.value.trim());
      if (!rule.freq) throw new Error('it has no FREQ');
      // The same rule written twice (some exporters do) is one rule.
      if (!rrules.some((r) => r.toString() === rule.toString())) rrules.push(rule);
    } catch (err) {
      report(`Its repeat rule ${JSON.stringify(entry.parsed.value)} cannot be read (${(err as Error).message}).`);
    }
  }

  const rdates: IcsPeriod[] = [];
  const exdates: IcsTime[] = [];
  for (const [name, into] of [
    ['RDATE', rdates],
    ['EXDATE', exdates],
  ] as const) {
    for (const entry of linesNamed(part, name)) {
      const { periods, bad } = parseTimeList(entry.parsed, zones);
      if (into === exdates) exdates.push(...periods.map((p) => p.start));
      else rdates.push(...periods);
      for (const b of bad) report(`Its ${name} value ${JSON.stringify(b.value)} was skipped: ${b.why}.`);
    }
  }

  let recurrenceId: IcsTime | undefined;
  const ridLine = linesNamed(part, 'RECURRENCE-ID')[0];
  if (ridLine) {
    try {
      recurrenceId = time(ridLine);
    } catch (err) {
      throw new Error(`the occurrence it changes (RECURRENCE-ID) cannot be read: ${(err as Error).message}`);
    }
  }

  let ruleStart = start;
  if (calendarZone && start.basis.kind === 'utc' && rrules.length > 0) {
    const basis = { kind: 'iana', tzid: calendarZone, iana: calendarZone } as const;
    ruleStart = { wall: wallAt(toMillis(start, calendarZone), basis, calendarZone), basis };
  }

  const c = part.component;
  const sequence = Number.parseInt(linesNamed(part, 'SEQUENCE')[0]?.parsed.value ?? '0', 10);
  const organizerProp = c.getFirstProperty('organizer');
  const location = text(c, 'location');
  const description = text(c, 'description');
  const status = linesNamed(part, 'STATUS')[0]?.parsed.value.trim().toUpperCase();
  const transp = linesNamed(part, 'TRANSP')[0]?.parsed.value.trim().toUpperCase();
  return {
    part,
    uid: part.uid,
    summary: text(c, 'summary') ?? '(no title)',
    start,
    ruleStart,
    startLine,
    ...(end ? { end } : {}),
    ...(duration ? { duration } : {}),
    rrules,
    rdates,
    exdates,
    ...(recurrenceId ? { recurrenceId } : {}),
    sequence: Number.isFinite(sequence) ? sequence : 0,
    cancelled: status === 'CANCELLED',
    transparent: transp === 'TRANSPARENT',
    ...(location ? { location } : {}),
    ...(description ? { description } : {}),
    attendees: c.getAllProperties('attendee').map(person),
    ...(organizerProp ? { organizer: person(organizerProp) } : {}),
  };
}

export function isRepeatingData(data: EventData): boolean {
  return data.rrules.length > 0 || data.rdates.length > 0;
}
