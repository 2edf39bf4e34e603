import { copyFileSync, mkdirSync, mkdtempSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, openModel, test } from './fixtures/homebody.js';

test('a first run offers to open a GGUF file and lists the catalog, downloaded from the Models page', async ({
  homebody,
}) => {
  const { page } = await homebody.launch();
  await expect(page.getByTestId('onboarding')).toBeVisible();
  await expect(page.getByTestId('model-path-input')).toBeVisible();
  const entries = page.getByTestId('catalog-entry');
  await expect(entries).toHaveCount(4);
  for (const name of ['BotPsy 0.8B Q4', 'BotPsy 0.8B Q8', 'BotPsy 0.8B bf16', 'Qwen3.5 0.8B Q8 (base)']) {
    await expect(entries.filter({ hasText: name })).toHaveCount(1);
  }
  await expect(entries.first()).toContainText('BotPsy');
  await entries
    .first()
    .getByRole('button', { name: /Download BotPsy 0.8B Q4/ })
    .click();
  await expect(page.getByTestId('models-page')).toBeVisible();
});

test('a wrong file gets a specific error in place, and the app keeps working', async ({ homebody }) => {
  const dir = mkdtempSync(join(tmpdir(), 'hb-e2e-files-'));
  const notes = join(dir, 'notes.gguf');
  writeFileSync(notes, 'these are my notes, not a model');
  const cut = join(dir, 'cut.gguf');
  copyFileSync(E2E_MODEL, cut);
  truncateSync(cut, Math.floor(statSync(E2E_MODEL).size / 2));
  const folder = join(dir, 'folder.gguf');
  mkdirSync(folder);

  const { page } = await homebody.launch();
  const error = page.getByTestId('model-error');
  const cases: Array<[string, RegExp]> = [
    [join(dir, 'missing.gguf'), /No model file at .*missing\.gguf/],
    [notes, /is not a GGUF model file/],
    [cut, /is incomplete/],
    [folder, /is a folder, not a GGUF model file/],
  ];
  for (const [path, message] of cases) {
    await openModel(page, path);
    await expect(error).toContainText(message);
    await expect(page.getByTestId('onboarding')).toBeVisible();
  }

  await openModel(page, E2E_MODEL);
  await expect(page.getByTestId('chat')).toBeVisible();
  await expect(page.getByTestId('synthetic-badge')).toContainText(/random weights/i);
  await expect(page.getByTestId('model-name')).toContainText(/synthetic/i);
});
