import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, E2E_MODEL, REPO_ROOT, NODE } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

/** Runs the homebody CLI against a data folder and returns what it printed. */
function cli(dataDir: string, ...args: string[]): string {
  return execFileSync(NODE, [CLI, ...args, '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOMEBODY_GPU: 'cpu' },
  });
}

test('settings grant a folder and change a mode; the audit log records it; nothing waits', async ({ homebody }) => {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-grant-')));
  const { page } = await homebody.launch();

  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
  await page.getByTestId('folder-path-input').fill(folder);
  await page.getByTestId('folder-grant-button').click();
  await expect(page.getByTestId('folder-item').filter({ hasText: folder })).toHaveCount(1);
  await expect(page.getByTestId('settings-error')).toHaveCount(0);

  // Granting the whole disk asks a second time, saying what it reaches; cancelled, nothing is granted.
  await page.getByTestId('folder-path-input').fill('/');
  await page.getByTestId('folder-grant-button').click();
  await expect(page.getByTestId('broad-confirm')).toBeVisible();
  await expect(page.getByTestId('broad-warning')).toContainText('whole disk');
  await expect(page.getByTestId('settings-error')).toHaveCount(0);
  await page.getByTestId('broad-cancel').click();
  await expect(page.getByTestId('broad-confirm')).toHaveCount(0);
  await expect(page.getByTestId('folder-item')).toHaveCount(1);

  const mode = page.locator('[data-testid="tool-mode"][data-tool="list_folder"]');
  await expect(mode).toHaveValue('ask');
  await mode.selectOption('auto');
  await expect(mode).toHaveValue('auto');
  await expect(mode).toBeEnabled();
  await mode.selectOption('ask');
  await expect(mode).toHaveValue('ask');

  // Irreversible tools can never run alone.
  const irreversible = page.locator('[data-testid="tool-mode"][data-tool="delete_permanently"] option[value="auto"]');
  await expect(irreversible).toBeDisabled();

  await page.getByTestId('policy-export').click();
  await expect(page.getByTestId('policy-json')).toHaveValue(
    new RegExp(`"path": "${folder.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`),
  );
  await expect(page.getByTestId('policy-download')).toHaveAttribute('href', /^blob:/);

  await page.getByTestId('nav-audit').click();
  await expect(page.getByTestId('audit-page')).toBeVisible();
  // grant, auto, ask: three policy changes, newest first.
  await expect(page.locator('[data-testid="audit-row"][data-kind="policy-changed"]')).toHaveCount(3);

  await page.getByTestId('nav-approvals').click();
  await expect(page.getByTestId('approvals-page')).toContainText('Nothing waits');
  await expect(page.getByTestId('approvals-badge')).toHaveCount(0);
});

test('a call queued from the command line is approved in the app and runs', async ({ homebody }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-e2e-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-queue-')));
  const file = join(folder, 'doomed.txt');
  writeFileSync(file, 'delete me');
  cli(dataDir, 'policy', 'grant', folder);
  const queued = JSON.parse(
    cli(dataDir, 'tools', 'call', 'delete_permanently', JSON.stringify({ path: file }), '--json'),
  ) as {
    status: string;
    approvalId?: string;
  };
  expect(queued.status).toBe('queued');

  const { page } = await homebody.launch({ dataDir });
  await expect(page.getByTestId('approvals-badge')).toHaveText('1');
  await page.getByTestId('nav-approvals').click();
  const item = page.getByTestId('approval-item');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-call-id', queued.approvalId ?? '');
  await expect(item).toContainText(file);
  expect(existsSync(file)).toBe(true);

  await item.getByTestId('approval-approve').click();
  await expect(item).toHaveCount(0);
  await expect(page.getByTestId('approvals-badge')).toHaveCount(0);
  await expect.poll(() => existsSync(file)).toBe(false);
  await expect(page.getByTestId('approvals-page')).toContainText('Nothing waits');
});

test('queued calls: edited arguments are checked, and several are denied at once', async ({ homebody }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-e2e-'));
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-queue-')));
  const files = ['a.txt', 'b.txt', 'c.txt'].map((name) => join(folder, name));
  for (const file of files) writeFileSync(file, 'keep me');
  cli(dataDir, 'policy', 'grant', folder);
  for (const file of files)
    cli(dataDir, 'tools', 'call', 'delete_permanently', JSON.stringify({ path: file }), '--json');

  const { page } = await homebody.launch({ dataDir });
  await expect(page.getByTestId('approvals-badge')).toHaveText('3');
  await page.getByTestId('nav-approvals').click();
  const items = page.getByTestId('approval-item');
  await expect(items).toHaveCount(3);

  // Invalid JSON is caught before anything is sent; the Host's own check is shown in place.
  const first = items.first();
  await first.getByTestId('approval-edit').click();
  const args = first.getByTestId('approval-args');
  await expect(args).toHaveValue(/"path"/);
  await args.fill('{"path": ');
  await first.getByTestId('approval-edit').click();
  await expect(first.getByTestId('approval-error')).toContainText('not valid JSON');
  await args.fill('{"path": 5}');
  await first.getByTestId('approval-edit').click();
  await expect(first.getByTestId('approval-error')).toContainText('Invalid arguments');
  await expect(items).toHaveCount(3);

  // Deny two at once; the third stays.
  await items.nth(1).getByTestId('approval-select').check();
  await items.nth(2).getByTestId('approval-select').check();
  await page.getByTestId('approvals-deny-selected').click();
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('approvals-badge')).toHaveText('1');
  for (const file of files) expect(existsSync(file)).toBe(true);

  // The audit log shows the denials.
  await page.getByTestId('nav-audit').click();
  await expect(
    page
      .getByTestId('audit-row')
      .filter({ hasText: /denied/i })
      .first(),
  ).toBeVisible();
});

test('importing a file that is not a policy shows the error in place', async ({ homebody }) => {
  const { page } = await homebody.launch();
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('policy-import').setInputFiles({
    name: 'policy.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{not json'),
  });
  await expect(page.getByTestId('settings-error')).toContainText('not valid JSON');
  await page.getByTestId('policy-import').setInputFiles({
    name: 'policy.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ version: 1, tools: { delete_permanently: 'auto' }, folders: [] })),
  });
  await expect(page.getByTestId('settings-error')).toBeVisible();
  await expect(page.locator('[data-testid="tool-mode"][data-tool="delete_permanently"]')).toHaveValue('queue');
});

test("a task's tool calls show in its timeline, and a file it wrote can be undone", async ({ homebody }) => {
  const first = await homebody.launch({ model: E2E_MODEL, maxTokens: 8 });
  await sendMessage(first.page, 'Write a note for me');
  await expect(first.page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', 'truncated');
  const taskId = await first.page.getByTestId('task-item').first().getAttribute('data-task-id');
  expect(taskId).toBeTruthy();
  await first.stop();

  // The command line runs calls in that task: one by policy, one that needed a prompt no one could answer.
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'hb-e2e-task-')));
  const note = join(folder, 'note.txt');
  cli(first.dataDir, 'policy', 'grant', folder);
  cli(first.dataDir, 'policy', 'set', 'write_text', 'auto');
  const args = JSON.stringify({ path: note, content: 'hello', overwrite: false });
  cli(first.dataDir, 'tools', 'call', 'write_text', args, '--task', taskId ?? '', '--json');
  try {
    cli(first.dataDir, 'tools', 'call', 'list_folder', JSON.stringify({ path: folder }), '--task', taskId ?? '');
  } catch {
    // needs-permission: exit code 1, the call is recorded as expired.
  }
  expect(existsSync(note)).toBe(true);

  const { page } = await homebody.launch({ dataDir: first.dataDir });
  await page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`).click();
  const written = page.locator('[data-testid="toolcall-card"][data-tool="write_text"]');
  await expect(written).toHaveAttribute('data-state', 'done');
  await expect(written).toHaveAttribute('data-gate', 'none');
  await expect(written).toContainText(note);
  await expect(written).toContainText('Done');
  const expired = page.locator('[data-testid="toolcall-card"][data-tool="list_folder"]');
  await expect(expired).toHaveAttribute('data-state', 'expired');
  await expect(expired).toContainText('Not run: no answer');
  await expect(page.getByTestId('permission-prompt')).toHaveCount(0);

  // The timeline puts the calls after the messages that came before them.
  const order = await page
    .locator('.message-list > li')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-testid')));
  expect(order).toEqual(['message-user', 'message-assistant', 'toolcall-card', 'toolcall-card']);

  await written.getByTestId('toolcall-undo').click();
  await expect(written.getByTestId('toolcall-undone')).toBeVisible();
  await expect(written.getByTestId('toolcall-undo')).toHaveCount(0);
  await expect.poll(() => existsSync(note)).toBe(false);
});
