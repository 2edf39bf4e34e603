import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyUndo } from '../files/undo.js';
import { makePackContext, type PackTestContext } from '../../../testing/tools/packTestContext.js';
import type { UndoRecord } from '../../toolTypes.js';
import { REMINDER_TOOLS } from './index.js';
import { parseDue } from './parseDue.js';
import { reminderAdd } from './reminderAdd.js';
import { reminderDone } from './reminderDone.js';
import { reminderList } from './reminderList.js';
import { readReminders } from './remindersFile.js';

let fx: PackTestContext;
beforeEach(() => {
  fx = makePackContext({ packs: { timeZone: 'Europe/Lisbon' } });
});
afterEach(() => fx.cleanup());
const file = () => fx.ctx.packs.remindersFile;

describe('parseDue', () => {
  const now = DateTime.fromISO('2026-11-30T10:00:00Z');
  it('reads "in N units" relative to now, in the given zone', () => {
    expect(parseDue('in 20 minutes', 'Europe/Lisbon', now).toISO()).toBe('2026-11-30T10:20:00.000+00:00');
    expect(parseDue('in 1 hour and 30 minutes', 'Asia/Tokyo', now).toISO()).toBe('2026-11-30T20:30:00.000+09:00');
    expect(parseDue('In 2 days', 'UTC', now).toISO()).toBe('2026-12-02T10:00:00.000Z');
  });
  it('reads an ISO date-time in the user zone unless it carries an offset', () => {
    expect(parseDue('2026-07-01T09:00', 'Europe/Lisbon', now).toUTC().toISO()).toBe('2026-07-01T08:00:00.000Z');
    expect(parseDue('2026-07-01T09:00+02:00', 'Europe/Lisbon', now).toUTC().toISO()).toBe('2026-07-01T07:00:00.000Z');
  });
  it('reads a time today or tomorrow in the given zone', () => {
    // 10:00 UTC is 19:00 in Tokyo: "tomorrow" there is 1 December.
    expect(parseDue('tomorrow at 9:00', 'Asia/Tokyo', now).toISO()).toBe('2026-12-01T09:00:00.000+09:00');
    expect(parseDue('today 18:30', 'Europe/Lisbon', now).toISO()).toBe('2026-11-30T18:30:00.000+00:00');
    expect(parseDue('Tomorrow 9am', 'UTC', now).toISO()).toBe('2026-12-01T09:00:00.000Z');
    expect(parseDue('today at 12pm', 'UTC', now).toISO()).toBe('2026-11-30T12:00:00.000Z');
    expect(() => parseDue('today at 25:00', 'UTC', now)).toThrow(/not a time/);
  });
  it('refuses what it cannot read, saying which forms work', () => {
    expect(() => parseDue('next blue moon', 'UTC', now)).toThrow(/"in 20 minutes", "tomorrow at 9:00", or an ISO/);
    expect(() => parseDue('in 3 fortnights', 'UTC', now)).toThrow(/not a time/);
  });
});

describe('reminder tools', () => {
  it('are add (write), list (read), done (write)', () => {
    expect(REMINDER_TOOLS.map((t) => [t.name, t.risk])).toEqual([
      ['reminder_add', 'write'],
      ['reminder_list', 'read'],
      ['reminder_done', 'write'],
    ]);
  });

  it('adds, lists and marks done in the JSON file; each write is undoable', async () => {
    const added = await reminderAdd.run({ text: 'Call mum', due: 'in 20 minutes' }, fx.ctx);
    const id = (added.result as { id: string }).id;
    let saved = await readReminders(file());
    expect(saved.reminders).toMatchObject([{ id, text: 'Call mum', done: false, notified: false }]);
    // Stored with the offset of the user's zone.
    expect(saved.reminders[0]?.due).toMatch(/[+-]\d\d:\d\d$|Z$/);

    const listed = await reminderList.run({}, fx.ctx);
    expect(listed.result).toMatchObject({ count: 1, reminders: [{ id, text: 'Call mum' }] });

    const done = await reminderDone.run({ id }, fx.ctx);
    saved = await readReminders(file());
    expect(saved.reminders[0]?.done).toBe(true);
    expect((await reminderList.run({}, fx.ctx)).result).toMatchObject({ count: 0 });

    await applyUndo(done.undo as UndoRecord, fx.ctx);
    expect((await readReminders(file())).reminders[0]?.done).toBe(false);
    // Undoing the first add restores the empty list: the file stays.
    await applyUndo(added.undo as UndoRecord, fx.ctx);
    expect(existsSync(file())).toBe(true);
    expect((await readReminders(file())).reminders).toEqual([]);
  });

  it('refuses a time already past, an unknown id, and never overwrites a damaged file', async () => {
    await expect(reminderAdd.run({ text: 'x', due: '2001-01-01T09:00' }, fx.ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/already passed/),
    });
    await expect(reminderDone.run({ id: 'nope' }, fx.ctx)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    writeFileSync(file(), '{ not json');
    await expect(reminderAdd.run({ text: 'x', due: 'in 1 hour' }, fx.ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(readFileSync(file(), 'utf8')).toBe('{ not json');
  });
});
