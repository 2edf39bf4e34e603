import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, E2E_MODEL, REPO_ROOT, NODE } from './fixtures/paths.js';
import { expect, newTaskAfterReply, sendMessage, test } from './fixtures/homebody.js';

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
  const outside = join(work, 'private');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'outside secret');
  const dataDir = join(work, 'data');
  for (const folder of [reports, archive]) {
    execFileSync(NODE, [CLI, 'policy', 'grant', folder, '--data-dir', dataDir], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  const json = JSON.stringify;
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    json({
      "what's in my Reports folder?": [{ name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` }],
      'rename draft.txt to final.txt': [
        // Relative paths, as a model writes them: the prompt names the absolute files.
        { name: 'move', params: `{"from": "draft.txt", "to": "final.txt"}` },
      ],
      'read my private secret': [
        // The grammar writes every property, so the script gives maxBytes too.
        { name: 'read_text', params: `{"path": ${json(join(outside, 'secret.txt'))}, "maxBytes": 4096}` },
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

  // 1. A read asks first; the reply ends there and the task waits for the user (the prompt keeps the focus, so
  // Enter allows it once); answered, the task goes on.
  await sendMessage(page, "what's in my Reports folder?");
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await expect(card('list_folder')).toContainText(reports);
  await expect(page.locator('[data-testid="task-item"][aria-current="true"]')).toContainText('Waiting for you');
  await expect(page.getByTestId('stop-button')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(card('list_folder')).toHaveAttribute('data-state', 'done');
  await expect(card('list_folder')).toContainText('draft.txt');

  // 2. A reversible write asks too, naming the absolute files and their granted folder. No button has focus, so a
  // stray Enter allows nothing; allowed with a click, it runs, and Undo puts the file back.
  await newTaskAfterReply(page);
  await sendMessage(page, 'rename draft.txt to final.txt');
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await expect(card('move')).toContainText(join(reports, 'draft.txt'));
  await expect(card('move')).toContainText(join(reports, 'final.txt'));
  await expect(card('move').locator('.toolcall-detail', { hasText: 'In granted folder' })).toContainText(reports);
  await expect(page.getByTestId('permission-prompt')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('prompt-allow-once')).toBeFocused();
  await expect(card('move')).toHaveAttribute('data-state', 'pending');
  await page.getByTestId('prompt-allow-once').click();
  await expect(card('move')).toHaveAttribute('data-state', 'done');
  expect(readFileSync(join(reports, 'final.txt'), 'utf8')).toBe('the draft');
  await card('move').getByTestId('toolcall-undo').click();
  await expect(card('move').getByTestId('toolcall-undone')).toBeVisible();
  expect(readFileSync(join(reports, 'draft.txt'), 'utf8')).toBe('the draft');
  expect(existsSync(join(reports, 'final.txt'))).toBe(false);

  // A path outside every granted folder is refused before anyone is asked, with the reason in the chat.
  await newTaskAfterReply(page);
  await sendMessage(page, 'read my private secret');
  await expect(card('read_text')).toHaveAttribute('data-state', 'rejected', { timeout: 120_000 });
  await expect(card('read_text')).toContainText('outside the folders you may use');
  await expect(page.getByTestId('permission-prompt')).toHaveCount(0);
  await expect(card('read_text')).not.toContainText('outside secret');

  // 3. Esc denies: nothing moves.
  await newTaskAfterReply(page);
  await sendMessage(page, 'move the old invoices to Archive');
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card('move')).toHaveAttribute('data-state', 'denied');
  expect(existsSync(join(reports, 'invoice-2023.pdf'))).toBe(true);

  // 4. A permanent delete never runs from the chat: it waits in the queue until approved there.
  await newTaskAfterReply(page);
  await sendMessage(page, 'delete tmp.log for good');
  await expect(card('delete_permanently')).toHaveAttribute('data-gate', 'queue');
  await expect(page.getByTestId('permission-prompt')).toHaveCount(0);
  await expect(page.getByTestId('approvals-badge')).toHaveText('1');
  expect(existsSync(join(reports, 'tmp.log'))).toBe(true);
  await page.getByTestId('nav-approvals').click();
  await page.getByTestId('approval-item').getByTestId('approval-approve').click();
  await expect(page.getByTestId('approval-item')).toHaveCount(0);
  // The card leaves the queue once approved; the worker deletes the file right after.
  await expect.poll(() => existsSync(join(reports, 'tmp.log'))).toBe(false);

  // Every proposal, decision and execution is in the audit log.
  await page.getByTestId('nav-audit').click();
  for (const kind of ['proposed', 'decided', 'started', 'finished', 'queued', 'undone', 'rejected']) {
    await expect(page.locator(`[data-testid="audit-row"][data-kind="${kind}"]`).first()).toBeVisible();
  }
  // Who allowed the delete, and why, with the file it touched; the row leads to its task.
  const approval = page.locator('[data-testid="audit-row"][data-kind="decided"]', { hasText: 'Approved' }).first();
  await expect(approval.getByTestId('audit-basis')).toHaveAttribute('data-basis', 'user');
  await expect(approval.getByTestId('audit-paths')).toContainText(join(reports, 'tmp.log'));
  await approval.getByTestId('audit-open-task').click();
  await expect(page.getByTestId('chat')).toBeVisible();
  await expect(card('delete_permanently')).toHaveAttribute('data-state', 'done');
});
