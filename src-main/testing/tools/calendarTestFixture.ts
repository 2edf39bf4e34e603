/**
 * A calendar folder for the calendar tests: real-world exports copied from tools/builtin/calendar/fixtures/, a trash,
 * and a tool context whose granted roots are empty, so undo must reach the calendar folder as a pack folder.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ical from 'node-ical';
import { refusingServices, testPackConfig } from './packFixture.js';
import type { JsonValue, ToolContext, ToolDefinition, ToolOutcome } from '../../tools/toolTypes.js';

/** Real-world exports, kept beside the calendar tests that read them. */
export const FIXTURES = path.join(import.meta.dirname, '..', '..', 'tools', 'builtin', 'calendar', 'fixtures');

export interface CalendarFixture {
  readonly dir: string;
  readonly ctx: ToolContext;
  /** Copies fixture files into the calendar folder. */
  add(...names: string[]): void;
  write(name: string, text: string): string;
  read(name: string): string;
  files(): string[];
  run<A>(tool: ToolDefinition<A>, args: A): Promise<ToolOutcome>;
  cleanup(): void;
}

export function makeCalendarFixture(timeZone: string): CalendarFixture {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hb-calendar-')));
  const packs = testPackConfig(path.join(base, 'packs'), { timeZone });
  const ctx: ToolContext = {
    roots: [],
    trashDir: path.join(base, 'trash'),
    signal: new AbortController().signal,
    packs,
    services: refusingServices,
  };
  const dir = packs.calendarDir;
  return {
    dir,
    ctx,
    add: (...names) => {
      for (const name of names) copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
    },
    write: (name, text) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    },
    read: (name) => readFileSync(path.join(dir, name), 'utf8'),
    files: () => readdirSync(dir).sort(),
    run: (tool, args) => tool.run(args, ctx),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

type Row = { [key: string]: JsonValue };

export function eventsOf(outcome: ToolOutcome): Row[] {
  return (outcome.result as { events: Row[] }).events;
}

/** What another iCalendar library (node-ical) reads from a file: the VEVENTs by uid. */
export function readWithNodeIcal(text: string): Map<string, ical.VEvent> {
  const parsed = ical.sync.parseICS(text);
  const out = new Map<string, ical.VEvent>();
  for (const value of Object.values(parsed)) {
    if (value && value.type === 'VEVENT') out.set(value.uid, value);
  }
  return out;
}
