import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, E2E_MODEL, REPO_ROOT, TSX } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

/**
 * The four requests of "acting safely", as a user makes them in the chat. The generated model is pushed to
 * make the calls a real model would (--script); the prompts, the queue, the sandbox and undo are the app's own.
 */
test('read, rename, move and delete: prompts in the chat, the queue for the delete, undo, and the audit log', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-acting-')));
  const reports = join(work, 'Reports');
  const archive = join(work, 'Archive');
  mkdirSync(reports);
  mkdirSync(archive);
  writeFileSync(join(reports, 'draft.txt'), 'the draft');
  writeFileSync(join(reports, 'tmp.log'), 'log lines');
  writeFileSync(join(reports, 'invoice-2023.pdf'), 'old invoice');
  const dataDir = join(work, 'data');
  for (const folder of [reports, archive]) {
    execFileSync(TSX, [CLI, 'policy', 'grant', folder, '--data-dir', dataDir], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  const json = JSON.stringify;
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    json({
      "what's in my Reports folder?": [{ name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` }],
      'rename draft.txt to final.txt': [
        {
          name: 'move',
          params: `{"from": ${json(join(reports, 'draft.txt'))}, "to": ${json(join(reports, 'final.txt'))}}`,
        },
      ],
      'move the old invoices to Archive': [
        {
          name: 'move',
          params: `{"from": ${json(join(reports, 'invoice-2023.pdf'))}, "to": ${json(join(archive, 'invoice-2023.pdf'))}}`,
        },
      ],
      'delete tmp.log for good': [
        { name: 'delete_permanently', params: `{"path": ${json(join(reports, 'tmp.log'))}, "recursive": false}` },
      ],
    }),
  );
  const { page } = await homebody.launch({ model: E2E_MODEL, dataDir, script, maxTokens: 256 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const card = (tool: string) => page.locator(`[data-testid="toolcall-card"][data-tool="${tool}"]`).last();

  // 1. A read asks first; Enter allows it once.
  await sendMessage(page, "what's in my Reports folder?");
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await expect(card('list_folder')).toContainText(reports);
  await page.keyboard.press('Enter');
  await expect(card('list_folder')).toHaveAttribute('data-state', 'done');
  await expect(card('list_folder')).toContainText('draft.txt');

  // 2. A reversible write asks too; allowed, it runs, and Undo puts the file back.
  await page.getByTestId('new-task-button').click();
  await sendMessage(page, 'rename draft.txt to final.txt');
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('move')).toHaveAttribute('data-state', 'done');
  expect(readFileSync(join(reports, 'final.txt'), 'utf8')).toBe('the draft');
  await card('move').getByTestId('toolcall-undo').click();
  await expect(card('move').getByTestId('toolcall-undone')).toBeVisible();
  expect(readFileSync(join(reports, 'draft.txt'), 'utf8')).toBe('the draft');
  expect(existsSync(join(reports, 'final.txt'))).toBe(false);

  // 3. Esc denies: nothing moves.
  await page.getByTestId('new-task-button').click();
  await sendMessage(page, 'move the old invoices to Archive');
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card('move')).toHaveAttribute('data-state', 'denied');
  expect(existsSync(join(reports, 'invoice-2023.pdf'))).toBe(true);

  // 4. A permanent delete never runs from the chat: it waits in the queue until approved there.
  await page.getByTestId('new-task-button').click();
  await sendMessage(page, 'delete tmp.log for good');
  await expect(card('delete_permanently')).toHaveAttribute('data-gate', 'queue');
  await expect(page.getByTestId('permission-prompt')).toHaveCount(0);
  await expect(page.getByTestId('approvals-badge')).toHaveText('1');
  expect(existsSync(join(reports, 'tmp.log'))).toBe(true);
  await page.getByTestId('nav-approvals').click();
  await page.getByTestId('approval-item').getByTestId('approval-approve').click();
  await expect(page.getByTestId('approval-item')).toHaveCount(0);
  expect(existsSync(join(reports, 'tmp.log'))).toBe(false);

  // Every proposal, decision and execution is in the audit log.
  await page.getByTestId('nav-audit').click();
  for (const kind of ['proposed', 'decided', 'started', 'finished', 'queued', 'undone']) {
    await expect(page.locator(`[data-testid="audit-row"][data-kind="${kind}"]`).first()).toBeVisible();
  }
});
