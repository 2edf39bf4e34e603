import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

test('a task survives a reload and a restart, and opens with no model and no network', async ({ homebody }) => {
  // The model lives in a folder of its own so that it can vanish before the restart.
  const model = join(mkdtempSync(join(tmpdir(), 'hb-e2e-model-')), 'assistant.gguf');
  copyFileSync(E2E_MODEL, model);
  const first = await homebody.launch({ model, maxTokens: 12 });
  let page = first.page;
  await expect(page.getByTestId('chat')).toBeVisible();
  await sendMessage(page, 'Remember this conversation');
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', 'truncated');
  const replyText = await page.getByTestId('message-assistant').last().locator('.message-text').textContent();

  await page.reload();
  const item = page.getByTestId('task-item').filter({ hasText: 'Remember this conversation' });
  await expect(item).toHaveCount(1);
  await item.click();
  await expect(page.getByTestId('message-user')).toHaveText('Remember this conversation');

  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await first.stop();
  rmSync(model);
  const second = await homebody.launch({ dataDir: first.dataDir });
  if (second.page !== page) {
    page = second.page;
    page.on('request', (request) => requests.push(request.url()));
  }

  // The model that was loaded last is gone: onboarding says where it was expected.
  await expect(page.getByTestId('onboarding')).toBeVisible();
  await expect(page.getByTestId('model-error')).toContainText(/No model file at .*assistant\.gguf/);
  const restored = page.getByTestId('task-item').filter({ hasText: 'Remember this conversation' });
  await expect(restored).toHaveCount(1);
  await restored.click();
  await expect(page.getByTestId('message-user')).toHaveText('Remember this conversation');
  await expect(page.getByTestId('message-assistant').locator('.message-text')).toHaveText(replyText ?? '');
  await expect(page.getByTestId('readonly-notice')).toBeVisible();

  // Everything the page loaded came from Homebody itself on loopback.
  expect(requests.length).toBeGreaterThan(0);
  for (const url of requests)
    expect(url.startsWith(second.origin) || url.startsWith(second.origin.replace('http', 'ws'))).toBe(true);
});
