import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPackConfig } from '../../../testing/tools/packFixture.js';
import type { PackConfig, ToolContext, ToolServices } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { guardedGet, MAX_REDIRECTS } from './guardedGet.js';
import { WEB_TOOLS } from './index.js';
import { webFetch } from './webFetch.js';
import { webSearch } from './webSearch.js';
import { startWebTestServer, type WebTestServer } from '../../../testing/tools/webTestServer.js';

let server: WebTestServer;
beforeAll(async () => {
  server = await startWebTestServer();
});
afterAll(() => server.close());

const packsBase = realpathSync(mkdtempSync(join(tmpdir(), 'hb-web-')));

/** Services that record each egress request and refuse the hosts in `blocked` (or all, offline) like the guard. */
function context(
  options: {
    blocked?: string[];
    offline?: boolean;
    packs?: Partial<PackConfig>;
    signal?: AbortSignal;
    /** What the guard answers: a rule names the host (default), or it was let through by `*` or online mode. */
    hostNamed?: boolean;
  } = {},
) {
  const egress: string[] = [];
  const services: ToolServices = {
    async egress(url, feature, purpose) {
      egress.push(`${purpose} ${url}`);
      if (feature !== 'web') throw new ToolError('NETWORK_BLOCKED', `The web tools asked as ${feature}.`);
      if (options.offline)
        throw new ToolError(
          'NETWORK_BLOCKED',
          `Offline mode is on: Homebody did not connect to ${new URL(url).hostname} for the web tools.`,
        );
      if (options.blocked?.includes(new URL(url).hostname))
        throw new ToolError('NETWORK_BLOCKED', `${new URL(url).hostname} is blocked.`);
      // The loopback test server is allowed by name, as a rule naming it would.
      return { hostNamed: options.hostNamed ?? true };
    },
    device: () => Promise.reject(new ToolError('UNAVAILABLE', 'no device')),
  };
  const ctx: ToolContext = {
    roots: [],
    trashDir: join(packsBase, 'trash'),
    signal: options.signal ?? new AbortController().signal,
    packs: testPackConfig(packsBase, options.packs ?? {}),
    services,
  };
  return { ctx, egress };
}

const fetchPage = (url: string, ctx: ToolContext, maxChars?: number) =>
  webFetch.run(maxChars === undefined ? { url } : { url, maxChars }, ctx);
const hitsOf = (path: string) => server.hits.filter((h) => h === path).length;

describe('WEB_TOOLS', () => {
  it('are web_search and web_fetch, both reads, with names no other tool begins with', () => {
    expect(WEB_TOOLS.map((t) => [t.name, t.risk])).toEqual([
      ['web_search', 'read'],
      ['web_fetch', 'read'],
    ]);
    expect(webFetch.describe({ url: 'https://example.org/a' })).toMatchObject({
      title: 'Read a web page',
      details: [{ label: 'Address', value: 'https://example.org/a' }],
    });
  });
});

describe('web_fetch', () => {
  it("reads an article's title and main text, without menus, ads, sidebars or scripts, and runs no script", async () => {
    const { ctx, egress } = context();
    const outcome = await fetchPage(`${server.origin}/article`, ctx);
    const result = outcome.result as { url: string; title: string; text: string };
    expect(result.url).toBe(`${server.origin}/article`);
    expect(result.title).toMatch(/Otters (return to the Tagus|of the Tagus)/);
    expect(result.text).toContain('Eurasian otters have been seen again along the lower Tagus');
    expect(result.text).toContain('Sewage treatment plants upstream were modernised');
    expect(result.text).toContain('- Eleven otters counted\n- Three camera sites planned');
    // Paragraphs stay apart.
    expect(result.text).toMatch(/since the 1970s\.\n\nThe return follows/);
    for (const furniture of [
      'menu item',
      'BUY CHEAP WATCHES',
      'sidebar stories',
      'footer text',
      'fetch(',
      'SCRIPT',
      'color: red',
    ])
      expect(result.text).not.toContain(furniture);
    expect(result).not.toHaveProperty('truncated');
    expect(hitsOf('/beacon')).toBe(0);
    expect(hitsOf('/pixel.gif')).toBe(0);
    expect(outcome.untrustedSource).toBe(`web page 127.0.0.1:${new URL(server.origin).port}`);
    expect(egress).toEqual([`web page ${server.origin}/article`]);
  });

  it("gives a short page's body text without its navigation when there is no article", async () => {
    const { ctx } = context();
    const result = (await fetchPage(`${server.origin}/short`, ctx)).result as { title: string; text: string };
    expect(result).toMatchObject({ title: 'Short', text: 'Just one line.' });
  });

  it('decodes the charset the server declares', async () => {
    const { ctx } = context();
    const result = (await fetchPage(`${server.origin}/latin1`, ctx)).result as { title: string; text: string };
    expect(result).toMatchObject({ title: 'Café', text: 'Crème brûlée.' });
  });

  it('passes plain text and JSON through, and refuses binary content', async () => {
    const { ctx } = context();
    expect((await fetchPage(`${server.origin}/notes.txt`, ctx)).result).toMatchObject({ text: 'line one\nline two' });
    const json = (await fetchPage(`${server.origin}/data.json`, ctx)).result as { text: string };
    expect(JSON.parse(json.text)).toEqual({ river: 'Tagus', otters: 11 });
    await expect(fetchPage(`${server.origin}/image.png`, ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('image/png'),
    });
  });

  it('follows a redirect chain, asking the egress guard before every hop', async () => {
    const { ctx, egress } = context();
    const outcome = await fetchPage(`${server.origin}/r1`, ctx);
    expect((outcome.result as { url: string }).url).toBe(`${server.origin}/article`);
    expect(egress).toEqual(['/r1', '/r2', '/r3', '/article'].map((p) => `web page ${server.origin}${p}`));
  });

  it('stops at a redirect to a target the guard refuses: that request is never made', async () => {
    const { ctx, egress } = context({ blocked: ['localhost'] });
    await expect(fetchPage(`${server.origin}/to-blocked`, ctx)).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: 'localhost is blocked.',
    });
    expect(egress.at(-1)).toMatch(/^web page http:\/\/localhost:\d+\/blocked-target$/);
    expect(hitsOf('/blocked-target')).toBe(0);
  });

  it('refuses a name that resolves to this machine unless a rule names that host, and connects to nothing', async () => {
    // localhost stands here for a public-looking name that resolves to 127.0.0.1 (the guard judges names, not
    // where they lead): let through by a * rule or online mode, it is refused once resolved.
    const named = `http://localhost:${new URL(server.origin).port}/article`;
    const before = hitsOf('/article');
    const { ctx } = context({ hostNamed: false });
    await expect(fetchPage(named, ctx)).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: expect.stringMatching(
        /^localhost resolves to (127\.0\.0\.1|::1), which is this machine or the local network; .*\(Allow "localhost" for Web tools\)\.$/,
      ),
    });
    expect(hitsOf('/article')).toBe(before);
    // An address typed as such is the guard's to judge (it was), and a rule naming the host lets the name through.
    await expect(fetchPage(`${server.origin}/article`, context({ hostNamed: false }).ctx)).resolves.toBeTruthy();
    await expect(fetchPage(named, context({ hostNamed: true }).ctx)).resolves.toBeTruthy();
    expect(hitsOf('/article')).toBe(before + 2);
  });

  it('refuses a redirect away from http(s), and a redirect loop after the limit', async () => {
    const { ctx, egress } = context();
    await expect(fetchPage(`${server.origin}/to-ftp`, ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringMatching(/redirected to an address that uses ftp/),
    });
    expect(egress).toEqual([`web page ${server.origin}/to-ftp`]);
    const before = hitsOf('/loop');
    await expect(fetchPage(`${server.origin}/loop`, ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining(`more than ${MAX_REDIRECTS} times`),
    });
    expect(hitsOf('/loop') - before).toBe(MAX_REDIRECTS + 1);
    await expect(fetchPage(`${server.origin}/no-location`, ctx)).rejects.toMatchObject({ code: 'REMOTE_ERROR' });
  });

  it('reports a 404 and a 500 with their status', async () => {
    const { ctx } = context();
    await expect(fetchPage(`${server.origin}/missing`, ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: `${server.origin}/missing answered 404 Not Found.`,
    });
    await expect(fetchPage(`${server.origin}/broken`, ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('answered 500'),
    });
  });

  it('downloads at most 2 MB of a huge page and returns at most maxChars of text', async () => {
    const { ctx } = context();
    const result = (await fetchPage(`${server.origin}/huge`, ctx, 1000)).result as {
      text: string;
      truncated: boolean;
      note: string;
    };
    expect(result.truncated).toBe(true);
    expect(result.note).toContain('first 2 MB');
    expect(result.text.length).toBeLessThanOrEqual(1000);
    expect(result.text).toMatch(/^all work and no play/);
    // The server wrote what the socket buffers took, not the whole 6 MB.
    expect(server.hugeBytesSent()).toBeLessThan(6 * 1024 * 1024);
    const article = (await fetchPage(`${server.origin}/article`, ctx, 500)).result as { text: string; note: string };
    expect(article.text.length).toBeLessThanOrEqual(500);
    expect(article.note).toMatch(/pass maxChars to read more/);
  });

  it('offline: the egress refusal comes back as it is and no request is made', async () => {
    const { ctx } = context({ offline: true });
    const before = server.hits.length;
    await expect(fetchPage(`${server.origin}/article`, ctx)).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: expect.stringContaining('Offline mode is on'),
    });
    expect(server.hits.length).toBe(before);
  });

  it('refuses addresses that are not http(s) or that carry credentials, before asking to connect', async () => {
    const { ctx, egress } = context();
    await expect(fetchPage('file:///etc/passwd', ctx)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('only http and https'),
    });
    await expect(fetchPage('not a url', ctx)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(fetchPage(`http://me:pw@127.0.0.1:1/`, ctx)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(egress).toEqual([]);
  });

  it('says when a server cannot be reached, does not answer in time, or the call is cancelled', async () => {
    const { ctx } = context();
    // A port nothing listens on: the server's own, after a fresh server closed it.
    const closed = await startWebTestServer();
    await closed.close();
    await expect(fetchPage(`${closed.origin}/`, ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('ECONNREFUSED'),
    });
    const url = new URL(`${server.origin}/hang`);
    await expect(guardedGet(url, ctx, { purpose: 'web page', accept: '*/*', timeoutMs: 200 })).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('did not answer within'),
    });
    const controller = new AbortController();
    const cancelled = context({ signal: controller.signal });
    const running = fetchPage(url.href, cancelled.ctx);
    await expect.poll(() => hitsOf('/hang')).toBe(2);
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('cancelled') });
  });
});

describe('web_search', () => {
  it('queries the SearXNG-style endpoint with format=json and lists title, url and snippet', async () => {
    const { ctx, egress } = context({ packs: { searchEndpoint: `${server.origin}/search` } });
    const outcome = await webSearch.run({ query: 'otters Tagus', limit: 5 }, ctx);
    expect(outcome.result).toEqual({
      query: 'otters Tagus',
      results: [
        {
          title: 'Otters return to the Tagus',
          url: 'https://otters.example/tagus',
          snippet: 'Eleven otters counted near Lisbon.',
        },
        {
          title: 'Eurasian otter',
          url: 'https://wiki.example/Otter',
          snippet: 'A semiaquatic mammal native to Eurasia.',
        },
        { title: 'https://news.example/rivers', url: 'https://news.example/rivers', snippet: 'Rivers are cleaner.' },
      ],
    });
    expect(server.searches.at(-1)?.get('q')).toBe('otters Tagus');
    expect(server.searches.at(-1)?.get('format')).toBe('json');
    expect(outcome.untrustedSource).toMatch(/^web search results from 127\.0\.0\.1:\d+$/);
    expect(egress).toEqual([`web search ${server.origin}/search?q=otters+Tagus&format=json`]);
    const one = await webSearch.run({ query: 'otters', limit: 1 }, ctx);
    expect((one.result as { results: unknown[] }).results).toHaveLength(1);
  });

  it('without an endpoint says to set one in Settings, and connects nowhere', async () => {
    const { ctx, egress } = context();
    await expect(webSearch.run({ query: 'otters' }, ctx)).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('in Settings'),
    });
    expect(egress).toEqual([]);
  });

  it('explains an endpoint that refuses JSON or answers something else, and goes nowhere offline', async () => {
    const forbidden = context({ packs: { searchEndpoint: `${server.origin}/search-forbidden` } });
    await expect(webSearch.run({ query: 'otters' }, forbidden.ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('search.formats'),
    });
    const html = context({ packs: { searchEndpoint: `${server.origin}/search-html` } });
    await expect(webSearch.run({ query: 'otters' }, html.ctx)).rejects.toMatchObject({
      code: 'REMOTE_ERROR',
      message: expect.stringContaining('did not answer JSON'),
    });
    const offline = context({ offline: true, packs: { searchEndpoint: `${server.origin}/search` } });
    const before = server.searches.length;
    await expect(webSearch.run({ query: 'otters' }, offline.ctx)).rejects.toMatchObject({ code: 'NETWORK_BLOCKED' });
    expect(server.searches.length).toBe(before);
  });
});
