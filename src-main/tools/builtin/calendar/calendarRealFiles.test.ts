import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarFixture } from '../../../testing/tools/calendarTestFixture.js';
import { eventsOf, makeCalendarFixture, readWithNodeIcal } from '../../../testing/tools/calendarTestFixture.js';
import { REAL_FIXTURES } from '../../../testing/reference/calendarGolden.js';
import { readCalendarText } from './calendarFiles.js';
import type { Problem } from './calendarFiles.js';
import { cancelEvent } from './cancelEvent.js';
import { parseDocument, parseLine } from './icsText.js';
import { listEvents } from './listEvents.js';
import { moveEvent } from './moveEvent.js';
import { indexEvents } from './occurrences.js';

/**
 * The bugs of issue 16, each on the real file it was found with (fixtures/real/SOURCES.md): per-component reading,
 * writes that touch one component only, all-day and timed single-occurrence changes, RDATE periods, Exchange's
 * all-day exceptions, Windows zone names, duplicate UIDs.
 */
let current: CalendarFixture | undefined;
beforeEach(() => {
  // DTSTAMP and LAST-MODIFIED of a write are "now": a fixed now makes the written files comparable byte for byte.
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 15, 12, 0, 0), toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  current?.cleanup();
  current = undefined;
});
function open(timeZone: string, ...real: string[]): CalendarFixture {
  current = makeCalendarFixture(timeZone);
  for (const name of real) current.write(name, readFileSync(path.join(REAL_FIXTURES, name), 'utf8'));
  return current;
}

type Row = ReturnType<typeof eventsOf>[number];
const brief = (rows: Row[]): string[] => rows.map((e) => `${String(e.start)} ${String(e.title)}`);

async function list(fx: CalendarFixture, from: string, to: string): Promise<{ rows: Row[]; result: Row }> {
  const out = await fx.run(listEvents, { from, to });
  return { rows: eventsOf(out), result: out.result as Row };
}

/** The span of the VEVENT with `uid` (its series, or the changed occurrence with `recurrenceId`). */
function spanOf(text: string, uid: string, recurrenceId?: string): { start: number; end: number } {
  for (const root of parseDocument(text).roots) {
    for (const c of root.children) {
      const props = c.lines.map((l) => parseLine(l.text));
      const rid = props.find((p) => p?.name === 'RECURRENCE-ID')?.value;
      if (props.some((p) => p?.name === 'UID' && p.value === uid) && rid === recurrenceId) return c;
    }
  }
  throw new Error(`no VEVENT ${uid}`);
}

/** Every byte before and after [start, end) of `before` is where it was in `after`. */
function expectOnlyChanged(before: string, after: string, span: { start: number; end: number }): string {
  expect(after.slice(0, span.start)).toBe(before.slice(0, span.start));
  expect(after.slice(after.length - (before.length - span.end))).toBe(before.slice(span.end));
  return after.slice(span.start, after.length - (before.length - span.end));
}

/** The file still reads in ical.js as a whole, in node-ical, and in Homebody with no new problem. */
function expectReadable(text: string, problemsBefore: number): void {
  expect(() => ICAL.parse(text)).not.toThrow();
  expect(readWithNodeIcal(text).size).toBeGreaterThan(0);
  const problems: Problem[] = [];
  indexEvents([readCalendarText(text, 'x.ics', 'x.ics', problems)], problems);
  expect(problems).toHaveLength(problemsBefore);
}

/**
 * The file a write left, kept under fixtures/real/written/ so that calendarReference.py lists it with the
 * reference too (its golden file is compared like the others). HOMEBODY_WRITE_GOLDEN=1 writes it anew.
 */
function expectWritten(name: string, text: string): void {
  const file = path.join(REAL_FIXTURES, 'written', name);
  if (process.env.HOMEBODY_WRITE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  expect(existsSync(file), `${file} is missing: run with HOMEBODY_WRITE_GOLDEN=1`).toBe(true);
  expect(text).toBe(readFileSync(file, 'utf8'));
}

const EXCHANGE = 'nodeical-exchange_whole_day_moved_recurrence.ics';
const GOOGLE = 'rie-issue_62_moved_event_2.ics';
const GOOGLE_ALL_DAY = '6ep37v20d728v14rcgn17v9is6@google.com';
const GOOGLE_TIMED = '7v3ju5ft4je5iq18nfdk2s3spk@google.com';

describe('single-occurrence cancel and move, all-day and timed', () => {
  it("cancels one day of Exchange's all-day series with EXDATE;VALUE=DATE, touching the series only", async () => {
    const fx = open('Europe/Berlin', EXCHANGE);
    const before = fx.read(EXCHANGE);
    const out = await fx.run(cancelEvent, { uid: 'exchange-moved-recurrence', occurrence: '2026-03-03' });
    expect(out.result).toMatchObject({ occurrence: '2026-03-03', othersKept: true });
    const after = fx.read(EXCHANGE);
    const changed = expectOnlyChanged(before, after, spanOf(before, 'exchange-moved-recurrence'));
    expect(changed).toMatch(/\nEXDATE;VALUE=DATE:20260303\r?\n/);
    expect(after).not.toMatch(/EXDATE:\r?\n/);
    expectReadable(after, 0);
    expectWritten('exchange-all-day-cancelled.ics', after);
    const { rows } = await list(fx, '2026-03-01', '2026-03-06');
    expect(brief(rows)).toEqual(['2026-03-05 Exchange Recurring Test']);
  });

  it("cancels and moves occurrences of Google's all-day and timed series in their own forms", async () => {
    const fx = open('Europe/Berlin', GOOGLE);
    const before = fx.read(GOOGLE);
    await fx.run(cancelEvent, { uid: GOOGLE_ALL_DAY, occurrence: '2023-08-24' });
    const cancelled = fx.read(GOOGLE);
    expect(expectOnlyChanged(before, cancelled, spanOf(before, GOOGLE_ALL_DAY))).toMatch(
      /\nEXDATE;VALUE=DATE:20230824\r?\n/,
    );

    const moved = await fx.run(moveEvent, { uid: GOOGLE_ALL_DAY, occurrence: '2023-08-10', start: '2023-08-11' });
    expect(moved.result).toMatchObject({ moved: { start: '2023-08-11', allDay: true, occurrence: '2023-08-10' } });
    const afterMove = fx.read(GOOGLE);
    // The new changed occurrence goes in after the series' last component; nothing else moves.
    const exception = spanOf(cancelled, GOOGLE_ALL_DAY, '20230817');
    const added = expectOnlyChanged(cancelled, afterMove, { start: exception.end, end: exception.end });
    expect(added).toMatch(/^BEGIN:VEVENT\r?\nDTSTART;VALUE=DATE:20230811\r?\nDTEND;VALUE=DATE:20230812\r?\n/);
    expect(added).toMatch(/\nRECURRENCE-ID;VALUE=DATE:20230810\r?\n/);
    expect(added).not.toMatch(/RRULE|EXDATE/);

    await fx.run(cancelEvent, { uid: GOOGLE_TIMED, occurrence: '2023-08-22' });
    const last = fx.read(GOOGLE);
    expect(expectOnlyChanged(afterMove, last, spanOf(afterMove, GOOGLE_TIMED))).toMatch(
      /\nEXDATE;TZID=Australia\/Sydney:20230822T140000\r?\n/,
    );
    expectReadable(last, 0);
    expectWritten('google-all-day-and-timed.ics', last);
    const { rows } = await list(fx, '2023-08-01', '2023-08-31');
    expect(brief(rows)).toEqual([
      '2023-08-08T06:00 Datetime',
      '2023-08-11 All Day',
      '2023-08-14T06:00 Datetime',
      // 15 August moved to the 14th (Google's exception), 22 August cancelled; 17th moved to the 16th.
      '2023-08-16 All Day',
    ]);
  });

  it('cancels one RDATE period of a UTC event with an EXDATE in UTC', async () => {
    const fx = open('Europe/Berlin', 'rie-issue_113_period_rdate_duration.ics');
    const { rows } = await list(fx, '2024-09-12', '2024-09-13');
    expect(rows.map((r) => [r.start, r.end])).toEqual([
      ['2024-09-12T14:00', '2024-09-12T15:00'],
      ['2024-09-13T14:00', '2024-09-13T16:00'],
    ]);
    await fx.run(cancelEvent, { uid: String(rows[1]?.uid), occurrence: '2024-09-13' });
    expect(fx.read('rie-issue_113_period_rdate_duration.ics')).toContain('\nEXDATE:20240913T120000Z\n');
    expect(brief((await list(fx, '2024-09-12', '2024-09-13')).rows)).toEqual([
      '2024-09-12T14:00 The RDATE is a period with a duration.',
    ]);
  });
});

describe('reading per component', () => {
  it("a neighbour's malformed RRULE comes back byte for byte after a change to another event", async () => {
    const fx = open('Europe/Berlin', 'nodeical-badRRULE.ics');
    const { rows, result } = await list(fx, '2020-09-03', '2020-09-04');
    // "RRULE:RRULE:AnythingRandom;FREQ=WEEKLY;…": ical.js and the reference both read the weekly rule in it.
    expect(brief(rows)).toEqual([
      '2020-09-03T17:40 Brain Break',
      '2020-09-03T17:50 Academic Time',
      '2020-09-04T17:40 Brain Break',
      '2020-09-04T17:50 Academic Time',
    ]);
    expect(result.unreadable).toBeUndefined();
    const before = fx.read('nodeical-badRRULE.ics');
    await fx.run(cancelEvent, { uid: '078tk5i2t4all3kk0jcoi3mdmd@google.com', occurrence: '2020-09-04' });
    const after = fx.read('nodeical-badRRULE.ics');
    expectOnlyChanged(before, after, spanOf(before, '078tk5i2t4all3kk0jcoi3mdmd@google.com'));
    const academic = spanOf(before, '11le1ep09hvog7dbotn6foj38e@google.com');
    expect(after).toContain(before.slice(academic.start, academic.end));
    expect(after).toMatch(/\nRRULE:RRULE:AnythingRandom;FREQ=WEEKLY;BYDAY=FR,MO,TH,TU,WE\r?\n/);
    expectWritten('badrrule-neighbour-cancelled.ics', after);
  });

  it('an Outlook export with one broken line loses that event only, and names it', async () => {
    const fx = open('Europe/Berlin', 'nodeical-ms_timezones.ics');
    const { rows, result } = await list(fx, '2020-09-10', '2020-09-15');
    expect(brief(rows)).toEqual([
      '2020-09-10T09:00 test',
      '2020-09-10T21:00 Not the actual summary either',
      '2020-09-11T21:00 Not the actual summary either',
      '2020-09-13T21:00 Not the actual summary either',
      '2020-09-15T17:30 Not the actual summary 1',
      '2020-09-15T21:00 Not the actual summary either',
    ]);
    expect(result.unreadable).toEqual([
      expect.objectContaining({ title: "Log Yesterday's Jira time", problem: expect.stringContaining('Line 152') }),
      expect.objectContaining({ title: "Log Yesterday's Jira time", problem: expect.stringContaining('DTSTART') }),
    ]);
  });

  it('an endless series with one bad EXDATE value keeps the series and drops only that value', async () => {
    const text = readFileSync(path.join(REAL_FIXTURES, 'nodeical-badRRULE.ics'), 'utf8').replace(
      'EXDATE;TZID=America/Denver:20201015T094000',
      'EXDATE;TZID=America/Denver:20201015T094000,2020102,20201016T094000',
    );
    const fx = open('Europe/Berlin');
    fx.write('bad-exdate.ics', text);
    const october = await list(fx, '2020-10-14', '2020-10-19');
    const breaks = october.rows.filter((r) => r.title === 'Brain Break').map((r) => r.start);
    expect(breaks).toEqual(['2020-10-14T17:40', '2020-10-19T17:40']);
    expect(october.result.unreadable).toContainEqual(
      expect.objectContaining({ title: 'Brain Break', problem: expect.stringContaining('"2020102"') }),
    );
    const later = await list(fx, '2026-03-02', '2026-03-02');
    expect(brief(later.rows)).toContain('2026-03-02T17:40 Brain Break');
  });

  it('lists RDATE;VALUE=PERIOD occurrences with their own length, in later ranges too', async () => {
    const fx = open('Europe/Berlin', 'rie-issue_113_period_in_rdate.ics');
    const { rows } = await list(fx, '2023-12-01', '2024-02-29');
    expect(rows.map((r) => `${String(r.start)}-${String(r.end)}`)).toEqual([
      '2023-12-13T21:00-2023-12-14T00:00',
      '2024-01-17T21:00-2024-01-17T23:00',
      '2024-02-21T21:00-2024-02-21T23:00',
    ]);
  });

  it("lists Exchange's all-day exception (RECURRENCE-ID;TZID=…T000000) instead of the day it replaces, once", async () => {
    const fx = open('Europe/Berlin', EXCHANGE, 'nodeical-exchange_whole_day_moved_recurrence_offset_tz.ics');
    const { rows } = await list(fx, '2026-02-24', '2026-02-28');
    expect(brief(rows)).toEqual([
      '2026-02-24 Exchange Recurring Test',
      '2026-02-24 Exchange Recurring Test (offset TZID)',
      '2026-02-27 Exchange Recurring Test',
      '2026-02-27 Exchange Recurring Test (offset TZID)',
    ]);
  });
});

describe('time zones', () => {
  it('reads Windows display names without a VTIMEZONE: 13:30 in Sydney is 03:30 in Berlin', async () => {
    const fx = open('Europe/Berlin', 'nodeical-Office-2012-owa.ics');
    const { rows, result } = await list(fx, '2020-10-28', '2020-10-28');
    expect(brief(rows)).toEqual(['2020-10-28T03:30 TEST Syd', '2020-10-28T18:30 TEST']);
    expect(result.unreadable).toBeUndefined();
  });

  it('names a zone it does not know instead of reading it silently in the user zone', async () => {
    const fx = open('Europe/Berlin');
    fx.write(
      'mars.ics',
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:m1\r\nDTSTAMP:20260101T000000Z\r\n' +
        'DTSTART;TZID=Mars/Olympus Mons:20260302T100000\r\nSUMMARY:Rover call\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    const { rows, result } = await list(fx, '2026-03-02', '2026-03-02');
    expect(rows).toEqual([expect.objectContaining({ title: 'Rover call', timeZoneUnknown: 'Mars/Olympus Mons' })]);
    expect(result.unreadable).toEqual([
      expect.objectContaining({ uid: 'm1', problem: expect.stringContaining('"Mars/Olympus Mons"') }),
    ]);
  });
});

describe('duplicate UIDs', () => {
  const DUP = 'nodeical-duplicate-uid-sequence.ics';

  it('lists the newest copy, reports both places, and refuses to guess which one to change', async () => {
    const fx = open('UTC', DUP);
    const { rows, result } = await list(fx, '2024-01-15', '2024-01-20');
    expect(brief(rows)).toEqual([
      '2024-01-15T10:00 Team Meeting (SEQUENCE 2)',
      '2024-01-20T14:00 Updated version (SEQUENCE 3) - should win',
    ]);
    expect(result.sameUid).toEqual([
      { uid: 'duplicate-sequence-test@node-ical.test', title: expect.any(String), files: [`${DUP}#1`, `${DUP}#2`] },
      { uid: 'newer-wins-test@node-ical.test', title: expect.any(String), files: [`${DUP}#1`, `${DUP}#2`] },
    ]);
    const before = fx.read(DUP);
    await expect(fx.run(cancelEvent, { uid: 'newer-wins-test@node-ical.test' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/2 events have the uid .*#1.*#2.*file/),
    });
    expect(fx.read(DUP)).toBe(before);

    await fx.run(cancelEvent, { uid: 'newer-wins-test@node-ical.test', file: `${DUP}#1` });
    const old = spanOf(before, 'newer-wins-test@node-ical.test');
    expect(fx.read(DUP)).toBe(before.slice(0, old.start) + before.slice(old.end));
  });

  it('two files with one UID: reported; a move needs file and then changes that file only', async () => {
    const fx = open('Europe/Berlin', 'nodeical-exchange-custom-tz.ics');
    const copy = fx.read('nodeical-exchange-custom-tz.ics');
    fx.write('copy.ics', copy);
    const uid = String((await list(fx, '2019-04-30', '2019-04-30')).rows[0]?.uid);
    const { result } = await list(fx, '2019-04-30', '2019-04-30');
    expect(result.sameUid).toEqual([
      expect.objectContaining({ files: ['copy.ics', 'nodeical-exchange-custom-tz.ics'] }),
    ]);
    await expect(fx.run(moveEvent, { uid, start: '2019-05-02T10:00' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('"copy.ics", "nodeical-exchange-custom-tz.ics"'),
    });
    await fx.run(moveEvent, { uid, start: '2019-05-02T10:00', file: 'copy.ics' });
    expect(fx.read('nodeical-exchange-custom-tz.ics')).toBe(copy);
    expect(fx.read('copy.ics')).toContain('DTSTART;TZID="(UTC+07:00) Bangkok, Hanoi, Jakarta":20190502T150000');
  });
});
