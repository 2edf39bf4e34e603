import { E2E_MODEL } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';
import type { Page } from '@playwright/test';

/** Records the length of the newest assistant bubble's text at every DOM change, to see it grow. */
async function watchReplyGrowth(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const lengths: number[] = [];
    (window as unknown as { __replyLengths: number[] }).__replyLengths = lengths;
    new MutationObserver(() => {
      const bubbles = document.querySelectorAll('[data-testid="message-assistant"] .message-text');
      const last = bubbles[bubbles.length - 1];
      const length = last?.textContent?.length ?? 0;
      if (length !== lengths[lengths.length - 1]) lengths.push(length);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __replyLengths: number[] }).__replyLengths);
}

test('a reply streams token by token, then shows its speed', async ({ homebody }) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, maxTokens: 40 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const lengths = await watchReplyGrowth(page);

  await sendMessage(page, 'Hello Homebody, tell me a story');
  await expect(page.getByTestId('message-user')).toHaveText('Hello Homebody, tell me a story');
  const reply = page.getByTestId('message-assistant').last();
  await expect(reply).toHaveAttribute('data-state', 'truncated');
  await expect(reply.getByTestId('message-stats')).toContainText(/[\d.]+ tokens\/s/);
  // Several intermediate lengths: the text arrived in pieces, not all at once.
  expect(new Set((await lengths()).filter((n) => n > 0)).size).toBeGreaterThanOrEqual(3);
});

test('a long reply stops with the Stop button or with Esc, keeping what was written', async ({ homebody }) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, maxTokens: 5000 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const reply = page.getByTestId('message-assistant').last();

  await sendMessage(page, 'Write forever');
  await expect(page.getByTestId('stop-button')).toBeVisible();
  await expect.poll(async () => (await reply.textContent())?.length ?? 0).toBeGreaterThan(20);
  await page.getByTestId('stop-button').click();
  await expect(reply).toHaveAttribute('data-state', 'stopped');
  await expect(reply).toContainText(/stopped/i);
  await expect(page.getByTestId('stop-button')).toBeHidden();

  await sendMessage(page, 'Again, forever');
  const second = page.getByTestId('message-assistant').nth(1);
  await expect.poll(async () => (await second.textContent())?.length ?? 0).toBeGreaterThan(20);
  await page.keyboard.press('Escape');
  await expect(second).toHaveAttribute('data-state', 'stopped');
});

test('a new task starts with one click or with Ctrl+N, and the sidebar lists tasks newest first', async ({
  homebody,
}) => {
  const { page } = await homebody.launch({ model: E2E_MODEL, maxTokens: 8 });
  await expect(page.getByTestId('chat')).toBeVisible();
  const items = page.getByTestId('task-item');

  await sendMessage(page, 'First task');
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', 'truncated');
  await expect(items).toHaveCount(1);

  await page.getByTestId('new-task-button').click();
  await expect(page.getByTestId('message-user')).toHaveCount(0);
  await sendMessage(page, 'Second task');
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', 'truncated');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('Second task');
  await expect(items.first()).toHaveAttribute('aria-current', 'true');

  await page.getByTestId('composer-input').focus();
  await page.keyboard.press('Control+n');
  await expect(page.getByTestId('message-user')).toHaveCount(0);
  await sendMessage(page, 'Third task');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Third task');
  await expect(items.nth(2)).toContainText('First task');
});
