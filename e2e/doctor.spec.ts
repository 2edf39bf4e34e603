import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, test } from './fixtures/homebody.js';

/** The Doctor shows the machine's own defaults and the user's settings: no thread count or context size from the environment. */
const NO_ENV_OVERRIDES = { HOMEBODY_THREADS: '', HOMEBODY_CONTEXT_SIZE: '' };

test('the Doctor shows this computer and each model, and measures speed on request', async ({ homebody }) => {
  // Loading and measuring a model takes long on a busy 2-core machine; nothing here asserts a time.
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-e2e-doctor-'));
  // The benchmark's generated 0.6B model is made once into the cache folder; the small test model stands in for it.
  mkdirSync(join(dataDir, 'cache'));
  copyFileSync(E2E_MODEL, join(dataDir, 'cache', 'bench-qwen3-0.6b-q4_0-r1.gguf'));
  const { page } = await homebody.launch({ model: E2E_MODEL, dataDir, env: NO_ENV_OVERRIDES });
  await page.getByTestId('nav-doctor').click();
  await expect(page.getByTestId('doctor-page')).toBeVisible();
  await expect(page.getByTestId('doctor-cpu')).not.toBeEmpty();
  await expect(page.getByTestId('doctor-ram')).toContainText('free');
  await expect(page.locator('[data-testid="doctor-backend"][data-backend="cpu"]')).toBeVisible();
  const rows = page.getByTestId('doctor-model');
  await expect(rows.filter({ hasText: 'BotPsy 0.8B Q4' })).toHaveCount(1);
  await expect(page.getByTestId('doctor-speed').first()).toContainText('estimate');

  await page.getByTestId('bench-button').click();
  await expect(page.getByTestId('bench-result')).toContainText('tokens per second', { timeout: 120_000 });
  await expect(page.getByTestId('bench-button')).toBeEnabled();
  await expect(page.locator('[data-testid="doctor-speed"][data-kind="scaled"]').first()).toBeVisible();
});

test('model settings are checked in place, saved, and shown again after a reload', async ({ homebody }) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, env: NO_ENV_OVERRIDES });
  await page.getByTestId('nav-doctor').click();
  const context = page.getByTestId('model-setting-contextSize');
  await expect(page.getByTestId('model-setting-contextSize-default')).toContainText('Default:');
  // The fixture runs every app with HOMEBODY_TEMPERATURE=0: the page says that variable wins for this run.
  await expect(page.getByTestId('model-setting-temperature-override')).toContainText('HOMEBODY_TEMPERATURE');

  await page.getByTestId('model-setting-threads').fill('many');
  await page.getByTestId('model-settings-save').click();
  await expect(page.getByTestId('model-setting-threads-problem')).toBeVisible();

  await page.getByTestId('model-setting-threads').fill('1');
  await context.fill('2048');
  await page.getByTestId('model-settings-save').click();
  await expect(page.getByTestId('model-settings-saved')).toBeVisible();
  await expect(page.getByTestId('model-setting-threads-problem')).toHaveCount(0);
  await expect(page.getByTestId('model-settings-effective')).toContainText('2048 tokens of context');

  await page.reload();
  await page.getByTestId('nav-doctor').click();
  await expect(page.getByTestId('model-setting-contextSize')).toHaveValue('2048');
  await expect(page.getByTestId('model-setting-threads')).toHaveValue('1');

  await page.getByTestId('model-settings-reset').click();
  await expect(page.getByTestId('model-setting-contextSize')).toHaveValue('');
  await expect(page.getByTestId('model-settings-effective')).not.toContainText('2048 tokens');
});
