import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UndoRecord } from '../../toolTypes.js';
import { applyUndo } from '../files/undo.js';
import { addEvent } from './addEvent.js';
import type { CalendarFixture } from '../../../testing/tools/calendarTestFixture.js';
import { eventsOf, makeCalendarFixture, readWithNodeIcal } from '../../../testing/tools/calendarTestFixture.js';
import { cancelEvent } from './cancelEvent.js';
import { listEvents } from './listEvents.js';
import { moveEvent } from './moveEvent.js';

let current: CalendarFixture | undefined;
afterEach(() => {
  current?.cleanup();
  current = undefined;
});
function open(timeZone: string): CalendarFixture {
  current = makeCalendarFixture(timeZone);
  return current;
}

const DENTIST = 'A3C9D7E1-2B4F-4A6C-9E8D-7F6A5B4C3D2E';
const TEAM_SYNC = '7kq2c1hd0a5l3e6n9p8r4s2t1u@google.com';

async function titlesOn(fx: CalendarFixture, from: string, to?: string): Promise<string[]> {
  const out = await fx.run(listEvents, to === undefined ? { from } : { from, to });
  return eventsOf(out).map((e) => `${String(e.start)} ${String(e.title)}`);
}

function undoOf(outcome: { undo?: UndoRecord }): UndoRecord {
  expect(outcome.undo).toBeDefined();
  return outcome.undo as UndoRecord;
}

describe('calendar_add', () => {
  it('writes one event per file that node-ical reads with the same start, end and title; undo removes it', async () => {
    const fx = open('Europe/Berlin');
    const out = await fx.run(addEvent, {
      title: 'Haircut',
      start: '2026-12-05T10:30',
      location: 'Salon',
      attendees: ['ana@example.org'],
    });
    expect(out.result).toMatchObject({
      added: { title: 'Haircut', start: '2026-12-05T10:30', end: '2026-12-05T11:30', location: 'Salon' },
    });
    const [file] = fx.files();
    expect(file).toMatch(/^haircut-[0-9a-f]{8}\.ics$/);
    const text = fx.read(file as string);
    expect(text).toContain('\r\nPRODID:-//Homebody//Homebody Calendar 1.0//EN\r\n');
    const other = [...readWithNodeIcal(text).values()];
    expect(other).toHaveLength(1);
    expect(other[0]?.summary).toBe('Haircut');
    expect(other[0]?.start.toISOString()).toBe('2026-12-05T09:30:00.000Z');
    expect(other[0]?.end.toISOString()).toBe('2026-12-05T10:30:00.000Z');
    expect(await titlesOn(fx, '2026-12-05')).toEqual(['2026-12-05T10:30 Haircut']);

    await applyUndo(undoOf(out), fx.ctx);
    expect(fx.files()).toEqual([]);
  });

  it('takes the DST offset of the day it is on: 09:00 Berlin is 08:00 UTC in March before the change, 07:00 after', async () => {
    const fx = open('Europe/Berlin');
    await fx.run(addEvent, { title: 'Before', start: '2026-03-28T09:00' });
    await fx.run(addEvent, { title: 'After', start: '2026-03-29T09:00', end: '2026-03-29T09:45' });
    const starts = fx.files().flatMap((f) => [...readWithNodeIcal(fx.read(f)).values()]);
    expect(Object.fromEntries(starts.map((e) => [e.summary, [e.start.toISOString(), e.end.toISOString()]]))).toEqual({
      Before: ['2026-03-28T08:00:00.000Z', '2026-03-28T09:00:00.000Z'],
      After: ['2026-03-29T07:00:00.000Z', '2026-03-29T07:45:00.000Z'],
    });
  });

  it('writes an all-day event as VALUE=DATE with the exclusive end other apps expect', async () => {
    const fx = open('America/New_York');
    const out = await fx.run(addEvent, { title: 'Conference', start: '2026-12-07', end: '2026-12-08' });
    expect(out.result).toMatchObject({ added: { start: '2026-12-07', end: '2026-12-08', allDay: true } });
    const text = fx.read(fx.files()[0] as string);
    expect(text).toContain('DTSTART;VALUE=DATE:20261207');
    expect(text).toContain('DTEND;VALUE=DATE:20261209');
    const [other] = [...readWithNodeIcal(text).values()];
    expect(other?.datetype).toBe('date');
    expect(other?.summary).toBe('Conference');
  });

  it('refuses a title-less event, an end before the start, and a bad email with INVALID_INPUT, writing nothing', async () => {
    const fx = open('UTC');
    await expect(fx.run(addEvent, { title: ' ', start: '2026-12-05T10:00' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(
      fx.run(addEvent, { title: 'x', start: '2026-12-05T10:00', end: '2026-12-05T09:00' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      fx.run(addEvent, { title: 'x', start: '2026-12-05T10:00', attendees: ['not an email'] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(fx.files()).toEqual([]);
  });
});

describe('calendar_move', () => {
  it("moves Apple's dentist to Friday 10:00 in its own zone, keeps the rest of the file, and undo restores it byte for byte", async () => {
    const fx = open('Europe/London');
    fx.add('apple-holidays.ics', 'malformed.ics');
    const before = fx.read('apple-holidays.ics');
    const malformed = fx.read('malformed.ics');
    const out = await fx.run(moveEvent, { uid: DENTIST, start: '2026-12-04T10:00' });
    expect(out.result).toMatchObject({
      moved: { title: 'Dentist', start: '2026-12-04T10:00', end: '2026-12-04T11:00' },
    });

    const text = fx.read('apple-holidays.ics');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20261204T110000');
    expect(text).toContain('X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC');
    expect(text).toContain('BEGIN:VTIMEZONE');
    const other = readWithNodeIcal(text);
    expect(other.get(DENTIST)?.start.toISOString()).toBe('2026-12-04T10:00:00.000Z');
    expect(other.get(DENTIST)?.end.toISOString()).toBe('2026-12-04T11:00:00.000Z');
    expect(other.get(DENTIST)?.summary).toBe('Dentist');
    expect(other.get('5B1E6F0A-9C3D-4E2F-8A7B-1C2D3E4F5A6B')?.summary).toBe("Christmas at my parents'");
    expect(await titlesOn(fx, '2026-12-03', '2026-12-04')).toEqual(['2026-12-04T10:00 Dentist']);
    expect(fx.read('malformed.ics')).toBe(malformed);
    expect(fx.files().filter((f) => f.startsWith('.'))).toEqual([]);

    await applyUndo(undoOf(out), fx.ctx);
    expect(fx.read('apple-holidays.ics')).toBe(before);
  });

  it('a date alone keeps the time of day; an end changes the length', async () => {
    const fx = open('Europe/Berlin');
    fx.add('outlook-berlin.ics');
    const uid = String(eventsOf(await fx.run(listEvents, { from: '2026-12-03' }))[0]?.uid);
    await fx.run(moveEvent, { uid, start: '2026-12-10' });
    expect(await titlesOn(fx, '2026-12-10')).toEqual(['2026-12-10T09:00 Planning with Ana']);
    const out = await fx.run(moveEvent, { uid, start: '2026-12-10T14:00', end: '2026-12-10T14:20' });
    expect(out.result).toMatchObject({ moved: { start: '2026-12-10T14:00', end: '2026-12-10T14:20' } });
    const text = fx.read('outlook-berlin.ics');
    // The line keeps its parameters as Outlook wrote them (quoted); only the value changes.
    expect(text).toContain('DTSTART;TZID="W. Europe Standard Time":20261210T140000');
    expect(text).toMatch(/SEQUENCE:2\r\n/);
    const other = readWithNodeIcal(text).get(uid);
    expect(other?.start.toISOString()).toBe('2026-12-10T13:00:00.000Z');
    expect(other?.end.toISOString()).toBe('2026-12-10T13:20:00.000Z');
  });

  it('moves one occurrence of a repeating event (a new RECURRENCE-ID), leaving the series; undo brings it back', async () => {
    const fx = open('America/New_York');
    fx.add('google-weekly.ics');
    const before = fx.read('google-weekly.ics');
    const out = await fx.run(moveEvent, { uid: TEAM_SYNC, occurrence: '2026-11-10', start: '2026-11-12T15:00' });
    expect(out.result).toMatchObject({
      moved: { start: '2026-11-12T15:00', end: '2026-11-12T15:30', occurrence: '2026-11-10' },
    });
    expect(await titlesOn(fx, '2026-11-09', '2026-11-18')).toEqual([
      '2026-11-12T15:00 Team sync',
      '2026-11-17T09:00 Team sync',
    ]);
    const text = fx.read('google-weekly.ics');
    expect(text).toContain('RECURRENCE-ID;TZID=America/New_York:20261110T090000');
    const other = readWithNodeIcal(text).get(TEAM_SYNC);
    expect(other?.summary).toBe('Team sync');
    expect(other?.start.toISOString()).toBe('2026-10-06T13:00:00.000Z');
    const moved = Object.values(other?.recurrences ?? {}).map((r) => r.start.toISOString());
    expect(moved).toContain('2026-11-12T20:00:00.000Z');

    // Moving the already-moved one again edits it rather than adding another.
    const again = await fx.run(moveEvent, { uid: TEAM_SYNC, occurrence: '2026-11-10', start: '2026-11-13T11:00' });
    expect(fx.read('google-weekly.ics').match(/RECURRENCE-ID/g)).toHaveLength(2);
    expect(await titlesOn(fx, '2026-11-09', '2026-11-14')).toEqual(['2026-11-13T11:00 Team sync']);

    // Undone newest first, as the user would, the file is as it was.
    await applyUndo(undoOf(again), fx.ctx);
    await applyUndo(undoOf(out), fx.ctx);
    expect(fx.read('google-weekly.ics')).toBe(before);
  });

  it('asks for an occurrence before moving a repeating event, and says when a uid is unknown', async () => {
    const fx = open('UTC');
    fx.add('google-weekly.ics', 'malformed.ics');
    await expect(fx.run(moveEvent, { uid: TEAM_SYNC, start: '2026-11-12T15:00' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('occurrence'),
    });
    await expect(
      fx.run(moveEvent, { uid: TEAM_SYNC, occurrence: '2026-11-11', start: '2026-11-12T15:00' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(fx.run(moveEvent, { uid: 'nope', start: '2026-11-12T15:00' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('malformed.ics'),
    });
  });
});

describe('calendar_cancel', () => {
  it('cancels one occurrence with an EXDATE that node-ical honours; undo restores the file', async () => {
    const fx = open('America/New_York');
    fx.add('google-weekly.ics');
    const before = fx.read('google-weekly.ics');
    const out = await fx.run(cancelEvent, { uid: TEAM_SYNC, occurrence: '2026-11-17' });
    expect(out.result).toMatchObject({ cancelled: 'Team sync', occurrence: '2026-11-17', othersKept: true });
    expect(await titlesOn(fx, '2026-11-16', '2026-11-25')).toEqual(['2026-11-24T09:00 Team sync']);
    const text = fx.read('google-weekly.ics');
    expect(text).toContain('EXDATE;TZID=America/New_York:20261117T090000');
    const other = readWithNodeIcal(text).get(TEAM_SYNC);
    const excluded = Object.values(other?.exdate ?? {}).map((d) => (d as Date).toISOString());
    expect(excluded).toContain('2026-11-17T14:00:00.000Z');

    await applyUndo(undoOf(out), fx.ctx);
    expect(fx.read('google-weekly.ics')).toBe(before);
  });

  it('cancelling a moved occurrence removes its RECURRENCE-ID component too', async () => {
    const fx = open('America/New_York');
    fx.add('google-weekly.ics');
    await fx.run(cancelEvent, { uid: TEAM_SYNC, occurrence: '2026-10-27' });
    expect(await titlesOn(fx, '2026-10-26', '2026-10-30')).toEqual([]);
    expect(fx.read('google-weekly.ics')).not.toContain('RECURRENCE-ID');
  });

  it('an event alone in its file goes to the trash with its file; undo brings the file back', async () => {
    const fx = open('UTC');
    fx.add('webinar-utc.ics');
    const before = fx.read('webinar-utc.ics');
    const out = await fx.run(cancelEvent, { uid: 'zoom-8812345678-20261203T150000Z' });
    expect(fx.files()).toEqual([]);
    expect(undoOf(out)).toMatchObject({ kind: 'untrash', original: path.join(fx.dir, 'webinar-utc.ics') });
    await applyUndo(undoOf(out), fx.ctx);
    expect(fx.read('webinar-utc.ics')).toBe(before);
  });

  it('an event sharing its file with others is removed from it; the others stay', async () => {
    const fx = open('Europe/London');
    fx.add('apple-holidays.ics');
    const out = await fx.run(cancelEvent, { uid: DENTIST });
    expect(undoOf(out).kind).toBe('restore-file');
    expect(await titlesOn(fx, '2026-12-01', '2026-12-31')).toEqual(["2026-12-24 Christmas at my parents'"]);
    expect([...readWithNodeIcal(fx.read('apple-holidays.ics')).keys()]).toEqual([
      '5B1E6F0A-9C3D-4E2F-8A7B-1C2D3E4F5A6B',
    ]);
  });
});
