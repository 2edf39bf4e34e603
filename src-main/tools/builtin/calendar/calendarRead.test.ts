import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../registry.js';
import { ToolError } from '../../toolTypes.js';
import type { CalendarFixture } from '../../../testing/tools/calendarTestFixture.js';
import { eventsOf, makeCalendarFixture } from '../../../testing/tools/calendarTestFixture.js';
import { findFree } from './findFree.js';
import { CALENDAR_TOOLS } from './index.js';
import { listEvents } from './listEvents.js';

let current: CalendarFixture | undefined;
afterEach(() => {
  current?.cleanup();
  current = undefined;
});
function open(timeZone: string): CalendarFixture {
  current = makeCalendarFixture(timeZone);
  return current;
}

const EXPORTS = ['google-weekly.ics', 'outlook-berlin.ics', 'apple-holidays.ics', 'webinar-utc.ics'];

function brief(rows: ReturnType<typeof eventsOf>): string[] {
  return rows.map((e) => `${String(e.start)}-${String(e.end)} ${String(e.title)}`);
}

describe('calendar pack', () => {
  it('offers five tools with distinct names, strict schemas and a describe()', () => {
    const registry = new ToolRegistry(CALENDAR_TOOLS);
    expect(registry.names()).toEqual([
      'calendar_events',
      'calendar_free',
      'calendar_add',
      'calendar_move',
      'calendar_cancel',
    ]);
    expect(Object.fromEntries(CALENDAR_TOOLS.map((t) => [t.name, t.risk]))).toEqual({
      calendar_events: 'read',
      calendar_free: 'read',
      calendar_add: 'write',
      calendar_move: 'write',
      calendar_cancel: 'write',
    });
    for (const tool of CALENDAR_TOOLS) {
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description.length).toBeLessThan(200);
      const d = tool.describe({ uid: 'x', from: '2026-12-03', start: '2026-12-03T09:00', title: 't', minutes: 30 });
      expect(d.title).not.toBe('');
      expect(d.details.length).toBeGreaterThan(0);
    }
  });
});

describe('calendar_events', () => {
  it('reads Outlook, Apple and UTC exports in the user zone: 09:00 Berlin lists as 08:00 London', async () => {
    const fx = open('Europe/London');
    fx.add(...EXPORTS);
    const out = await fx.run(listEvents, { from: '2026-12-03' });
    expect((out.result as { timeZone: string }).timeZone).toBe('Europe/London');
    expect(brief(eventsOf(out))).toEqual([
      '2026-12-03T08:00-2026-12-03T09:00 Dentist',
      '2026-12-03T08:00-2026-12-03T09:30 Planning with Ana',
      '2026-12-03T15:00-2026-12-03T16:00 Product webinar',
    ]);
    const planning = eventsOf(out)[1];
    expect(planning).toMatchObject({
      day: 'Thursday',
      location: 'Room 4.12',
      attendees: [{ name: 'Ana Souza', email: 'ana@example.org' }],
      file: 'outlook-berlin.ics',
    });
    expect(eventsOf(out)[0]?.location).toBe('Praxis Dr. Weber\nHauptstraße 5, Berlin');
    expect(out.untrustedSource).toBeUndefined();
  });

  it('lists the same instants in Berlin as 09:00', async () => {
    const fx = open('Europe/Berlin');
    fx.add(...EXPORTS);
    const out = await fx.run(listEvents, { from: '2026-12-03T00:00', to: '2026-12-03T12:00' });
    expect(brief(eventsOf(out))).toEqual([
      '2026-12-03T09:00-2026-12-03T10:00 Dentist',
      '2026-12-03T09:00-2026-12-03T10:30 Planning with Ana',
    ]);
  });

  it('expands a weekly RRULE, leaves out its EXDATE and shows the moved occurrence (RECURRENCE-ID) instead', async () => {
    const fx = open('America/New_York');
    fx.add('google-weekly.ics');
    const out = await fx.run(listEvents, { from: '2026-10-01', to: '2026-12-31' });
    expect(brief(eventsOf(out))).toEqual([
      '2026-10-06T09:00-2026-10-06T09:30 Team sync',
      '2026-10-13T09:00-2026-10-13T09:30 Team sync',
      // 10-20 is an EXDATE; 10-27 moved to Wednesday afternoon.
      '2026-10-28T14:00-2026-10-28T14:30 Team sync (moved)',
      '2026-11-03T09:00-2026-11-03T09:30 Team sync',
      '2026-11-10T09:00-2026-11-10T09:30 Team sync',
      '2026-11-17T09:00-2026-11-17T09:30 Team sync',
      '2026-11-24T09:00-2026-11-24T09:30 Team sync',
      // UNTIL 2026-12-01T04:59:59Z: no December occurrence.
    ]);
    expect(eventsOf(out)[2]).toMatchObject({ repeats: true, occurrence: '2026-10-27', day: 'Wednesday' });
  });

  it('keeps a New York wall clock across the DST change: 13:00 UTC in October, 14:00 UTC in November', async () => {
    const fx = open('UTC');
    fx.add('google-weekly.ics');
    const out = await fx.run(listEvents, { from: '2026-10-13', to: '2026-11-03' });
    expect(brief(eventsOf(out))).toEqual([
      '2026-10-13T13:00-2026-10-13T13:30 Team sync',
      '2026-10-28T18:00-2026-10-28T18:30 Team sync (moved)',
      '2026-11-03T14:00-2026-11-03T14:30 Team sync',
    ]);
  });

  it('lists an all-day event (VALUE=DATE) by its days, the last one included, on every day it covers', async () => {
    const fx = open('Europe/London');
    fx.add('apple-holidays.ics');
    const out = await fx.run(listEvents, { from: '2026-12-26' });
    expect(eventsOf(out)).toEqual([
      expect.objectContaining({
        title: "Christmas at my parents'",
        start: '2026-12-24',
        end: '2026-12-26',
        allDay: true,
        showsAsFree: true,
      }),
    ]);
    expect(eventsOf(await fx.run(listEvents, { from: '2026-12-27' }))).toEqual([]);
  });

  it('reads a TZID without its VTIMEZONE as that IANA zone, and a floating time in the user zone', async () => {
    const fx = open('Europe/London');
    fx.write(
      'handmade.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//hand//EN',
        'BEGIN:VEVENT',
        'UID:paris',
        'DTSTAMP:20261101T000000Z',
        'DTSTART;TZID=Europe/Paris:20261203T090000',
        'SUMMARY:Paris call',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:floating',
        'DTSTAMP:20261101T000000Z',
        'DTSTART:20261203T120000',
        'DURATION:PT45M',
        'SUMMARY:Lunch',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    const out = await fx.run(listEvents, { from: '2026-12-03' });
    expect(brief(eventsOf(out))).toEqual([
      '2026-12-03T08:00-2026-12-03T08:00 Paris call',
      '2026-12-03T12:00-2026-12-03T12:45 Lunch',
    ]);
  });

  it('lists the good files and names what a malformed one lacks, changing nothing', async () => {
    const fx = open('Europe/London');
    fx.add('malformed.ics', 'outlook-berlin.ics');
    const before = fx.read('malformed.ics');
    const out = await fx.run(listEvents, { from: '2026-12-03' });
    expect(brief(eventsOf(out))).toEqual(['2026-12-03T08:00-2026-12-03T09:30 Planning with Ana']);
    // The file is read component by component: its one event is named (by uid and title) with why.
    expect((out.result as { unreadable: unknown }).unreadable).toEqual([
      { file: 'malformed.ics', problem: expect.stringContaining('ends without END:VCALENDAR') },
      {
        file: 'malformed.ics',
        uid: 'broken-1',
        title: 'Half a date',
        problem: expect.stringContaining('"2026120" is not a date'),
      },
    ]);
    expect(fx.read('malformed.ics')).toBe(before);
  });

  it('fails with INVALID_INPUT naming the file when no calendar file can be read', async () => {
    const fx = open('UTC');
    fx.add('malformed.ics');
    const failure = fx.run(listEvents, { from: '2026-12-03' });
    await expect(failure).rejects.toBeInstanceOf(ToolError);
    await expect(failure).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('malformed.ics'),
    });
  });

  it('names an event it cannot read, and still lists the rest of its file', async () => {
    const fx = open('UTC');
    fx.write(
      'mixed.ics',
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:bad\r\nDTSTART:2026120\r\nEND:VEVENT\r\n' +
        'BEGIN:VEVENT\r\nUID:good\r\nDTSTART:20261203T100000Z\r\nSUMMARY:Good\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    const out = await fx.run(listEvents, { from: '2026-12-03' });
    expect(brief(eventsOf(out))).toEqual(['2026-12-03T10:00-2026-12-03T10:00 Good']);
    expect((out.result as { unreadable: Array<{ file: string; problem: string }> }).unreadable[0]).toMatchObject({
      file: 'mixed.ics',
      uid: 'bad',
      problem: expect.stringContaining('DTSTART'),
    });
  });

  it('refuses a range that is not dates, or backwards, with INVALID_INPUT', async () => {
    const fx = open('UTC');
    await expect(fx.run(listEvents, { from: 'next thursday' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(fx.run(listEvents, { from: '2026-12-04', to: '2026-12-03' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('calendar_free', () => {
  const ANA_OFFSITE = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:x',
    'BEGIN:VEVENT',
    'UID:offsite',
    'DTSTAMP:20261101T000000Z',
    'DTSTART:20261204T100000Z',
    'DTEND:20261204T120000Z',
    'SUMMARY:Ana offsite',
    'TRANSP:TRANSPARENT',
    'ATTENDEE;CN=Ana Souza;PARTSTAT=ACCEPTED:mailto:ana@example.org',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

  it('finds the gaps between busy events within working hours, in the user zone', async () => {
    const fx = open('Europe/London');
    fx.add(...EXPORTS);
    const out = await fx.run(findFree, { from: '2026-12-03', minutes: 60 });
    expect((out.result as { free: unknown }).free).toEqual([
      { day: 'Thursday', start: '2026-12-03T09:30', end: '2026-12-03T15:00' },
      { day: 'Thursday', start: '2026-12-03T16:00', end: '2026-12-03T17:00' },
    ]);
    const short = await fx.run(findFree, { from: '2026-12-03', minutes: 90, dayStart: '08:00', dayEnd: '16:30' });
    expect((short.result as { free: unknown }).free).toEqual([
      { day: 'Thursday', start: '2026-12-03T09:30', end: '2026-12-03T15:00' },
    ]);
  });

  it('a free hour with Ana: an event she attends blocks, even one the user shows as free; weekends are skipped', async () => {
    const fx = open('UTC');
    fx.add('apple-holidays.ics');
    fx.write('offsite.ics', ANA_OFFSITE);
    const alone = await fx.run(findFree, { from: '2026-12-04', to: '2026-12-06', minutes: 60 });
    expect((alone.result as { free: unknown }).free).toEqual([
      { day: 'Friday', start: '2026-12-04T09:00', end: '2026-12-04T17:00' },
    ]);
    const withAna = await fx.run(findFree, { from: '2026-12-04', minutes: 60, attendee: 'ana' });
    expect(withAna.result).toMatchObject({
      free: [
        { start: '2026-12-04T09:00', end: '2026-12-04T10:00' },
        { start: '2026-12-04T12:00', end: '2026-12-04T17:00' },
      ],
      attendeeEvents: [{ title: 'Ana offsite', start: '2026-12-04T10:00' }],
    });
    const byEmail = await fx.run(findFree, { from: '2026-12-04', minutes: 60, attendee: 'ana@example.org' });
    expect((byEmail.result as { free: unknown[] }).free).toHaveLength(2);
    // The transparent all-day Christmas event does not block Thursday the 24th.
    const christmas = await fx.run(findFree, { from: '2026-12-24', minutes: 480 });
    expect((christmas.result as { free: unknown[] }).free).toHaveLength(1);
  });
});
