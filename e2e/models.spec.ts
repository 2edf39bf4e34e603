import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { CatalogEntry } from '../src-shared/contract/index.js';
import { expect, sendMessage, test, type LaunchOptions } from './fixtures/homebody.js';
import { partialBytesOnDisk, partialPathOf } from '../src-main/llm/download/partialFile.js';
import { ModelServer } from './fixtures/modelServer.js';
import { E2E_MODEL } from './fixtures/paths.js';

/**
 * The Models page as a new user meets it: a catalog served by a local HTTP server started here (node:http on
 * 127.0.0.1 with Range support, serving the generated test model), downloads that are watched, cut, paused,
 * resumed (also after a restart) and checked, a model added from disk, the active model switched while a task is
 * open, and a model deleted. The server holds or cuts a transfer at a byte count, so every wait is on the UI.
 */

const MODEL_SIZE = statSync(E2E_MODEL).size;
const MODEL_SHA256 = createHash('sha256').update(readFileSync(E2E_MODEL)).digest('hex');
const WRONG_SHA256 = 'f'.repeat(64);
const HALF = Math.floor(MODEL_SIZE / 2);
/** The size as the page words it ("26.9 MB"). */
const SIZE_TEXT = `${(MODEL_SIZE / 1e6).toFixed(1)} MB`;

// In order, in one worker: the pause and resume tests measure what a transfer fetched (see playwright.config.ts).
test.describe.configure({ mode: 'default' });

let server: ModelServer;
test.beforeAll(async () => {
  server = await ModelServer.start(E2E_MODEL);
});
test.afterAll(async () => {
  await server.close();
});

function entry(id: string, name: string, file: string, overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    family: 'E2E tiny',
    name,
    quantization: 'Q8_0',
    sizeBytes: MODEL_SIZE,
    sha256: MODEL_SHA256,
    licence: 'Apache-2.0 (test model)',
    suits: 'End-to-end tests: random weights, replies are noise.',
    uri: server.url(file),
    uriConfirmed: true,
    card: 'https://example.invalid/e2e-tiny',
    baseId: null,
    ...overrides,
  };
}

/**
 * Writes a catalog of the given entries and the launch options that make Homebody read it, with the one network
 * rule its downloads need: model downloads may reach the loopback model server (offline mode stays on).
 */
function catalogLaunch(entries: CatalogEntry[], extra: LaunchOptions = {}): LaunchOptions {
  const dir = mkdtempSync(join(tmpdir(), 'hb-e2e-catalog-'));
  const file = join(dir, 'catalog.json');
  writeFileSync(file, JSON.stringify({ version: 1, models: entries }, null, 2));
  return {
    allow: [{ feature: 'model-download', host: '127.0.0.1' }],
    ...extra,
    env: { HOMEBODY_CATALOG: file, ...extra.env },
  };
}

async function openModelsPage(page: Page): Promise<void> {
  await page.getByTestId('nav-models').click();
  await expect(page.getByTestId('models-page')).toBeVisible();
  // The listing has loaded once the add form shows.
  await expect(page.getByTestId('add-model-path')).toBeVisible();
}

const card = (page: Page, id: string) => page.locator(`[data-testid="catalog-card"][data-catalog-id="${id}"]`);
const localModels = (page: Page) => page.getByTestId('local-model');

/** The progress bar's percentage, once it shows a value strictly between 0 and 100. */
async function expectPartway(bar: Locator): Promise<void> {
  await expect
    .poll(async () => Number((await bar.getAttribute('aria-valuenow')) ?? 'NaN'), { message: 'download progress' })
    .toBeGreaterThan(0);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
}

test('a catalog model downloads with visible progress, is verified, used in the chat, then deleted', async ({
  homebody,
}) => {
  const good = entry('e2e-good', 'E2E Tiny Good', '/good.gguf');
  const hold = server.holdNextAt('/good.gguf', HALF);
  const { page } = await homebody.launch(catalogLaunch([good]));
  await openModelsPage(page);

  const goodCard = card(page, 'e2e-good');
  await expect(goodCard).toContainText('Apache-2.0 (test model)');
  await expect(goodCard).toContainText('End-to-end tests');
  await expect(goodCard).toContainText('https://example.invalid/e2e-tiny');
  await expect(goodCard.getByTestId('catalog-size')).toHaveText(SIZE_TEXT);
  await expect(page.getByTestId('local-models-empty')).toBeVisible();

  await goodCard.getByTestId('catalog-download').click();
  await hold.reached;
  await expect(goodCard).toHaveAttribute('data-state', 'downloading');
  const bar = goodCard.getByRole('progressbar');
  await expectPartway(bar);
  await expect(goodCard.getByTestId('download-figures')).toContainText(new RegExp(`MB of ${SIZE_TEXT}`));
  await expect(goodCard.getByTestId('catalog-pause')).toBeVisible();
  await expect(goodCard.getByTestId('catalog-cancel')).toBeVisible();
  hold.release();

  const model = localModels(page).filter({ hasText: 'E2E Tiny Good' });
  await expect(model).toHaveAttribute('data-integrity', 'sha256-matched');
  await expect(model).toHaveAttribute('data-source', 'downloaded');
  await expect(model.getByTestId('local-model-integrity')).toContainText(/sha256 match/i);
  await expect(goodCard.getByTestId('catalog-on-disk')).toBeVisible();
  await expect(goodCard.getByTestId('catalog-download')).toHaveCount(0);

  await model.getByTestId('local-model-use').click();
  await expect(model).toHaveAttribute('data-engine', 'ready');
  await expect(model).toHaveAttribute('data-active', 'true');
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('synthetic-badge')).toBeVisible();
  await sendMessage(page, 'Hello from the downloaded model');
  await expect(page.getByTestId('message-assistant').last()).toBeVisible();

  await openModelsPage(page);
  await model.getByTestId('local-model-delete').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(/deleted from this computer/);
  await expect(dialog).toContainText(/active model/);
  await expect(page.getByTestId('confirm-cancel')).toBeFocused();
  await page.getByTestId('confirm-ok').click();
  await expect(dialog).toHaveCount(0);
  await expect(localModels(page)).toHaveCount(0);
  await expect(page.getByTestId('models-status')).not.toBeEmpty();
  await expect(goodCard.getByTestId('catalog-download')).toBeVisible();
});

test('a connection cut halfway is resumed from where it stopped, not from the start', async ({ homebody }) => {
  const cut = entry('e2e-cut', 'E2E Tiny Cut', '/cut.gguf');
  const cutAt = server.cutNextAt('/cut.gguf', HALF);
  const { page } = await homebody.launch(catalogLaunch([cut]));
  await openModelsPage(page);
  const cutCard = card(page, 'e2e-cut');

  await cutCard.getByTestId('catalog-download').click();
  const deliveredAtCut = await cutAt;
  // The Host either retries the dropped connection by itself or stops the download as paused, saying why.
  await expect(cutCard).toHaveAttribute('data-state', /^(paused|done)$/);
  if ((await cutCard.getAttribute('data-state')) === 'paused') {
    await expect(cutCard.getByTestId('download-error')).toBeVisible();
    await expectPartway(cutCard.getByRole('progressbar'));
    await cutCard.getByTestId('catalog-resume').click();
  }
  const model = localModels(page).filter({ hasText: 'E2E Tiny Cut' });
  await expect(model).toHaveAttribute('data-integrity', 'sha256-matched');
  await expect(cutCard).toHaveAttribute('data-state', 'done');

  // After the cut only the missing parts were fetched, not the whole file again.
  expect(server.delivered('/cut.gguf') - deliveredAtCut).toBeLessThan(MODEL_SIZE);
});

/**
 * Waits until the downloader has written part of `file` to its partial file in the data folder: what a pause keeps is
 * what is on disk, and on a busy machine the bytes the server sent may not be written yet (a pause then keeps none,
 * and the resume rightly fetches everything).
 */
async function someOnDisk(dataDir: string, file: string): Promise<void> {
  const staging = join(dataDir, 'models', '.downloads');
  await expect
    .poll(
      async () => {
        if (!existsSync(staging)) return 0;
        for (const id of readdirSync(staging)) {
          const bytes = await partialBytesOnDisk(partialPathOf(join(staging, id, file)), MODEL_SIZE);
          if (bytes) return bytes;
        }
        return 0;
      },
      { message: `part of ${file} written to disk` },
    )
    .toBeGreaterThan(0);
}

/** Starts a download of `id` held halfway, pauses it there, and answers the bytes delivered once it is paused. */
async function downloadAndPause(page: Page, dataDir: string, id: string, path: string): Promise<number> {
  const hold = server.holdNextAt(path, HALF);
  const pauseCard = card(page, id);
  await pauseCard.getByTestId('catalog-download').click();
  await hold.reached;
  await expectPartway(pauseCard.getByRole('progressbar'));
  await someOnDisk(dataDir, path.slice(1));
  await pauseCard.getByTestId('catalog-pause').click();
  await expect(pauseCard).toHaveAttribute('data-state', 'paused');
  await expect(pauseCard.getByTestId('catalog-resume')).toBeVisible();
  await expect(pauseCard.getByTestId('download-figures')).not.toContainText('/s');
  hold.release();
  return server.delivered(path);
}

test('a paused download resumes, fetching only what was missing', async ({ homebody }) => {
  const paused = entry('e2e-pause', 'E2E Tiny Pause', '/pause.gguf');
  const { page, dataDir } = await homebody.launch(catalogLaunch([paused]));
  await openModelsPage(page);
  const deliveredAtPause = await downloadAndPause(page, dataDir, 'e2e-pause', '/pause.gguf');
  const pauseCard = card(page, 'e2e-pause');
  await expectPartway(pauseCard.getByRole('progressbar'));
  await pauseCard.getByTestId('catalog-resume').click();
  await expect(localModels(page).filter({ hasText: 'E2E Tiny Pause' })).toHaveAttribute(
    'data-integrity',
    'sha256-matched',
  );
  expect(server.delivered('/pause.gguf') - deliveredAtPause).toBeLessThan(MODEL_SIZE);
});

test('a paused download resumes after the app restarts', async ({ homebody }) => {
  const paused = entry('e2e-restart', 'E2E Tiny Restart', '/restart.gguf');
  const options = catalogLaunch([paused]);
  const first = await homebody.launch(options);
  await openModelsPage(first.page);
  await downloadAndPause(first.page, first.dataDir, 'e2e-restart', '/restart.gguf');
  await first.stop();
  const deliveredBeforeRestart = server.delivered('/restart.gguf');

  const second = await homebody.launch({ ...options, dataDir: first.dataDir });
  await openModelsPage(second.page);
  const again = card(second.page, 'e2e-restart');
  await expect(again).toHaveAttribute('data-state', 'paused');
  await expectPartway(again.getByRole('progressbar'));
  await again.getByTestId('catalog-resume').click();
  await expect(localModels(second.page).filter({ hasText: 'E2E Tiny Restart' })).toHaveAttribute(
    'data-integrity',
    'sha256-matched',
  );
  // After the restart only what was missing was fetched, not the whole file again.
  expect(server.delivered('/restart.gguf') - deliveredBeforeRestart).toBeLessThan(MODEL_SIZE);
});

test('a file whose sha256 does not match the catalog fails clearly, is not offered for use, and can be retried', async ({
  homebody,
}) => {
  const bad = entry('e2e-bad', 'E2E Tiny Bad', '/bad.gguf', { sha256: WRONG_SHA256 });
  const { page } = await homebody.launch(catalogLaunch([bad]));
  await openModelsPage(page);
  const badCard = card(page, 'e2e-bad');

  await badCard.getByTestId('catalog-download').click();
  await expect(badCard).toHaveAttribute('data-state', 'failed');
  const error = badCard.getByTestId('download-error');
  await expect(error).toHaveAttribute('data-error-code', 'CHECKSUM_MISMATCH');
  await expect(error).toContainText(WRONG_SHA256);
  await expect(error).toContainText(MODEL_SHA256);
  await expect(badCard.getByTestId('download-state')).toHaveText('Download failed');
  await expect(badCard.getByTestId('catalog-retry')).toBeVisible();
  await expect(badCard.getByTestId('catalog-cancel')).toBeVisible();
  await expect(localModels(page)).toHaveCount(0);

  // Retrying checks again and fails the same way; Cancel clears it.
  await badCard.getByTestId('catalog-retry').click();
  await expect(badCard.getByTestId('download-error')).toHaveAttribute('data-error-code', 'CHECKSUM_MISMATCH');
  await badCard.getByTestId('catalog-cancel').click();
  await expect(badCard.getByTestId('catalog-download')).toBeVisible();
  await expect(badCard.getByTestId('download-error')).toHaveCount(0);
});

test('a GGUF file is added from disk by path; a file that is not one is refused in place', async ({ homebody }) => {
  const dir = mkdtempSync(join(tmpdir(), 'hb-e2e-add-'));
  const notes = join(dir, 'notes.gguf');
  writeFileSync(notes, 'these are my notes, not a model');
  const mine = join(dir, 'mine.gguf');
  copyFileSync(E2E_MODEL, mine);
  const { page } = await homebody.launch(catalogLaunch([]));
  await openModelsPage(page);

  const path = page.getByTestId('add-model-path');
  await path.fill(notes);
  await path.press('Enter');
  await expect(page.getByTestId('add-model-error')).toContainText(/not a GGUF/i);
  await expect(localModels(page)).toHaveCount(0);

  await path.fill(mine);
  await page.getByTestId('add-model-submit').click();
  const model = localModels(page).filter({ hasText: mine });
  await expect(model).toHaveAttribute('data-source', 'added');
  await expect(model).toHaveAttribute('data-integrity', 'unchecked');
  await expect(page.getByTestId('add-model-error')).toHaveCount(0);
  await expect(page.getByTestId('models-status')).toContainText(/Added/);

  // Its thinking setting, chosen before it is loaded, is kept for this model across loading it and a page reload.
  const thinking = model.getByTestId('local-model-thinking-select');
  await expect(thinking).toHaveValue('auto');
  await expect(model.getByTestId('local-model-thinking-hint')).toContainText('once the model is loaded');
  await thinking.selectOption('off');
  await expect(thinking).toHaveValue('off');

  await model.getByTestId('local-model-use').click();
  await expect(model).toHaveAttribute('data-engine', 'ready');
  await page.reload();
  await openModelsPage(page);
  await expect(localModels(page).filter({ hasText: mine }).getByTestId('local-model-thinking-select')).toHaveValue(
    'off',
  );

  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('chat')).toBeVisible();
  await expect(page.getByTestId('model-name')).toHaveAttribute('title', mine);
});

test('switching the active model keeps the open task readable and the composer usable', async ({ homebody }) => {
  const dir = mkdtempSync(join(tmpdir(), 'hb-e2e-switch-'));
  const other = join(dir, 'other.gguf');
  copyFileSync(E2E_MODEL, other);
  const { page } = await homebody.launch(catalogLaunch([], { model: E2E_MODEL }));
  await expect(page.getByTestId('chat')).toBeVisible();
  await sendMessage(page, 'Remember the blue teapot');
  const userMessage = page.getByTestId('message-user').filter({ hasText: 'Remember the blue teapot' });
  await expect(userMessage).toBeVisible();
  // The reply has finished (its figures show) before the switch.
  await expect(page.getByTestId('message-assistant').last().getByTestId('message-stats')).toBeVisible();
  const current = page.locator('[data-testid="task-item"][aria-current="true"]');
  const taskId = await current.getAttribute('data-task-id');
  expect(taskId).toBeTruthy();

  await openModelsPage(page);
  await page.getByTestId('add-model-path').fill(other);
  await page.getByTestId('add-model-submit').click();
  const next = localModels(page).filter({ hasText: other });
  await next.getByTestId('local-model-use').click();
  // Back to the task at once, whether or not the load has finished: nothing waits on it.
  await page.getByTestId('nav-chat').click();
  await expect(userMessage).toBeVisible();
  const input = page.getByTestId('composer-input');
  await input.fill('Typed while the model switches');
  await expect(input).toHaveValue('Typed while the model switches');
  await expect(page.getByTestId('model-name')).toHaveAttribute('title', other);
  await expect(current).toHaveAttribute('data-task-id', taskId ?? '');

  await input.press('Enter');
  await expect(page.getByTestId('message-user').filter({ hasText: 'Typed while the model switches' })).toBeVisible();
  await expect(userMessage).toBeVisible();
  await openModelsPage(page);
  await expect(next).toHaveAttribute('data-active', 'true');
});
