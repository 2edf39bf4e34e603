import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, newTaskAfterReply, sendMessage, test } from './fixtures/homebody.js';

/** YYYY-MM-DD of a UTC date; `compact` drops the dashes, as iCalendar writes dates. */
function ymd(date: Date, compact = false): string {
  const text = date.toISOString().slice(0, 10);
  return compact ? text.replaceAll('-', '') : text;
}

/** The next Thursday after today (never today), and the Friday after it. */
function nextThursday(): { thursday: Date; friday: Date } {
  const thursday = new Date();
  thursday.setUTCHours(12, 0, 0, 0);
  do thursday.setUTCDate(thursday.getUTCDate() + 1);
  while (thursday.getUTCDay() !== 4);
  const friday = new Date(thursday);
  friday.setUTCDate(thursday.getUTCDate() + 1);
  return { thursday, friday };
}

/** The dentist as Apple Calendar exports it: 09:00 in Berlin, with its VTIMEZONE; and another day's event. */
function seedCalendar(thursday: Date): string {
  const day = ymd(thursday, true);
  const wednesday = new Date(thursday);
  wednesday.setUTCDate(thursday.getUTCDate() - 1);
  return [
    'BEGIN:VCALENDAR',
    'METHOD:PUBLISH',
    'VERSION:2.0',
    'PRODID:-//Apple Inc.//macOS 14.6.1//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'DTSTART:19810329T020000',
    'TZNAME:CEST',
    'TZOFFSETTO:+0200',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'DTSTART:19961027T030000',
    'TZNAME:CET',
    'TZOFFSETTO:+0100',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'UID:dentist-e2e',
    'DTSTAMP:20261110T091000Z',
    `DTSTART;TZID=Europe/Berlin:${day}T090000`,
    `DTEND;TZID=Europe/Berlin:${day}T100000`,
    'SUMMARY:Dentist',
    'LOCATION:Praxis Dr. Weber',
    'SEQUENCE:0',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:yoga-e2e',
    'DTSTAMP:20261110T091000Z',
    `DTSTART:${ymd(wednesday, true)}T180000Z`,
    `DTEND:${ymd(wednesday, true)}T190000Z`,
    'SUMMARY:Yoga',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/**
 * A new user's calendar task in the chat: "what do I have on Thursday?" and "move the dentist to Friday 10:00".
 * The generated model is pushed to make the calls a real model would (--script); the permission prompts, the
 * worker, the iCalendar file and undo are the app's own.
 */
test('a new user reads Thursday, moves the dentist to Friday 10:00 after a prompt, and undoes the move', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  // The first call starts the tool worker, which from sources compiles every pack (half a minute on a busy machine).
  test.setTimeout(480_000);
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-calendar-')));
  const dataDir = join(work, 'data');
  const calendarDir = join(dataDir, 'calendar');
  mkdirSync(calendarDir, { recursive: true });
  const { thursday, friday } = nextThursday();
  const file = join(calendarDir, 'Home.ics');
  const seeded = seedCalendar(thursday);
  writeFileSync(file, seeded);

  const json = JSON.stringify;
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    json({
      // Every parameter is given, in schema order: the scripted push cannot skip an optional one or close early.
      'what do I have on Thursday?': [
        { name: 'calendar_events', params: `{"from": ${json(ymd(thursday))}, "to": ${json(ymd(thursday))}}` },
      ],
      'move the dentist to Friday 10:00': [
        {
          name: 'calendar_move',
          params:
            `{"uid": "dentist-e2e", "start": ${json(`${ymd(friday)}T10:00`)}, ` +
            `"end": ${json(`${ymd(friday)}T11:00`)}, "occurrence": ${json(ymd(thursday))}}`,
        },
      ],
    }),
  );
  // The user's zone is London: the dentist's 09:00 in Berlin is 08:00 there.
  const { page } = await homebody.launch({
    model: E2E_MODEL,
    dataDir,
    script,
    maxTokens: 256,
    env: { TZ: 'Europe/London' },
  });
  await expect(page.getByTestId('chat')).toBeVisible();
  const card = (tool: string) => page.locator(`[data-testid="toolcall-card"][data-tool="${tool}"]`).last();

  // Reading the calendar asks first; allowed, the Thursday events are listed in London time.
  await sendMessage(page, 'what do I have on Thursday?');
  // A busy machine needs a while for the first reply's prompt (the tool definitions are evaluated once).
  await expect(page.getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await expect(card('calendar_events')).toContainText('Read your calendar');
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('calendar_events')).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  const listed = card('calendar_events').getByTestId('toolcall-result');
  await expect(listed).toContainText('Dentist');
  await expect(listed).toContainText(`${ymd(thursday)}T08:00`);
  await expect(listed).not.toContainText('Yoga');

  // Moving it is a write: it asks, says what it will do, and runs only once allowed.
  await newTaskAfterReply(page);
  await sendMessage(page, 'move the dentist to Friday 10:00');
  await expect(page.getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await expect(card('calendar_move')).toContainText('Move a calendar event');
  await expect(card('calendar_move')).toContainText(`${ymd(friday)}T10:00`);
  expect(readFileSync(file, 'utf8')).toBe(seeded);
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('calendar_move')).toHaveAttribute('data-state', 'done');
  await expect(card('calendar_move').getByTestId('toolcall-result')).toContainText(`${ymd(friday)}T10:00`);
  // Written back in the event's own zone: 10:00 in London is 11:00 in Berlin.
  expect(readFileSync(file, 'utf8')).toContain(`DTSTART;TZID=Europe/Berlin:${ymd(friday, true)}T110000`);

  // Undo puts the file back as it was.
  await card('calendar_move').getByTestId('toolcall-undo').click();
  await expect(card('calendar_move').getByTestId('toolcall-undone')).toBeVisible();
  expect(readFileSync(file, 'utf8')).toBe(seeded);
});
