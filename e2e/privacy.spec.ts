import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { CatalogEntry } from '../src-shared/contract/index.js';
import { TOKEN_HEADER } from '../src-shared/contract/index.js';
import { expect, sendMessage, test, type RunningApp } from './fixtures/homebody.js';
import { E2E_MODEL } from './fixtures/paths.js';

/**
 * The Privacy page as a new user meets it: offline mode on by default, a session that uses the app (a chat, a tool
 * call approved, the history) leaves no allowed connection in the ledger; a model download from the catalog is
 * blocked and listed, and "Allow <host>" on its row adds the rule. "Delete all my data" behind its typed
 * confirmation empties the chat list and the history, shrinks what is stored, and a new chat works right after.
 */

const REMOTE_HOST = 'models.example.org';
const NOTE_PROMPT = 'write in my Groceries note: oat milk';

function remoteCatalog(): string {
  const entry: CatalogEntry = {
    id: 'remote-q8',
    family: 'E2E remote',
    name: 'Remote test model',
    quantization: 'Q8_0',
    sizeBytes: 1_000_000,
    sha256: 'a'.repeat(64),
    licence: 'Apache-2.0 (test model)',
    suits: 'A model on a server the network rules do not allow.',
    uri: `https://${REMOTE_HOST}/remote-q8.gguf`,
    uriConfirmed: true,
    card: 'https://example.invalid/remote',
    baseId: null,
  };
  const file = join(mkdtempSync(join(tmpdir(), 'hb-e2e-privacy-catalog-')), 'catalog.json');
  writeFileSync(file, JSON.stringify({ version: 1, models: [entry] }, null, 2));
  return file;
}

function noteScript(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'hb-e2e-privacy-')), 'script.json');
  writeFileSync(
    file,
    JSON.stringify({ [NOTE_PROMPT]: [{ name: 'note_write', params: '{"title": "Groceries", "text": "oat milk"}' }] }),
  );
  return file;
}

async function openPrivacy(page: Page): Promise<void> {
  await page.getByTestId('nav-privacy').click();
  await expect(page.getByTestId('privacy-page')).toBeVisible();
  await expect(page.getByTestId('ledger-count')).toBeVisible();
}

async function callHost(app: RunningApp, method: string, request: unknown): Promise<unknown> {
  const token = new URL(app.url).searchParams.get('token') ?? '';
  const response = await app.page.request.post(`${app.origin}/api/${method}`, {
    headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
    data: request,
  });
  return response.json();
}

test('with offline mode on, using the app connects nowhere; a blocked download is listed and can be allowed', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  const app = await homebody.launch({
    model: E2E_MODEL,
    script: noteScript(),
    maxTokens: 96,
    env: { HOMEBODY_CATALOG: remoteCatalog() },
  });
  const { page } = app;
  await expect(page.getByTestId('chat')).toBeVisible();

  // A chat with a tool call approved, then the history.
  await sendMessage(page, NOTE_PROMPT);
  await expect(page.getByTestId('permission-prompt')).toBeVisible();
  await page.getByTestId('prompt-allow-once').click();
  const card = page.locator('[data-testid="toolcall-card"][data-tool="note_write"]').last();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);

  // Offline is the default, and nothing so far tried to leave the machine.
  await openPrivacy(page);
  await expect(page.getByTestId('privacy-offline')).toBeChecked();
  await expect(page.getByTestId('network-rules-empty')).toBeVisible();
  await expect(page.getByTestId('ledger-row')).toHaveCount(0);
  await expect(page.getByTestId('ledger-empty')).toHaveText(
    'No connection attempted yet: Homebody has not tried to reach the network.',
  );

  // Something that needs the network: a model download from the catalog. It says offline mode refused it, and
  // offers the Privacy page, where that host can be allowed.
  await page.getByTestId('nav-models').click();
  const catalogCard = page.locator('[data-testid="catalog-card"][data-catalog-id="remote-q8"]');
  await catalogCard.getByTestId('catalog-download').click();
  const refusal = catalogCard.getByTestId('catalog-action-error');
  await expect(refusal).toHaveAttribute('data-error-code', 'NETWORK_BLOCKED');
  await expect(refusal).toContainText(`Offline mode is on: Homebody did not connect to ${REMOTE_HOST}`);
  await refusal.getByTestId('open-privacy').click();
  await expect(page.getByTestId('nav-privacy')).toHaveAttribute('aria-current', 'page');
  const blocked = page.locator(`[data-testid="ledger-row"][data-host="${REMOTE_HOST}"]`).first();
  await expect(blocked).toHaveAttribute('data-allowed', 'false');
  await expect(blocked).toHaveAttribute('data-feature', 'model-download');
  await expect(blocked.getByTestId('ledger-result')).toHaveText('Blocked');
  await expect(page.locator('[data-testid="ledger-row"][data-allowed="true"]')).toHaveCount(0);
  await expect(page.getByTestId('ledger-count')).toContainText(/connections? attempted, 0 allowed/);

  // No allowed connection, through the page's filter and through the API.
  await page.getByTestId('ledger-allowed-only').check();
  await expect(page.getByTestId('ledger-count')).toHaveText('0 allowed connections');
  await expect(page.getByTestId('ledger-row')).toHaveCount(0);
  expect(await callHost(app, 'privacy.ledger', { allowedOnly: true })).toEqual({
    ok: true,
    value: { events: [], total: 0, allowedCount: 0 },
  });
  await page.getByTestId('ledger-allowed-only').uncheck();

  // The "Allow a host" form says what is wrong next to the field.
  await page.getByTestId('allow-host-host').fill('mail.example.org:465');
  await page.getByTestId('allow-host-host').press('Enter');
  await expect(page.getByTestId('allow-host-problem')).toContainText('is not a host');
  await expect(page.getByTestId('allow-host-host')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('allow-host-host')).toBeFocused();

  // "Allow <host> for <feature>" on the blocked row adds the rule, shown in the Network section.
  const allow = blocked.getByTestId('ledger-allow');
  await expect(allow).toHaveText(`Allow ${REMOTE_HOST} for Model downloads`);
  await allow.click();
  await expect(
    page.locator(`[data-testid="network-rule"][data-feature="model-download"][data-host="${REMOTE_HOST}"]`),
  ).toBeVisible();
  await expect(blocked.getByTestId('ledger-rule-exists')).toBeVisible();
  await expect(page.getByTestId('privacy-offline')).toBeChecked();
  expect(await callHost(app, 'privacy.network', {})).toMatchObject({
    ok: true,
    value: { offline: true, rules: [{ feature: 'model-download', host: REMOTE_HOST }] },
  });
});

test('"Delete all my data" empties the chats and the history, shrinks what is stored, and a new chat works', async ({
  homebody,
}) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, maxTokens: 12 });
  await expect(page.getByTestId('chat')).toBeVisible();
  await sendMessage(page, 'The ferry code is 5512');
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', /complete|truncated/);
  await expect(page.getByTestId('task-item')).toHaveCount(1);

  await openPrivacy(page);
  const total = page.getByTestId('storage-total');
  await expect(page.locator('[data-testid="storage-item"][data-item-id="database"]')).toBeVisible();
  const before = Number(await total.getAttribute('data-bytes'));
  expect(before).toBeGreaterThan(0);

  // The dialog: focus in the confirmation field, Escape closes it, the button waits for the exact words.
  await page.getByTestId('delete-all-data').click();
  const dialog = page.getByTestId('delete-all-dialog');
  await expect(page.getByTestId('delete-confirm-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByTestId('delete-all-data').click();
  const ok = page.getByTestId('delete-confirm-ok');
  await expect(ok).toBeDisabled();
  await page.getByTestId('delete-confirm-input').fill('delete my dat');
  await expect(ok).toBeDisabled();
  await page.getByTestId('delete-confirm-input').fill('delete my data');
  await expect(page.getByTestId('delete-include-models')).not.toBeChecked();
  await page.getByTestId('delete-confirm-input').press('Enter');

  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('delete-all-status')).toContainText('History database');
  await expect(page.getByTestId('task-item')).toHaveCount(0);
  await expect.poll(async () => Number(await total.getAttribute('data-bytes'))).toBeLessThan(before);
  await expect(page.getByTestId('ledger-empty')).toBeVisible();

  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-empty')).toBeVisible();

  await page.getByTestId('nav-chat').click();
  await sendMessage(page, 'Hello again');
  await expect(page.getByTestId('task-item')).toHaveCount(1);
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', /complete|truncated/);
});
