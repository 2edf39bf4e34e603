import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, newTaskAfterReply, sendMessage, test } from './fixtures/homebody.js';

const ANA = [
  'BEGIN:VCARD',
  'VERSION:3.0',
  'PRODID:-//Apple Inc.//macOS 14.6.1//EN',
  'N:Sousa;Ana;;;',
  'FN:Ana Sousa',
  'EMAIL;type=INTERNET;type=HOME;type=pref:ana@example.org',
  'TEL;type=CELL;type=VOICE;type=pref:+351 912 345 678',
  'END:VCARD',
  '',
].join('\r\n');

/**
 * A new user's everyday tasks in the chat, one per pack not covered by its own spec: looking up a contact (a read,
 * asked once), writing a note (a write: asked, then undone), and a calculation. The generated model is pushed to make
 * the calls a real model would (--script); prompts, the worker, the files and undo are the app's own.
 */
test('looks up Ana, writes a shopping note and undoes it, and computes a tip', async ({ homebody }) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  test.setTimeout(480_000);
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-everyday-')));
  const dataDir = join(work, 'data');
  mkdirSync(join(dataDir, 'contacts'), { recursive: true });
  writeFileSync(join(dataDir, 'contacts', 'ana.vcf'), ANA);
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      "what is Ana's phone number?": [{ name: 'contact_find', params: '{"query": "Ana"}' }],
      'add milk and eggs to my shopping list': [
        { name: 'note_write', params: '{"title": "Shopping list", "text": "- milk\\n- eggs"}' },
      ],
      'what is 15% of 64.80?': [{ name: 'calculate', params: '{"expression": "15% of 64.80"}' }],
    }),
  );
  const { page } = await homebody.launch({ model: E2E_MODEL, dataDir, script, maxTokens: 256 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const card = (tool: string) => page.locator(`[data-testid="toolcall-card"][data-tool="${tool}"]`).last();

  await sendMessage(page, "what is Ana's phone number?");
  await expect(page.getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await expect(card('contact_find')).toContainText('Look up your contacts');
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('contact_find')).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  await expect(card('contact_find').getByTestId('toolcall-result')).toContainText('+351 912 345 678');

  await newTaskAfterReply(page);
  await sendMessage(page, 'add milk and eggs to my shopping list');
  await expect(page.getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await expect(card('note_write')).toContainText('Write a note');
  await expect(card('note_write')).toContainText('Shopping list');
  const notes = join(dataDir, 'notes');
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('note_write')).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  const files = readdirSync(notes).filter((name) => name.endsWith('.md'));
  expect(files).toHaveLength(1);
  const file = join(notes, files[0]!);
  expect(readFileSync(file, 'utf8')).toContain('- milk\n- eggs');
  await card('note_write').getByTestId('toolcall-undo').click();
  await expect(card('note_write').getByTestId('toolcall-undone')).toBeVisible();
  expect(existsSync(file)).toBe(false);

  await newTaskAfterReply(page);
  await sendMessage(page, 'what is 15% of 64.80?');
  await expect(page.getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('calculate')).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  await expect(card('calculate').getByTestId('toolcall-result')).toContainText('9.72');
});
