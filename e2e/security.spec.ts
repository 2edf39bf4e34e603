import { expect, test } from './fixtures/homebody.js';

test('browser mode turns away a visit without the token and calls from another origin', async ({
  browser,
  homebody,
  request,
}) => {
  test.skip(
    homebody.shell === 'electron',
    'the desktop shell has no server: its IPC checks are unit-tested in src-main/ipc',
  );
  const app = await homebody.launch();
  // A new browser profile: no cookie from the visit above.
  const stranger = await browser.newPage();
  const bare = await stranger.goto(`${app.origin}/`);
  expect(bare?.status()).toBe(401);
  await expect(stranger.locator('body')).toContainText(/access token/);
  await stranger.close();

  const wrong = await request.post(`${app.origin}/api/app.info`, {
    headers: { 'content-type': 'application/json', 'x-homebody-token': 'guess' },
    data: {},
  });
  expect(wrong.status()).toBe(401);
  const token = new URL(app.url).searchParams.get('token') ?? '';
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
});
