/**
 * Every built-in tool's summarize(): the one line a call's card shows. Each tool is run where that is cheap (temp
 * folders, a Maildir, recording device services) so the line is built from the exact result its run() gives; tools
 * that need a server or a slow library (mail_send, the web tools, calculate, convert_units) get results shaped as
 * their run() builds them. Then every tool is fed results it did not make: it answers null or a short line, and
 * never throws.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fixture } from '../../testing/tools/filesFixture.js';
import { makeFixture } from '../../testing/tools/filesFixture.js';
import type { CalendarFixture } from '../../testing/tools/calendarTestFixture.js';
import { eventsOf, makeCalendarFixture } from '../../testing/tools/calendarTestFixture.js';
import { makePackContext, type PackTestContext } from '../../testing/tools/packTestContext.js';
import type { DeviceRequest, JsonValue, ToolContext, ToolDefinition, ToolServices } from '../toolTypes.js';
import { addEvent } from './calendar/addEvent.js';
import { cancelEvent } from './calendar/cancelEvent.js';
import { findFree } from './calendar/findFree.js';
import { listEvents } from './calendar/listEvents.js';
import { moveEvent } from './calendar/moveEvent.js';
import { contactAdd } from './contacts/contactAdd.js';
import { contactFind } from './contacts/contactFind.js';
import { clipboardRead, clipboardWrite } from './device/clipboard.js';
import { deviceNotify } from './device/deviceNotify.js';
import { deviceOpen } from './device/deviceOpen.js';
import { deviceStatus } from './device/deviceStatus.js';
import { copy } from './files/copy.js';
import { deletePermanently } from './files/deletePermanently.js';
import { listFolder } from './files/listFolder.js';
import { move } from './files/move.js';
import { moveToTrash } from './files/moveToTrash.js';
import { readText } from './files/readText.js';
import { searchFiles } from './files/searchFiles.js';
import { writeText } from './files/writeText.js';
import { BUILTIN_TOOLS } from './index.js';
import { mailDraft } from './mail/draft.js';
import { mailFolders } from './mail/folders.js';
import { mailInbox } from './mail/inbox.js';
import { mailRead } from './mail/read.js';
import { mailSend } from './mail/send.js';
import { noteRead } from './notes/noteRead.js';
import { noteSearch } from './notes/noteSearch.js';
import { noteWrite } from './notes/noteWrite.js';
import { reminderAdd } from './reminders/reminderAdd.js';
import { reminderDone } from './reminders/reminderDone.js';
import { reminderList } from './reminders/reminderList.js';
import { formatSize, groupDigits, MAX_SUMMARY_CHARS, plain, quoted, series } from './summaryText.js';
import { calculate } from './utilities/calculate.js';
import { convertUnits } from './utilities/convertUnits.js';
import { dateCalcTool } from './utilities/dateCalc.js';
import { webFetch } from './web/webFetch.js';
import { webSearch } from './web/webSearch.js';

/** Results each tool really gave (or, for the few not run, gave in shape), kept for the garbage test at the end. */
const samples = new Map<string, JsonValue[]>();

function say<A>(tool: ToolDefinition<A>, result: JsonValue, args: A): string | null {
  expect(tool.summarize, `${tool.name} has summarize()`).toBeTypeOf('function');
  const list = samples.get(tool.name) ?? [];
  list.push(result);
  samples.set(tool.name, list);
  const line = tool.summarize?.(result, args) ?? null;
  if (line !== null) {
    expect(line.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(line).not.toMatch(/[\n\r{}]/);
  }
  return line;
}

/** Runs the tool and says its result. */
async function ran<A>(tool: ToolDefinition<A>, args: A, ctx: ToolContext): Promise<string | null> {
  return say(tool, (await tool.run(args, ctx)).result, args);
}

// Years are said only when they are not this one: the calendar fixtures and mails are of late 2026.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-02T12:00:00Z') });
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the helpers', () => {
  it('write sizes, numbers and lists for people', () => {
    expect([0, 1, 20, 999, 1000, 1229, 99_949, 340_000, 999_600, 4_500_000, 2.5e9].map(formatSize)).toEqual([
      '0 bytes',
      '1 byte',
      '20 bytes',
      '999 bytes',
      '1.0 KB',
      '1.2 KB',
      '99.9 KB',
      '340 KB',
      '1.0 MB',
      '4.5 MB',
      '2.5 GB',
    ]);
    expect(groupDigits('1031 km and 1234567.891011 m')).toBe('1,031 km and 1,234,567.891011 m');
    expect(series(['a'])).toBe('a');
    expect(series(['a', 'b'])).toBe('a and b');
    expect(series(['a', 'b', 'c'])).toBe('a, b and c');
    expect(series(['a', 'b', 'c', 'd', 'e'], 12)).toBe('a, b, c and 9 more');
  });

  it("puts others' text on one line, without control or direction characters, cut and quoted", () => {
    expect(plain('Lunch\r\n\tat\u202e noon\u0000!')).toBe('Lunch at noon !');
    expect(quoted('Say "yes"')).toBe(`"Say 'yes'"`);
    expect(quoted('x'.repeat(100), 10)).toBe(`"${'x'.repeat(9)}…"`);
    // An emoji built with a joiner stays whole.
    expect(plain('family 👨‍👩‍👧')).toBe('family 👨‍👩‍👧');
  });
});

describe('file tools', () => {
  let fx: Fixture;
  beforeEach(() => {
    fx = makeFixture();
  });
  afterEach(() => fx.cleanup());
  const r = (...parts: string[]): string => path.join(fx.reports, ...parts);

  it('write_text says what it created or replaced, where, and how big', async () => {
    const created = { path: r('hello.txt'), content: 'Hello from Homebody\n', overwrite: false };
    expect(await ran(writeText, created, fx.ctx)).toBe(`Created ${r('hello.txt')} (20 bytes).`);
    const replaced = { path: r('hello.txt'), content: 'x'.repeat(1200), overwrite: true };
    expect(await ran(writeText, replaced, fx.ctx)).toBe(
      `Replaced ${r('hello.txt')} (1.2 KB); Undo brings back the old version.`,
    );
  });

  it('read_text names the file, its lines and size, not its text', async () => {
    expect(await ran(readText, { path: r('notes.txt') }, fx.ctx)).toBe('Read notes.txt: 2 lines, 24 bytes.');
    writeFileSync(r('big.log'), 'line of the log\n'.repeat(400));
    expect(await ran(readText, { path: r('big.log'), maxBytes: 1600 }, fx.ctx)).toBe(
      'Read the first 1.6 KB of big.log (6.4 KB in all): 100 lines.',
    );
    writeFileSync(r('empty.txt'), '');
    expect(await ran(readText, { path: r('empty.txt') }, fx.ctx)).toBe('Read empty.txt: it is empty.');
  });

  it('list_folder counts files and folders and names the first', async () => {
    writeFileSync(r('a.txt'), 'a');
    writeFileSync(r('b.txt'), 'b');
    mkdirSync(r('Archive'));
    expect(await ran(listFolder, { path: fx.reports }, fx.ctx)).toBe(
      `3 files and 1 folder in ${fx.reports}: Archive, a.txt, b.txt and 1 more.`,
    );
    expect(await ran(listFolder, { path: r('Archive') }, fx.ctx)).toBe(`${r('Archive')} is empty.`);
    expect(await ran(listFolder, { path: fx.reports, limit: 2 }, fx.ctx)).toBe(
      `4 items in ${fx.reports}; the first 2 shown are 1 file and 1 folder.`,
    );
  });

  it('search_files says what it looked for, how many it found and where', async () => {
    writeFileSync(r('a.txt'), 'a');
    mkdirSync(r('Archive'));
    writeFileSync(r('Archive', 'old.txt'), 'old');
    expect(await ran(searchFiles, { folder: fx.reports, name: '*.txt' }, fx.ctx)).toBe(
      `3 files named like "*.txt" in ${fx.reports}: a.txt, notes.txt and ${path.join('Archive', 'old.txt')}.`,
    );
    expect(await ran(searchFiles, { folder: fx.reports, contains: 'second' }, fx.ctx)).toBe(
      `1 file containing "second" in ${fx.reports}: notes.txt (line 2).`,
    );
    expect(await ran(searchFiles, { folder: fx.reports, name: 'a' }, fx.ctx)).toBe(
      `1 file and 1 folder named like "a" in ${fx.reports}: Archive and a.txt.`,
    );
    expect(await ran(searchFiles, { folder: fx.reports, name: 'zzz' }, fx.ctx)).toBe(
      `Nothing named like "zzz" in ${fx.reports}.`,
    );
  });

  it('move, copy, trash and delete_permanently name the entry and where it went', async () => {
    writeFileSync(r('a.txt'), 'a');
    writeFileSync(r('b.txt'), 'b');
    mkdirSync(r('Archive'));
    writeFileSync(r('Archive', 'keep.txt'), 'keep');
    expect(await ran(move, { from: r('a.txt'), to: r('Archive') }, fx.ctx)).toBe(
      `Moved a.txt to ${path.join('Archive', 'a.txt')}.`,
    );
    expect(await ran(move, { from: r('b.txt'), to: r('c.txt') }, fx.ctx)).toBe('Renamed b.txt to c.txt.');
    expect(await ran(move, { from: r('c.txt'), to: fx.downloads }, fx.ctx)).toBe(
      `Moved c.txt to ${path.join(fx.downloads, 'c.txt')}.`,
    );
    expect(await ran(copy, { from: r('notes.txt'), to: r('Archive') }, fx.ctx)).toBe(
      `Copied notes.txt to ${path.join('Archive', 'notes.txt')} (24 bytes).`,
    );
    expect(await ran(copy, { from: r('Archive'), to: r('Backup') }, fx.ctx)).toBe(
      'Copied the folder Archive to Backup (3 files).',
    );
    expect(await ran(moveToTrash, { path: r('notes.txt') }, fx.ctx)).toBe(
      'Moved notes.txt to the trash; it can be undone.',
    );
    expect(await ran(moveToTrash, { path: r('Backup') }, fx.ctx)).toBe(
      'Moved the folder Backup to the trash; it can be undone.',
    );
    writeFileSync(r('tmp.log'), 'x');
    expect(await ran(deletePermanently, { path: r('tmp.log') }, fx.ctx)).toBe('Deleted tmp.log for good.');
    expect(await ran(deletePermanently, { path: r('Archive'), recursive: true }, fx.ctx)).toBe(
      'Deleted the folder Archive and everything in it for good.',
    );
  });
});

describe('calendar tools', () => {
  let fx: CalendarFixture;
  afterEach(() => fx.cleanup());
  const EXPORTS = ['google-weekly.ics', 'outlook-berlin.ics', 'apple-holidays.ics', 'webinar-utc.ics'];

  it('calendar_events names the day and the first events with their times, quoted', async () => {
    fx = makeCalendarFixture('Europe/London');
    fx.add(...EXPORTS);
    expect(await ran(listEvents, { from: '2026-12-03' }, fx.ctx)).toBe(
      '3 events on Thu 3 Dec: "Dentist" (08:00), "Planning with Ana" (08:00) and "Product webinar" (15:00).',
    );
    expect(await ran(listEvents, { from: '2026-12-24', to: '2026-12-26' }, fx.ctx)).toBe(
      `1 event from 24 Dec to 26 Dec: "Christmas at my parents'" (Thu, all day).`,
    );
    expect(await ran(listEvents, { from: '2026-12-27' }, fx.ctx)).toBe('No events on Sun 27 Dec.');
  });

  it('calendar_events caps the list: the first three, then how many more', async () => {
    fx = makeCalendarFixture('America/New_York');
    fx.add('google-weekly.ics');
    expect(await ran(listEvents, { from: '2026-10-01', to: '2026-12-31' }, fx.ctx)).toBe(
      '7 events from 1 Oct to 31 Dec: "Team sync" (6 Oct 09:00), "Team sync" (13 Oct 09:00), ' +
        '"Team sync (moved)" (28 Oct 14:00) and 4 more.',
    );
  });

  it('calendar_free lists the free times found', async () => {
    fx = makeCalendarFixture('Europe/London');
    fx.add(...EXPORTS);
    expect(await ran(findFree, { from: '2026-12-03', minutes: 60 }, fx.ctx)).toBe(
      '2 free times of 60 minutes or more on Thu 3 Dec: 09:30–15:00 and 16:00–17:00.',
    );
    expect(await ran(findFree, { from: '2026-12-03', to: '2026-12-04', minutes: 60 }, fx.ctx)).toBe(
      '3 free times of 60 minutes or more from 3 Dec to 4 Dec: Thu 09:30–15:00, Thu 16:00–17:00 and Fri 09:00–17:00.',
    );
    expect(
      await ran(findFree, { from: '2026-12-03', minutes: 30, dayStart: '08:00', attendee: 'Ana Souza' }, fx.ctx),
    ).toBe('2 free times of 30 minutes or more on Thu 3 Dec when Ana Souza is free too: 09:30–15:00 and 16:00–17:00.');
    expect(await ran(findFree, { from: '2026-12-05', minutes: 60 }, fx.ctx)).toBe(
      'No free time of 60 minutes or more on Sat 5 Dec.',
    );
  });

  it('calendar_add, calendar_move and calendar_cancel say what changed and when', async () => {
    fx = makeCalendarFixture('Europe/London');
    const added = await addEvent.run({ title: 'Dentist', start: '2026-12-10T09:00' }, fx.ctx);
    expect(say(addEvent, added.result, { title: 'Dentist', start: '2026-12-10T09:00' })).toBe(
      'Added "Dentist" to your calendar: Thu 10 Dec, 09:00–10:00.',
    );
    const uid = String((added.result as { added: { uid: string } }).added.uid);
    expect(await ran(moveEvent, { uid, start: '2027-01-08T10:00' }, fx.ctx)).toBe(
      'Moved "Dentist" to Fri 8 Jan 2027, 10:00–11:00.',
    );
    expect(await ran(cancelEvent, { uid }, fx.ctx)).toBe('Cancelled "Dentist"; it can be undone.');
    expect(await ran(addEvent, { title: 'Holiday', start: '2026-12-21', end: '2026-12-23' }, fx.ctx)).toBe(
      'Added "Holiday" to your calendar: Mon 21 Dec to Wed 23 Dec, all days.',
    );
  });

  it('calendar_move and calendar_cancel of a repeating event say which date', async () => {
    fx = makeCalendarFixture('America/New_York');
    fx.add('google-weekly.ics');
    const listed = eventsOf(await listEvents.run({ from: '2026-11-10' }, fx.ctx));
    const uid = String(listed[0]?.uid);
    expect(await ran(moveEvent, { uid, occurrence: '2026-11-10', start: '2026-11-11T15:00' }, fx.ctx)).toBe(
      'Moved one date of "Team sync" to Wed 11 Nov, 15:00–15:30.',
    );
    expect(await ran(cancelEvent, { uid, occurrence: '2026-11-17' }, fx.ctx)).toBe(
      'Cancelled "Team sync" on Tue 17 Nov; its other dates stay.',
    );
    expect(await ran(cancelEvent, { uid }, fx.ctx)).toBe('Cancelled "Team sync" and all its dates; it can be undone.');
  });
});

describe('contacts, notes and reminders', () => {
  let fx: PackTestContext;
  beforeEach(() => {
    fx = makePackContext({ packs: { timeZone: 'Europe/Lisbon' } });
  });
  afterEach(() => fx.cleanup());

  it('contact_add and contact_find name the person and how to reach them', async () => {
    const ana = { name: 'Ana Sousa', email: 'ana@example.org', phone: '+351 912 345 678' };
    expect(await ran(contactAdd, ana, fx.ctx)).toBe(
      'Added Ana Sousa to your contacts: ana@example.org, +351 912 345 678.',
    );
    expect(await ran(contactFind, { query: 'Ana Sousa' }, fx.ctx)).toBe(
      'Found Ana Sousa (ana@example.org, +351 912 345 678).',
    );
    await contactAdd.run({ name: 'Ana Lima', phone: '+351 913 000 000' }, fx.ctx);
    expect(await ran(contactFind, { query: 'Ana' }, fx.ctx)).toBe('Found 2 contacts: Ana Lima and Ana Sousa.');
    expect(await ran(contactFind, { query: 'Jon' }, fx.ctx)).toBe('No contact matches "Jon".');
  });

  it('note_write, note_read and note_search name the note', async () => {
    expect(await ran(noteWrite, { title: 'Shopping list', text: 'Milk\nEggs' }, fx.ctx)).toBe(
      'Created the note "Shopping list".',
    );
    expect(await ran(noteWrite, { title: 'Shopping list', text: 'Bread' }, fx.ctx)).toBe(
      'Added 5 characters to the end of the note "Shopping list".',
    );
    expect(await ran(noteRead, { title: 'Shopping list' }, fx.ctx)).toBe('Read the note "Shopping list": 5 words.');
    expect(await ran(noteSearch, { query: 'milk' }, fx.ctx)).toBe('1 note contains "milk": "Shopping list".');
    expect(await ran(noteSearch, { query: 'dentist' }, fx.ctx)).toBe('No note contains "dentist".');
    await noteWrite.run({ title: 'Dentist', text: 'Call on Monday' }, fx.ctx);
    // The newest first: the dentist's note was written last.
    const dentist = path.join(fx.ctx.packs.notesDir, 'Dentist.md');
    utimesSync(dentist, new Date('2026-12-02T11:00:00Z'), new Date('2026-12-02T11:00:00Z'));
    const shopping = path.join(fx.ctx.packs.notesDir, 'Shopping list.md');
    utimesSync(shopping, new Date('2026-12-01T11:00:00Z'), new Date('2026-12-01T11:00:00Z'));
    expect(await ran(noteSearch, {}, fx.ctx)).toBe('Your 2 notes, the newest first: "Dentist" and "Shopping list".');
  });

  it('reminder_add, reminder_list and reminder_done name the reminder and when it is due', async () => {
    expect(await ran(reminderAdd, { text: 'Call mum', due: '2026-12-03T09:00' }, fx.ctx)).toBe(
      'Set a reminder "Call mum" for Thu 3 Dec 2026, 09:00.',
    );
    expect(await ran(reminderList, {}, fx.ctx)).toBe('1 reminder waiting: "Call mum" (Thu 3 Dec 2026, 09:00).');
    const id = await listedId(fx);
    expect(await ran(reminderDone, { id }, fx.ctx)).toBe('Marked the reminder "Call mum" done.');
    expect(await ran(reminderList, {}, fx.ctx)).toBe('No reminders are waiting.');
    expect(await ran(reminderList, { includeDone: true }, fx.ctx)).toBe('1 reminder: "Call mum" (done).');
  });
});

async function listedId(fx: PackTestContext): Promise<string> {
  const { reminders } = (await reminderList.run({ includeDone: true }, fx.ctx)).result as {
    reminders: Array<{ id: string }>;
  };
  return reminders[0]?.id ?? '';
}

describe('utilities', () => {
  it('calculate and convert_units write the sum and its answer (results as safeMath formats them)', () => {
    expect(say(calculate, { expression: '15% of 64.80', result: '9.72' }, { expression: '15% of 64.80' })).toBe(
      '15% of 64.80 = 9.72',
    );
    expect(say(calculate, { expression: 'max(3, 7, 2) + 2^10', result: '1031' }, { expression: 'x' })).toBe(
      'max(3, 7, 2) + 2^10 = 1,031',
    );
    expect(
      say(
        convertUnits,
        { from: '5 mi', result: '8.04672 km', value: 8.04672, unit: 'km' },
        { value: 5, from: 'mi', to: 'km' },
      ),
    ).toBe('5 mi = 8.04672 km');
    expect(
      say(
        convertUnits,
        { from: '100 degF', result: '37.777777777778 degC', value: 37.7777777778, unit: 'degC' },
        { value: 100, from: 'F', to: 'C' },
      ),
    ).toBe('100 °F = 37.777778 °C');
  });

  it('date_calc says the question and its answer', async () => {
    const fx = makePackContext();
    try {
      expect(await ran(dateCalcTool, { operation: 'add', date: '2026-11-30', duration: '3 days' }, fx.ctx)).toBe(
        '3 days after 30 Nov 2026: Thu 3 Dec 2026.',
      );
      expect(
        await ran(dateCalcTool, { operation: 'subtract', date: '2026-12-01T09:30', duration: '2 hours' }, fx.ctx),
      ).toBe('2 hours before 1 Dec 2026, 09:30: Tue 1 Dec 2026, 07:30.');
      expect(
        await ran(dateCalcTool, { operation: 'difference', date: '2026-12-01', otherDate: '2026-12-25' }, fx.ctx),
      ).toBe('25 Dec 2026 is 24 days after 1 Dec 2026.');
      expect(
        await ran(dateCalcTool, { operation: 'difference', date: '2026-12-03T12:00', otherDate: '2026-12-01' }, fx.ctx),
      ).toBe('1 Dec 2026 is 2 days, 12 hours before 3 Dec 2026, 12:00.');
      expect(
        await ran(
          dateCalcTool,
          { operation: 'convert_zone', date: '2026-12-01T09:00', toZone: 'America/New_York' },
          fx.ctx,
        ),
      ).toBe('Tue 1 Dec 2026, 09:00 is Tue 1 Dec 2026, 04:00 in America/New_York.');
      expect(await ran(dateCalcTool, { operation: 'weekday', date: '2026-12-01' }, fx.ctx)).toBe(
        '1 Dec 2026 is a Tuesday.',
      );
    } finally {
      fx.cleanup();
    }
  });
});

describe('device tools', () => {
  let fx: PackTestContext;
  afterEach(() => fx.cleanup());

  /** Answers as the desktop shell does (app/desktopDeviceBridge.ts). */
  function shell(notifyAnswer: JsonValue = { done: true, shown: 'system' }): ToolServices {
    return {
      egress: () => Promise.reject(new Error('no network in this test')),
      device: (request: DeviceRequest): Promise<JsonValue> =>
        Promise.resolve(
          request.kind === 'clipboard-read'
            ? { text: 'copied text' }
            : request.kind === 'notify'
              ? notifyAnswer
              : { done: true },
        ),
    };
  }

  it('clipboard_read, clipboard_write, device_open and device_notify say what was done', async () => {
    fx = makePackContext({ services: shell() });
    expect(await ran(clipboardRead, {}, fx.ctx)).toBe('Read 11 characters from the clipboard.');
    expect(await ran(clipboardWrite, { text: 'hello' }, fx.ctx)).toBe('Copied 5 characters to the clipboard.');
    expect(await ran(deviceOpen, { target: 'https://example.org/a' }, fx.ctx)).toBe(
      'Opened https://example.org/a in your browser.',
    );
    const granted = path.join(fx.base, 'granted');
    mkdirSync(granted);
    writeFileSync(path.join(granted, 'report.pdf'), '%PDF');
    const ctx = { ...fx.ctx, roots: [{ path: granted, untrusted: false }] };
    expect(await ran(deviceOpen, { target: path.join(granted, 'report.pdf') }, ctx)).toBe(
      `Opened ${path.join(granted, 'report.pdf')} in its usual app.`,
    );
    expect(await ran(deviceNotify, { title: 'Tea', body: 'ready' }, fx.ctx)).toBe('Showed the notification "Tea".');
  });

  it('device_notify says when the system shows no notifications', async () => {
    fx = makePackContext({ services: shell({ done: false, note: 'This system shows no notifications.' }) });
    expect(await ran(deviceNotify, { title: 'Tea', body: 'ready' }, fx.ctx)).toBe(
      'Could not show the notification "Tea": this system shows no notifications.',
    );
  });

  it('device_status says the battery, disk, memory and network in one line', async () => {
    fx = makePackContext();
    expect(await ran(deviceStatus, {}, fx.ctx)).toMatch(/free on disk; .* memory free; (online|no network)/);
    const shaped = {
      battery: [{ name: 'BAT0', percent: 80, status: 'Charging' }],
      disk: { free: '12.3 GiB', total: '500.0 GiB', freeBytes: 13_207_024_435 },
      memory: { free: '7.5 GiB', total: '16.0 GiB' },
      network: [
        { name: 'eth0', up: false, addresses: [] },
        { name: 'wlan0', up: true, addresses: ['192.168.1.5'] },
      ],
    };
    expect(say(deviceStatus, shaped, {})).toBe(
      'Battery at 80% (charging); 12.3 GiB of 500.0 GiB free on disk; 7.5 GiB of 16.0 GiB memory free; online (wlan0).',
    );
    expect(say(deviceStatus, { ...shaped, battery: 'no battery found', network: [] }, {})).toBe(
      'No battery; 12.3 GiB of 500.0 GiB free on disk; 7.5 GiB of 16.0 GiB memory free; no network connection.',
    );
  });
});

describe('mail tools', () => {
  let fx: PackTestContext;
  let ctx: ToolContext;
  const ANA = [
    'From: Ana Lima <ana@example.org>',
    'To: Me <me@example.net>',
    'Subject: Lunch on Friday?',
    'Date: Thu, 26 Nov 2026 12:15:00 +0000',
    'Message-ID: <lunch-1@example.org>',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Shall we meet at noon?',
    '',
  ].join('\r\n');
  const BOB = [
    'From: bob@example.com',
    'To: me@example.net',
    'Subject: =?UTF-8?Q?Invoice_n=C2=BA_12?=',
    'Date: Fri, 27 Nov 2026 12:00:00 +0000',
    'Message-ID: <invoice-12@example.com>',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Your invoice.',
    '',
  ].join('\r\n');

  beforeEach(() => {
    fx = makePackContext();
    const maildir = path.join(fx.base, 'Maildir');
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(maildir, sub), { recursive: true });
    writeFileSync(path.join(maildir, 'cur', '1764159300.M1P1.host:2,S'), ANA);
    writeFileSync(path.join(maildir, 'new', '1764244800.M2P1.host'), BOB);
    utimesSync(path.join(maildir, 'cur', '1764159300.M1P1.host:2,S'), 1764159300, 1764159300);
    utimesSync(path.join(maildir, 'new', '1764244800.M2P1.host'), 1764244800, 1764244800);
    ctx = { ...fx.ctx, packs: { ...fx.ctx.packs, mailSource: { kind: 'maildir', path: maildir } } };
  });
  afterEach(() => fx.cleanup());

  it('mail_inbox names how many, and the newest with its sender and quoted subject', async () => {
    expect(await ran(mailInbox, {}, ctx)).toBe('2 messages, the newest from bob@example.com: "Invoice nº 12".');
    expect(await ran(mailInbox, { query: 'lunch' }, ctx)).toBe(
      'One message from or about "lunch", from Ana Lima: "Lunch on Friday?".',
    );
    expect(await ran(mailInbox, { query: 'nobody' }, ctx)).toBe('No email from or about "nobody".');
  });

  it('mail_read names the sender, the subject and the date', async () => {
    expect(await ran(mailRead, { id: '1764159300.M1P1.host' }, ctx)).toBe(
      'Mail from Ana Lima, "Lunch on Friday?", 26 Nov.',
    );
  });

  it('mail_folders lists the folders with their counts', async () => {
    expect(await ran(mailFolders, {}, ctx)).toBe('Your mail is one folder, INBOX.');
    // An IMAP account's folders, as imapMail.ts lists them.
    const imap = {
      folders: [
        { folder: 'INBOX', specialUse: '\\Inbox', messages: 340, unseen: 12 },
        { folder: 'Sent', specialUse: '\\Sent', messages: 80, unseen: 0 },
        { folder: 'Archive', specialUse: '\\Archive', messages: 1200, unseen: 0 },
        { folder: 'Drafts', specialUse: '\\Drafts', messages: 2, unseen: 0 },
      ],
    };
    expect(say(mailFolders, imap, {})).toBe(
      '4 mail folders: INBOX (340 messages, 12 unread), Sent (80 messages), Archive (1,200 messages) and 1 more.',
    );
  });

  it('mail_draft names the recipient and the subject, and that nothing was sent', async () => {
    const draft = { to: 'Priya Nair <priya@example.com>', subject: 'Q3 by region', body: 'The figures, by region.' };
    expect(await ran(mailDraft, draft, ctx)).toBe(
      'Saved a draft to priya@example.com: "Q3 by region"; nothing was sent.',
    );
    const reply = {
      to: 'ana@example.org',
      subject: 'Re: Lunch on Friday?',
      body: 'Yes!',
      inReplyTo: '1764159300.M1P1.host',
    };
    expect(await ran(mailDraft, reply, ctx)).toBe(
      'Saved a reply to ana@example.org: "Re: Lunch on Friday?"; nothing was sent.',
    );
  });

  it('mail_send names the subject and who the server took it for (a result as send.ts builds it)', () => {
    const sent = {
      sent: true,
      messageId: '<boiler-1@example.net>',
      to: 'Tom Becker <tom.becker@example.com>',
      subject: 'Boiler',
      accepted: ['tom.becker@example.com'],
      serverReply: '250 2.0.0 OK',
      sentCopy: '/home/me/.homebody/mail/sent/x.eml',
    };
    const args = { to: sent.to, subject: 'Boiler', body: 'It is fixed.' };
    expect(say(mailSend, sent, args)).toBe('Sent "Boiler" to tom.becker@example.com.');
    const { sentCopy: _kept, ...withoutCopy } = sent;
    const refused = {
      ...withoutCopy,
      to: 'tom.becker@example.com, eve@example.org',
      rejected: ['eve@example.org'],
      note: 'The server refused eve@example.org; the others got it.',
      sentCopyError: 'disk full',
    };
    expect(say(mailSend, refused, args)).toBe(
      'Sent "Boiler" to tom.becker@example.com. The server refused eve@example.org. No copy could be kept in your sent mail.',
    );
  });
});

describe('web tools (results as their run() builds them)', () => {
  it('web_fetch names the page, its site and how much was read', () => {
    const text = Array.from({ length: 3200 }, (_, i) => `word${i}`).join(' ');
    const page = { url: 'https://www.example.org/garden/chairs', title: 'Garden chairs', text };
    expect(say(webFetch, page, { url: page.url })).toBe(
      'Read the page "Garden chairs" at www.example.org (3,200 words).',
    );
    const cut = {
      ...page,
      title: '',
      truncated: true,
      note: 'The text has 40000 characters; pass maxChars to read more.',
    };
    expect(say(webFetch, cut, { url: page.url })).toBe('Read the page at www.example.org (the first 3,200 words).');
  });

  it('web_search says how many results, for what, and the first', () => {
    const results = Array.from({ length: 5 }, (_, i) => ({
      title: i === 0 ? 'Best garden chairs of 2026' : `Result ${i}`,
      url: `https://shop${i}.example.com/chairs`,
      snippet: 'Chairs.',
    }));
    expect(say(webSearch, { query: 'garden chairs', results }, { query: 'garden chairs' })).toBe(
      '5 results for "garden chairs", the first "Best garden chairs of 2026" (shop0.example.com).',
    );
    expect(
      say(webSearch, { query: 'garden chairs', results: [], note: 'No results.' }, { query: 'garden chairs' }),
    ).toBe('No results for "garden chairs".');
  });
});

describe("others' text in a summary", () => {
  it('stays on one line, in quotes, and short, whatever a sender or a page puts in it', () => {
    const hostile =
      'Urgent"\nHomebody: all your files were deleted.\u202e Click https://evil.example ' + 'x'.repeat(400);
    const line = say(mailRead, { id: '1', from: `Eve <eve@example.org>`, subject: hostile, date: null }, { id: '1' });
    expect(line).not.toBeNull();
    expect(line).toBe(`Mail from Eve, "Urgent' Homebody: all your files were deleted. Click https:…".`);
    const events = {
      events: [{ title: hostile, start: '2026-12-03T09:00', end: '2026-12-03T10:00' }],
      timeZone: 'UTC',
    };
    const listed = say(listEvents, events, { from: '2026-12-03' });
    expect(listed).toMatch(/^1 event on Thu 3 Dec: "Urgent' Homebody: all your[^"]*…" \(09:00\)\.$/);
  });
});

describe('every built-in tool', () => {
  it('has a summarize() and a realistic result checked above', () => {
    const names = BUILTIN_TOOLS.map((t) => t.name);
    expect(names.filter((name) => typeof BUILTIN_TOOLS.find((t) => t.name === name)?.summarize !== 'function')).toEqual(
      [],
    );
    expect(names.filter((name) => !samples.has(name))).toEqual([]);
  });

  const GARBAGE: JsonValue[] = [null, 42, 'done', true, [], [{ path: '/x' }], {}];

  it.each(BUILTIN_TOOLS.map((t) => [t.name, t] as const))('%s says nothing of a result it did not make', (_n, tool) => {
    for (const result of GARBAGE) {
      expect(tool.summarize?.(result, {}), JSON.stringify(result)).toBeNull();
      expect(tool.summarize?.(result, null as never)).toBeNull();
    }
  });

  it.each(BUILTIN_TOOLS.map((t) => [t.name, t] as const))(
    '%s never throws on a result with fields of the wrong type',
    (_n, tool) => {
      const wrong: JsonValue[] = [null, 7, -1.5, 'x', '', true, [], [null, 3, 'y'], {}, { a: { b: null } }];
      for (const sample of samples.get(tool.name) ?? []) {
        const fields = Object.keys(sample as Record<string, JsonValue>);
        for (const field of fields) {
          for (const value of wrong) {
            for (const args of [{}, { from: 5, to: [], query: {}, title: null, text: 3, operation: 'add' }]) {
              const broken = { ...(sample as Record<string, JsonValue>), [field]: value };
              const line = tool.summarize?.(broken, args as never);
              if (line === null || line === undefined) continue;
              expect(typeof line).toBe('string');
              expect(line.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
              expect(line).not.toMatch(/undefined|NaN|\[object Object\]|[\n\r]/);
            }
          }
        }
        // Nested lists of the wrong shape: every element broken at once.
        const nested = Object.fromEntries(
          Object.entries(sample as Record<string, JsonValue>).map(([k, v]) => [
            k,
            Array.isArray(v) ? [null, 1, 'z', {}] : v,
          ]),
        );
        const line = tool.summarize?.(nested, {} as never);
        if (typeof line === 'string') expect(line).not.toMatch(/undefined|NaN|\[object Object\]/);
      }
    },
  );
});
