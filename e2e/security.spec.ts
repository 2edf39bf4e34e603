import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures/homebody.js';

/** Another web server on 127.0.0.1, as any local program may run: it records the headers of every request. */
async function otherLocalServer(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>another local app</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('browser mode keeps its token out of cookies: other local servers receive none, and a reload keeps the session', async ({
  homebody,
}) => {
  test.skip(homebody.shell === 'electron', 'the desktop shell has no server and no token');
  const app = await homebody.launch();
  const { page } = app;
  await expect(page.getByTestId('nav-settings')).toBeVisible();
  // The address bar no longer shows the token.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  expect(await page.context().cookies()).toEqual([]);

  const other = await otherLocalServer();
  try {
    const visit = await page.context().newPage();
    await visit.goto(other.url);
    await expect(visit.locator('body')).toContainText('another local app');
    await visit.close();
    expect(other.seen.length).toBeGreaterThan(0);
    // The Cookie header that server saw, on every request it got: none at all.
    expect(other.seen.map((headers) => headers.cookie)).toEqual(other.seen.map(() => undefined));
  } finally {
    await other.close();
  }

  // A reload: the page has no token in it now; the tab kept it, so the app comes back, and its calls work.
  await page.reload();
  await expect(page.getByTestId('nav-settings')).toBeVisible();
  await expect(page.getByTestId('access-token-notice')).toHaveCount(0);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('mcp-section')).toContainText('No MCP servers yet.');
  expect(await page.context().cookies()).toEqual([]);
});

test('browser mode turns away a visit without the token, an old token cookie, and calls from another origin', async ({
  browser,
  homebody,
  request,
}) => {
  test.skip(
    homebody.shell === 'electron',
    'the desktop shell has no server: its IPC checks are unit-tested in src-main/ipc',
  );
  const app = await homebody.launch();
  const token = new URL(app.url).searchParams.get('token') ?? '';

  // A new browser profile, which never had the token: the app's own page, styled, saying which address to open.
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  const bare = await stranger.goto(`${app.origin}/`);
  expect(bare?.status()).toBe(200);
  expect(await bare?.text()).not.toContain(token);
  const notice = stranger.getByTestId('access-token-notice');
  await expect(notice).toHaveAttribute('data-problem', 'missing');
  // It names the command that started this Homebody (the suite starts `serve` itself), whose terminal has the address.
  await expect(notice.getByTestId('access-token-command')).toContainText(
    'Open the address that homebody serve printed',
  );
  await expect(notice).not.toContainText('npm start');
  // Styled by the app's own stylesheet (a card), not plain text.
  const card = notice.locator('.card');
  expect(await card.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).not.toBe('0px');
  await expect(stranger.getByTestId('nav-settings')).toHaveCount(0);

  // An old address (another launch's token): the same page, saying so.
  await stranger.goto(`${app.origin}/?token=${'x'.repeat(token.length)}`);
  await expect(stranger.getByTestId('access-token-notice')).toHaveAttribute('data-problem', 'not-accepted');
  expect(new URL(stranger.url()).searchParams.has('token')).toBe(false);

  // The cookie an older version set, holding the right token: neither API calls nor the event socket accept it.
  await strangerContext.addCookies([
    { name: `homebody_token_${new URL(app.origin).port}`, value: token, url: app.origin },
  ]);
  const withCookie = await stranger.evaluate(async () => {
    const api = await fetch('/api/app.info', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const socket = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://${location.host}/events`);
      ws.onopen = () => resolve('open');
      ws.onclose = () => resolve('closed');
    });
    return { api: api.status, socket };
  });
  expect(withCookie).toEqual({ api: 401, socket: 'closed' });
  await strangerContext.close();

  const wrong = await request.post(`${app.origin}/api/app.info`, {
    headers: { 'content-type': 'application/json', 'x-homebody-token': 'guess' },
    data: {},
  });
  expect(wrong.status()).toBe(401);
  const crossSite = await request.post(`${app.origin}/api/app.info`, {
    headers: { 'content-type': 'application/json', 'x-homebody-token': token, origin: 'https://evil.example' },
    data: {},
  });
  expect(crossSite.status()).toBe(403);
  const own = await request.post(`${app.origin}/api/app.info`, {
    headers: { 'content-type': 'application/json', 'x-homebody-token': token },
    data: {},
  });
  expect(await own.json()).toMatchObject({ ok: true, value: { name: 'Homebody', shell: 'browser' } });
  expect(own.headers()['set-cookie']).toBeUndefined();
});
