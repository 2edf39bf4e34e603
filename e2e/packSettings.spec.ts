import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_MODEL } from './fixtures/paths.js';
import { expect, sendMessage, test } from './fixtures/homebody.js';

/** A SearXNG-like search endpoint on loopback: /search?q=…&format=json answers JSON results, and records the queries. */
async function startSearchServer(): Promise<{ endpoint: string; queries: string[]; close(): Promise<void> }> {
  const queries: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      res.writeHead(404).end();
      return;
    }
    queries.push(url.searchParams.get('q') ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: url.searchParams.get('q'),
        results: [
          { url: 'https://otters.example/tagus', title: 'Otters return to the Tagus', content: 'Eleven counted.' },
          { url: 'https://wiki.example/Otter', title: 'Eurasian otter', content: 'A semiaquatic mammal.' },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/search`,
    queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PROMPT = 'search the web for otters in the Tagus';

test('a search endpoint set in Settings is what a "search the web" task uses', async ({ homebody }) => {
  test.skip(homebody.shell === 'electron', 'scripted calls are a browser-mode (serve) test option');
  const search = await startSearchServer();
  try {
    const script = join(mkdtempSync(join(tmpdir(), 'hb-e2e-web-')), 'script.json');
    writeFileSync(
      script,
      JSON.stringify({ [PROMPT]: [{ name: 'web_search', params: '{"query": "otters Tagus", "limit": 5}' }] }),
    );
    // Offline mode stays on; the web tools may reach the loopback search server, named by its address.
    const { page } = await homebody.launch({
      model: E2E_MODEL,
      script,
      maxTokens: 64,
      allow: [{ feature: 'web', host: '127.0.0.1' }],
    });
    await expect(page.getByTestId('chat')).toBeVisible();

    await page.getByTestId('nav-settings').click();
    const endpoint = page.getByTestId('pack-searchEndpoint');
    await expect(endpoint).toHaveValue('');
    // The default folders are shown where nothing is chosen.
    await expect(page.getByTestId('pack-notesDir')).toHaveAttribute('placeholder', /notes$/);
    await endpoint.fill(search.endpoint);
    await endpoint.press('Enter');
    await expect(page.getByTestId('pack-settings-saved')).toBeVisible();
    await expect(page.getByTestId('pack-settings-error')).toHaveCount(0);

    await page.getByTestId('nav-chat').click();
    await sendMessage(page, PROMPT);
    await expect(page.getByTestId('permission-prompt')).toBeVisible();
    await page.getByTestId('prompt-allow-once').click();
    const card = page.locator('[data-testid="toolcall-card"][data-tool="web_search"]').last();
    // The tool worker starts on this first call (from sources, through tsx): on a busy machine that takes a while.
    await expect(card).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(card.getByTestId('toolcall-result')).toContainText('Otters return to the Tagus');
    expect(search.queries).toEqual(['otters Tagus']);

    // Back in Settings the endpoint is still there.
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('pack-searchEndpoint')).toHaveValue(search.endpoint);
  } finally {
    await search.close();
  }
});

test("an invalid time zone shows the Host's error beside the form and keeps everything typed", async ({ homebody }) => {
  const { page } = await homebody.launch();
  await page.getByTestId('nav-settings').click();
  const zone = page.getByTestId('pack-timeZone');
  await expect(zone).toBeVisible();

  // Typed with the keyboard only: fields, a checkbox, and Enter to save.
  await page.getByTestId('pack-searchEndpoint').fill('http://127.0.0.1:9/search');
  await page.getByTestId('pack-smtp-enabled').focus();
  await page.keyboard.press('Space');
  await page.getByTestId('pack-smtp-host').fill('smtp.example.org');
  await page.getByTestId('pack-smtp-from').fill('me@example.org');
  await page.getByTestId('pack-smtp-password').fill('hunter2');
  await expect(page.getByTestId('pack-smtp-password-state')).toHaveText('Password: not set');
  await zone.fill('Mars/Olympus');
  await zone.press('Enter');

  const error = page.getByTestId('pack-settings-error');
  await expect(error).toContainText('"Mars/Olympus" is not a time zone');
  await expect(page.getByTestId('pack-timeZone-problem')).toContainText('not a time zone');
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  await expect(zone).toBeFocused();
  await expect(zone).toHaveValue('Mars/Olympus');
  await expect(page.getByTestId('pack-searchEndpoint')).toHaveValue('http://127.0.0.1:9/search');
  await expect(page.getByTestId('pack-smtp-host')).toHaveValue('smtp.example.org');
  await expect(page.getByTestId('pack-smtp-password')).toHaveValue('hunter2');

  // Corrected, it saves; the password is kept by the Host and never shown again; it can be removed.
  await zone.fill('Europe/Lisbon');
  await page.getByTestId('pack-settings-save').click();
  await expect(page.getByTestId('pack-settings-saved')).toBeVisible();
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('pack-smtp-password')).toHaveValue('');
  await expect(page.getByTestId('pack-smtp-password-state')).toHaveText('Password: set');
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('pack-timeZone')).toHaveValue('Europe/Lisbon');
  await expect(page.getByTestId('pack-smtp-password-state')).toHaveText('Password: set');
  await page.getByTestId('pack-smtp-password-clear').check();
  await page.getByTestId('pack-settings-save').click();
  await expect(page.getByTestId('pack-smtp-password-state')).toHaveText('Password: not set');
});
