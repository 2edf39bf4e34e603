import type { DueReminder, HostEvent } from '../../../src-shared/contract/index.js';
import { readReminders, serializeReminders, type Reminder } from '../../tools/builtin/reminders/index.js';
import { writeFileAtomically } from '../../tools/sandbox/pathGuard.js';
import { ToolError } from '../../tools/toolTypes.js';
import type { DeviceBridge } from './deviceBridge.js';

/** Timers never sleep longer than this, so a clock change or a suspended laptop delays a reminder at most this. */
export const MAX_SLEEP_MS = 60_000;
/** After a failed notification (no window yet), the next try. */
export const RETRY_MS = 60_000;

export interface SchedulerClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return timer;
  },
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export interface ReminderSchedulerDeps {
  /** The reminders file now (its folder may change with the pack settings). */
  readonly file: () => string;
  readonly device: DeviceBridge;
  readonly emit: (event: HostEvent) => void;
  readonly clock?: SchedulerClock;
  readonly log?: (message: string) => void;
}

/**
 * Shows each reminder once when it falls due: a notification through the shell's device bridge and a
 * `reminder.due` event for the window, then `notified: true` in the file. It reads the file at start (so a reminder
 * that fell due while Homebody was closed is shown then) and again whenever a tool call touched it. A notification
 * the shell cannot show yet (no window) is tried again later, and as soon as a window connects.
 */
export class ReminderScheduler {
  private readonly clock: SchedulerClock;
  private timer: unknown;
  private disposed = false;
  /** One check at a time; a check asked for meanwhile runs after it. */
  private running: Promise<void> | undefined;
  private again = false;
  private readonly stopListening: (() => void) | undefined;

  constructor(private readonly deps: ReminderSchedulerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.stopListening = deps.device.onAvailable?.(() => void this.check());
  }

  /** Reads the file and shows what is due; resolves when done (tests await it). */
  check(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.checkOnce();
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  dispose(): void {
    this.disposed = true;
    this.stopListening?.();
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
  }

  private async checkOnce(): Promise<void> {
    const file = this.deps.file();
    let pending: Reminder[];
    try {
      pending = (await readReminders(file)).reminders.filter((r) => !r.done && !r.notified);
    } catch (err) {
      // A damaged file is the tools' to report (they refuse to overwrite it); nothing is shown from it.
      this.log(`cannot read reminders: ${(err as Error).message}`);
      return this.schedule(undefined);
    }
    const now = this.clock.now();
    const due = pending.filter((r) => Date.parse(r.due) <= now);
    const shown: string[] = [];
    let failed = false;
    for (const reminder of due) {
      if (this.disposed) return;
      try {
        await this.deps.device.handle({ kind: 'notify', title: 'Reminder', body: reminder.text });
      } catch (err) {
        // No window to show it in yet (browser mode before a page connects): it stays pending.
        if (err instanceof ToolError && err.code === 'UNAVAILABLE') {
          failed = true;
          continue;
        }
        this.log(`notification failed: ${(err as Error).message}`);
      }
      const view: DueReminder = { id: reminder.id, text: reminder.text, due: reminder.due };
      this.deps.emit({ type: 'reminder.due', reminder: view });
      shown.push(reminder.id);
    }
    if (shown.length > 0) await this.markNotified(file, shown);
    const later = pending.filter((r) => Date.parse(r.due) > now).map((r) => Date.parse(r.due) - now);
    const next = Math.min(...later, failed ? RETRY_MS : Infinity);
    this.schedule(Number.isFinite(next) ? next : undefined);
  }

  /** Marks only these ids, on the file as it is now (a tool may have changed it meanwhile). */
  private async markNotified(file: string, ids: string[]): Promise<void> {
    try {
      const content = await readReminders(file);
      for (const r of content.reminders) if (ids.includes(r.id)) r.notified = true;
      await writeFileAtomically(file, serializeReminders(content));
    } catch (err) {
      this.log(`cannot mark reminders as shown: ${(err as Error).message}`);
    }
  }

  private schedule(inMs: number | undefined): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (inMs === undefined || this.disposed) return;
    this.timer = this.clock.setTimer(
      () => {
        this.timer = undefined;
        void this.check();
      },
      Math.max(0, Math.min(inMs, MAX_SLEEP_MS)),
    );
  }

  private log(message: string): void {
    (this.deps.log ?? ((m: string) => console.error(`[reminders] ${m}`)))(message);
  }
}
