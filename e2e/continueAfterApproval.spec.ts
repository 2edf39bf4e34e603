import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, E2E_MODEL, REPO_ROOT, NODE } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

/**
 * A two-step request whose first step waits in the approval queue: one approval, and the task finishes by itself.
 * The task goes on in the chat (the model is told the delete was done, and lists the folder, asking first), with
 * no message from the user in between.
 */
test('a two-step request finishes after one approval in the queue, with no message in between', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-continue-')));
  const reports = join(work, 'Reports');
  mkdirSync(reports);
  writeFileSync(join(reports, 'draft.txt'), 'the draft');
  writeFileSync(join(reports, 'tmp.log'), 'log lines');
  const dataDir = join(work, 'data');
  execFileSync(NODE, [CLI, 'policy', 'grant', reports, '--data-dir', dataDir], { cwd: REPO_ROOT, stdio: 'ignore' });
  const json = JSON.stringify;
  const request = "delete tmp.log for good, then tell me what's left in Reports";
  const script = join(work, 'script.json');
  writeFileSync(
    script,
    json({
      [request]: [
        { name: 'delete_permanently', params: `{"path": ${json(join(reports, 'tmp.log'))}, "recursive": false}` },
      ],
      // What the task is told once the user decided (Homebody's words, then the request): the second step.
      [`*Go on with their request (${json(request)})*`]: [
        { name: 'list_folder', params: `{"path": ${json(reports)}, "limit": 50}` },
      ],
    }),
  );
  const { page } = await homebody.launch({ model: E2E_MODEL, dataDir, script, maxTokens: 256 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const card = (tool: string) => page.locator(`[data-testid="toolcall-card"][data-tool="${tool}"]`).last();

  await sendMessage(page, request);
  await expect(card('delete_permanently')).toHaveAttribute('data-gate', 'queue', { timeout: 120_000 });
  await expect(page.getByTestId('approvals-badge')).toHaveText('1');
  await expect(page.getByTestId('stop-button')).toBeHidden({ timeout: 150_000 });

  await page.getByTestId('nav-approvals').click();
  await page.getByTestId('approval-item').getByTestId('approval-approve').click();
  await expect(page.getByTestId('approval-item')).toHaveCount(0);
  await expect.poll(() => existsSync(join(reports, 'tmp.log'))).toBe(false);

  // Back in the task: it went on by itself, and its second step asks before reading the folder.
  await page.getByTestId('nav-chat').click();
  await expect(card('list_folder').getByTestId('permission-prompt')).toBeVisible({ timeout: 120_000 });
  await card('list_folder').getByTestId('prompt-allow-once').click();
  await expect(card('list_folder')).toHaveAttribute('data-state', 'done', { timeout: 150_000 });
  const listed = card('list_folder').getByTestId('toolcall-result');
  await expect(listed).toContainText('draft.txt');
  await expect(listed).not.toContainText('tmp.log');
  await expect(page.getByTestId('stop-button')).toBeHidden({ timeout: 150_000 });
  // One message from the user; the rest is the assistant's.
  await expect(page.getByTestId('message-user')).toHaveCount(1);
  await expect(card('delete_permanently')).toHaveAttribute('data-state', 'done');
});
