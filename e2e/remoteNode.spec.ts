import { expect, sendMessage, test } from './fixtures/homebody.js';
import { E2E_MODEL } from './fixtures/paths.js';
import { llamaBinaries, startLlamaServer, type RunningServer } from '../src-main/testing/llamaServerProcess.js';

/**
 * A model on another computer as a new user meets it: llama.cpp's own llama-server on loopback serves the generated
 * model. Offline mode (on for a new user) refuses the check with the reason; allowed for that host, the server is
 * checked, shown (its model, that plain http is readable) and added; Use makes it the chat's model; the first
 * message of a task asks before anything goes there, Cancel keeps the text, agreeing sends it; the reply is marked
 * as written on another computer in the chat and History; Remove takes the node and its rule away.
 */

let node: RunningServer;
test.beforeAll(async () => {
  // Every tool's definitions in the dialect's prompt take about 6,700 tokens: the node's context holds them.
  node = await startLlamaServer(llamaBinaries().server, { model: E2E_MODEL, contextSize: 8192 });
});
test.afterAll(async () => {
  await node?.stop();
});

test('a model on another computer: checked, added, used with consent, its replies marked, removed', async ({
  homebody,
}) => {
  test.setTimeout(240_000);
  const { page } = await homebody.launch({ model: E2E_MODEL });
  await expect(page.getByTestId('composer-input')).toBeVisible();
  await page.getByTestId('nav-models').click();
  const section = page.getByTestId('remote-nodes');
  await expect(section.getByTestId('remote-nodes-empty')).toBeVisible();

  // An address that cannot be a node's is refused in place, before anything is asked.
  await section.getByTestId('remote-node-url').fill('ftp://127.0.0.1/models');
  await section.getByTestId('remote-node-check').click();
  const wrong = section.getByTestId('remote-node-probe-error');
  await expect(wrong).toHaveAttribute('data-error-code', 'INVALID_REQUEST');
  await expect(wrong).toContainText('over http or https, not ftp:');

  // Offline mode refuses a host no rule allows, and says so in place; nothing is added.
  await section.getByTestId('remote-node-url').fill(`${node.url}/v1`);
  await section.getByTestId('remote-node-check').click();
  const refused = section.getByTestId('remote-node-probe-error');
  await expect(refused).toHaveAttribute('data-error-code', 'NETWORK_BLOCKED');
  await expect(refused).toContainText('Offline mode is on');
  await expect(section.getByTestId('remote-node-offline-hint')).toBeVisible();

  await section.getByTestId('remote-node-label').fill('the test node');
  await section.getByTestId('remote-node-allow-offline').check();
  await expect(section.getByTestId('remote-node-offline-hint')).toBeHidden();
  await section.getByTestId('remote-node-check').click();
  const probe = section.getByTestId('remote-node-probe');
  await expect(probe).toContainText(node.url);
  await expect(probe.getByTestId('remote-node-probe-model')).toContainText('tiny');
  await expect(probe.getByTestId('remote-node-probe-protocol')).toHaveText("llama-server, in the model's own format");
  await expect(probe.getByTestId('remote-node-probe-plain-http')).toContainText('unencrypted');
  await probe.getByTestId('remote-node-add').click();
  const row = section.getByTestId('remote-node');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('the test node');
  await expect(section.getByTestId('remote-nodes-status')).toContainText('Added');

  await row.getByTestId('remote-node-use').click();
  await expect(row).toHaveAttribute('data-engine', 'ready', { timeout: 60_000 });
  await expect(row.getByTestId('remote-node-ready')).toBeVisible();

  // The chat shows where the model runs, and asks before a task's first message goes there.
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('remote-model-badge')).toContainText('the test node');
  await sendMessage(page, 'hello there');
  const dialog = page.getByTestId('remote-consent-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`the test node (${node.url})`);
  await expect(page.getByTestId('remote-consent-cancel')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('composer-input')).toHaveValue('hello there');
  await expect(page.getByTestId('message-user')).toHaveCount(0);

  await page.getByTestId('composer-input').press('Enter');
  await page.getByTestId('remote-consent-allow').click();
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  const reply = page.getByTestId('message-assistant').last();
  await expect(reply).toHaveAttribute('data-state', /complete|truncated/, { timeout: 120_000 });
  await expect(reply.getByTestId('message-remote')).toContainText('Written on another computer');
  await expect(reply.getByTestId('message-remote')).toContainText('at the test node');
  await expect(reply.getByTestId('message-remote')).toHaveAttribute('data-remote-url', node.url);

  // The same task goes on without asking again.
  await sendMessage(page, 'and again');
  await expect(page.getByTestId('message-assistant')).toHaveCount(2);
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('message-assistant').last()).toHaveAttribute('data-state', /complete|truncated/, {
    timeout: 120_000,
  });

  // History says the same of each reply.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row-open').first().click();
  await expect(page.getByTestId('timeline-remote')).toHaveCount(2);

  // The Doctor measures it: the round trip of a small request and a short reply's speed.
  await page.getByTestId('nav-doctor').click();
  const measured = page.getByTestId('doctor-node');
  await expect(measured).toHaveAttribute('data-ok', 'true', { timeout: 60_000 });
  await expect(measured).toContainText('on the test node');
  await expect(measured.getByTestId('doctor-node-round-trip')).toHaveText(/\d+(\.\d)? ms/);
  await expect(measured.getByTestId('doctor-node-speed')).toContainText('reply');

  // Removed: the node and the offline rule it added go; the chat waits for another model.
  await page.getByTestId('nav-models').click();
  await row.getByTestId('remote-node-remove').click();
  await page.getByTestId('confirm-ok').click();
  await expect(section.getByTestId('remote-nodes-empty')).toBeVisible();
  await expect(section.getByTestId('remote-nodes-status')).toContainText('Removed the test node');
});
