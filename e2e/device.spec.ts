import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, newTaskAfterReply, sendMessage, test } from './fixtures/homebody.js';

interface StoredReminder {
  id: string;
  text: string;
  due: string;
  created: string;
  done: boolean;
  notified: boolean;
}

function reminder(id: string, text: string, dueInMs: number): StoredReminder {
  const now = new Date().toISOString();
  return { id, text, due: new Date(Date.now() + dueInMs).toISOString(), created: now, done: false, notified: false };
}

/** A data folder whose reminders file holds `reminders` (as the reminder tools write it). */
function dataDirWith(reminders: StoredReminder[]): { dataDir: string; file: string } {
  const dataDir = join(realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-device-'))), 'data');
  mkdirSync(join(dataDir, 'reminders'), { recursive: true });
  const file = join(dataDir, 'reminders', 'reminders.json');
  writeFileSync(file, JSON.stringify({ version: 1, reminders }));
  return { dataDir, file };
}

const stored = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { reminders: StoredReminder[] }).reminders.map((r) => [
    r.text,
    r.notified,
  ]);

test('reminders: one that fell due while closed shows at start, one due soon when it falls due, each once', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'the page bridge is browser mode; the desktop one has unit tests');
  const { dataDir, file } = dataDirWith([
    reminder('past01', 'Water the plants', -3_600_000),
    reminder('soon01', 'Stretch', 6_000),
  ]);
  const first = await homebody.launch({ dataDir });
  const toast = (text: string) => first.page.getByTestId('toast').filter({ hasText: text });

  // Homebody was closed when this one fell due: it shows as soon as the page connects, and is marked in the file.
  await expect(toast('Water the plants')).toBeVisible();
  await expect(toast('Water the plants').getByTestId('toast-title')).toHaveText('Reminder');
  await expect.poll(() => stored(file)[0]).toEqual(['Water the plants', true]);
  // The one due a few seconds after the start shows when it falls due, once (its notification and its event).
  await expect(toast('Stretch')).toBeVisible({ timeout: 30_000 });
  await expect(toast('Stretch')).toHaveCount(1);
  await expect
    .poll(() => stored(file))
    .toEqual([
      ['Water the plants', true],
      ['Stretch', true],
    ]);
  await toast('Stretch').getByTestId('toast-dismiss').click();
  await expect(toast('Stretch')).toHaveCount(0);
  await first.stop();

  // After a restart only a reminder not shown yet appears; the two shown before do not come back.
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: 1; reminders: StoredReminder[] };
  saved.reminders.push(reminder('past02', 'Call mum', -60_000));
  writeFileSync(file, JSON.stringify(saved));
  const second = await homebody.launch({ dataDir });
  await expect(second.page.getByTestId('toast').filter({ hasText: 'Call mum' })).toBeVisible();
  await expect(second.page.getByTestId('toast')).toHaveCount(1);
});

test('the assistant copies to the clipboard and opens an address through the page, after asking', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  const { dataDir } = dataDirWith([]);
  const script = join(dataDir, '..', 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      'copy the meeting room to my clipboard': [{ name: 'clipboard_write', params: '{"text": "Room 4, 10:30"}' }],
      'open the example site': [{ name: 'device_open', params: '{"target": "https://example.org/"}' }],
    }),
  );
  const { page, origin } = await homebody.launch({ model: E2E_MODEL, dataDir, script, maxTokens: 64 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await expect(page.getByTestId('chat')).toBeVisible();

  const card = page.locator('[data-testid="toolcall-card"][data-tool="clipboard_write"]').last();
  await sendMessage(page, 'copy the meeting room to my clipboard');
  // Each prompt is found in its own card: a random-weight model may open a call of its own beside the scripted one.
  await expect(card.getByTestId('permission-prompt')).toBeVisible();
  await expect(card).toContainText('Room 4, 10:30');
  await card.getByTestId('prompt-allow-once').click();
  await expect(card).toHaveAttribute('data-state', 'done');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Room 4, 10:30');

  // Opening asks in the chat with the exact address, then the page asks once more before the new tab opens.
  await newTaskAfterReply(page);
  await sendMessage(page, 'open the example site');
  const opener = page.locator('[data-testid="toolcall-card"][data-tool="device_open"]').last();
  await expect(opener.getByTestId('permission-prompt')).toBeVisible();
  await expect(opener).toContainText('https://example.org/');
  await opener.getByTestId('prompt-allow-once').click();
  await expect(page.getByTestId('device-open-target')).toHaveText('https://example.org/');
  const popup = page.context().waitForEvent('page');
  await page.getByTestId('device-open-confirm').click();
  expect((await popup).url()).toMatch(/^(https:\/\/example\.org\/|about:blank|chrome-error:)/);
  await expect(opener).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('device-open')).toHaveCount(0);
});
