import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src-shared/contract/index.js';
import { ToolError, type DeviceRequest, type JsonValue } from '../../tools/toolTypes.js';
import type { DeviceBridge } from './deviceBridge.js';
import { MAX_SLEEP_MS, RETRY_MS, ReminderScheduler, type SchedulerClock } from './reminderScheduler.js';

/** A clock the test moves by hand: timers fire only when `advance` passes their time. */
function manualClock(start: number) {
  let now = start;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  const clock: SchedulerClock = {
    now: () => now,
    setTimer: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimer: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  return {
    clock,
    pendingTimers: () => timers.map((t) => t.at - now),
    /** Moves time on and fires the timers that fell due (each at most once). */
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
  };
}

const T0 = Date.parse('2026-11-30T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function reminder(id: string, dueMs: number, extra: Partial<{ done: boolean; notified: boolean }> = {}) {
  return { id, text: `text ${id}`, due: iso(dueMs), created: iso(T0 - 1000), done: false, notified: false, ...extra };
}

function setup(reminders: unknown[], device?: DeviceBridge) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-reminders-'));
  const file = path.join(dir, 'reminders.json');
  writeFileSync(file, JSON.stringify({ version: 1, reminders }));
  const events: HostEvent[] = [];
  const notified: DeviceRequest[] = [];
  const bridge: DeviceBridge = device ?? {
    handle: async (request): Promise<JsonValue> => {
      notified.push(request);
      return { done: true };
    },
  };
  const time = manualClock(T0);
  const logs: string[] = [];
  const scheduler = new ReminderScheduler({
    file: () => file,
    device: bridge,
    emit: (e) => events.push(e),
    clock: time.clock,
    log: (m) => logs.push(m),
  });
  const saved = () =>
    (JSON.parse(readFileSync(file, 'utf8')) as { reminders: Array<{ id: string; notified: boolean }> }).reminders;
  const settle = () => scheduler.check();
  return { file, events, notified, time, scheduler, saved, settle, logs };
}

describe('ReminderScheduler', () => {
  it('at start shows, once, a reminder that fell due while Homebody was closed, and marks it in the file', async () => {
    const s = setup([reminder('past', T0 - 3_600_000), reminder('done', T0 - 10, { done: true })]);
    await s.scheduler.check();
    expect(s.notified).toEqual([{ kind: 'notify', title: 'Reminder', body: 'text past' }]);
    expect(s.events).toEqual([
      { type: 'reminder.due', reminder: { id: 'past', text: 'text past', due: iso(T0 - 3_600_000) } },
    ]);
    expect(s.saved().find((r) => r.id === 'past')?.notified).toBe(true);
    // A restart reads the file again: nothing is shown twice.
    await s.scheduler.check();
    expect(s.notified).toHaveLength(1);
  });

  it('sleeps until the next reminder (at most a minute at a time) and shows it when it falls due', async () => {
    const s = setup([reminder('soon', T0 + 90_000), reminder('later', T0 + 3 * 3_600_000)]);
    await s.settle();
    expect(s.notified).toEqual([]);
    expect(s.time.pendingTimers()).toEqual([MAX_SLEEP_MS]);
    s.time.advance(60_000);
    await s.settle();
    expect(s.notified).toEqual([]);
    expect(s.time.pendingTimers()).toEqual([30_000]);
    s.time.advance(30_000);
    await s.settle();
    expect(s.events.map((e) => (e.type === 'reminder.due' ? e.reminder.id : e.type))).toEqual(['soon']);
    expect(s.saved().map((r) => [r.id, r.notified])).toEqual([
      ['soon', true],
      ['later', false],
    ]);
  });

  it('reads the file again when asked (after a reminder tool call): a new reminder is scheduled', async () => {
    const s = setup([]);
    await s.settle();
    expect(s.time.pendingTimers()).toEqual([]);
    writeFileSync(s.file, JSON.stringify({ version: 1, reminders: [reminder('new', T0 + 5_000)] }));
    await s.scheduler.check();
    expect(s.time.pendingTimers()).toEqual([5_000]);
    s.time.advance(5_000);
    await s.settle();
    expect(s.notified).toHaveLength(1);
  });

  it('keeps a reminder pending while no window can show it, and shows it when one connects', async () => {
    let available = false;
    let listener: (() => void) | undefined;
    const shown: string[] = [];
    const device: DeviceBridge = {
      handle: async (request) => {
        if (!available) throw new ToolError('UNAVAILABLE', 'No page is open.');
        if (request.kind === 'notify') shown.push(request.body);
        return { done: true };
      },
      onAvailable: (l) => {
        listener = l;
        return () => (listener = undefined);
      },
    };
    const s = setup([reminder('waiting', T0 - 1000)], device);
    await s.settle();
    expect(shown).toEqual([]);
    expect(s.events).toEqual([]);
    expect(s.saved()[0]?.notified).toBe(false);
    expect(s.time.pendingTimers()).toEqual([Math.min(RETRY_MS, MAX_SLEEP_MS)]);
    available = true;
    listener?.();
    await s.settle();
    expect(shown).toEqual(['text waiting']);
    expect(s.saved()[0]?.notified).toBe(true);
  });

  it('leaves a damaged file alone and says why', async () => {
    const s = setup([]);
    writeFileSync(s.file, '{ broken');
    await s.settle();
    expect(readFileSync(s.file, 'utf8')).toBe('{ broken');
    expect(s.logs.join('\n')).toMatch(/not valid JSON/);
  });

  it('stops its timer when disposed', async () => {
    const s = setup([reminder('x', T0 + 5_000)]);
    await s.settle();
    s.scheduler.dispose();
    expect(s.time.pendingTimers()).toEqual([]);
  });
});
