import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type HostInternals } from '../../../host/createHost.js';
import { EgressGuard } from '../../../privacy/egressGuard.js';
import { MemoryEgressLedger } from '../../../privacy/egressLedger.js';
import { testPackConfig } from '../../../testing/tools/packFixture.js';
import { ToolExecutor } from '../../sandbox/toolExecutor.js';
import { startWebTestServer, type WebTestServer } from '../../../testing/tools/webTestServer.js';
import { bundleToolWorker } from '../../../testing/bundleToolWorker.js';
import { COMPILED_TOOL_WORKER } from '../../../testing/compiledApp.js';

// The web tools on the app's own path: the Host's broker and policy, the sandboxed worker, and the Host's answer to
// the worker's egress requests (the EgressGuard), against a real HTTP server on loopback.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-web-int-')));
const TASK = 'web-research';
const LOOPBACK_RULES = [
  { feature: 'web' as const, host: '127.0.0.1' },
  { feature: 'web' as const, host: 'localhost' },
];
let host: HostInternals;
let server: WebTestServer;

beforeAll(async () => {
  server = await startWebTestServer({
    // The rule for localhost withdrawn while a redirect chain is under way: the next hop must not be requested.
    onRequest: (path) => {
      if (path === '/to-blocked') void host.invoke('privacy.setNetwork', { rules: LOOPBACK_RULES.slice(0, 1) });
    },
  });
  host = await createHost({
    toolWorker: COMPILED_TOOL_WORKER,
    dataDir: join(work, 'data'),
    shell: 'cli',
    loadModelOnStart: false,
  });
  // Offline mode stays on; the test server is reached by name and by address, each allowed by a rule naming it.
  await host.invoke('privacy.setNetwork', { rules: LOOPBACK_RULES });
  await host.invoke('policy.setMode', { tool: 'web_fetch', mode: 'auto' });
  await host.invoke('policy.setMode', { tool: 'web_search', mode: 'auto' });
  await host.invoke('packs.setSettings', { searchEndpoint: `${server.origin}/search` });
  host.store.tasks.create({ id: TASK, title: 'Otter research', now: Date.now() });
});
afterAll(async () => {
  await host?.dispose();
  await server?.close();
});

const call = (tool: string, args: Record<string, unknown>) =>
  host.tools.propose({ taskId: TASK, tool, args, actor: 'cli', interactive: false });

describe('web tools through the Host', () => {
  it('search, then read a result behind redirects: each request is in the egress ledger, and the task is tainted', async () => {
    const search = await call('web_search', { query: 'otters Tagus' });
    expect(search.status).toBe('done');
    expect(JSON.stringify(search.status === 'done' && search.result)).toContain('https://otters.example/tagus');

    const page = await call('web_fetch', { url: `${server.origin}/r1` });
    expect(page.status).toBe('done');
    expect(page.status === 'done' && page.result).toMatchObject({
      url: `${server.origin}/article`,
      text: expect.stringContaining('Eurasian otters have been seen again'),
    });
    const { events } = await host.invoke('privacy.ledger', { allowedOnly: true });
    const ledger = events.reverse().map((e) => `${e.source} ${e.url} ${e.reason}`);
    expect(ledger).toEqual([
      `tool web_search (web search) ${server.origin}/search rule web: 127.0.0.1`,
      ...['/r1', '/r2', '/r3', '/article'].map(
        (p) => `tool web_fetch (web page) ${server.origin}${p} rule web: 127.0.0.1`,
      ),
    ]);
    expect(host.store.taskSafety.taintSources(TASK)).toEqual([
      expect.stringMatching(/^web search results from 127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^web page 127\.0\.0\.1:\d+$/),
    ]);
  });

  it('offline: a redirect hop to a host whose rule was withdrawn meanwhile is refused and never requested', async () => {
    const outcome = await call('web_fetch', { url: `${server.origin}/to-blocked` });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('Offline mode is on: Homebody did not connect to localhost for the web tools.'),
    });
    expect(server.hits).not.toContain('/blocked-target');
    const [last] = (await host.invoke('privacy.ledger', { limit: 1 })).events;
    expect(last).toMatchObject({
      host: 'localhost',
      allowed: false,
      feature: 'web',
      source: 'tool web_fetch (web page)',
    });

    await host.invoke('privacy.setNetwork', { rules: [] });
    const before = server.hits.length;
    const search = await call('web_search', { query: 'otters' });
    expect(search).toMatchObject({ status: 'failed', error: expect.stringContaining('Offline mode is on') });
    expect(server.hits.length).toBe(before);
    await host.invoke('privacy.setNetwork', { rules: LOOPBACK_RULES });
  });

  it('without a search endpoint, web_search says to set one in Settings', async () => {
    await host.invoke('packs.setSettings', { searchEndpoint: null });
    const outcome = await call('web_search', { query: 'otters' });
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('in Settings') });
  });
});

describe('web tools in the worker bundled to JavaScript', () => {
  it('reads a page under the permission wall, with the guard answering each hop', async () => {
    const bundle = await bundleToolWorker(join(work, 'bundle'));
    const ledger = new MemoryEgressLedger();
    const guard = new EgressGuard({ sink: ledger, settings: { offline: true, rules: LOOPBACK_RULES.slice(0, 1) } });
    const trashDir = join(work, 'trash');
    mkdirSync(trashDir);
    const executor = new ToolExecutor({
      trashDir,
      workerPath: bundle,
      services: async (request) => {
        if (request.kind !== 'egress') throw new Error('no device here');
        return { hostNamed: guard.check(request.url, request.feature, request.purpose).hostNamed };
      },
    });
    try {
      expect(executor.permissionWall).toBe(true);
      const packs = testPackConfig(join(work, 'packs'));
      const { result, untrustedSource } = await executor.run(
        'web_fetch',
        { url: `${server.origin}/r1` },
        { roots: [], packs },
      );
      expect(result).toMatchObject({
        title: expect.stringContaining('Otters'),
        text: expect.stringContaining('Tagus'),
      });
      expect(untrustedSource).toMatch(/^web page /);
      expect(ledger.list().map((a) => new URL(a.url).pathname)).toEqual(['/r1', '/r2', '/r3', '/article']);
      guard.setSettings({ offline: true, rules: [] });
      await expect(
        executor.run('web_fetch', { url: `${server.origin}/article` }, { roots: [], packs }),
      ).rejects.toMatchObject({ code: 'NETWORK_BLOCKED' });
    } finally {
      await executor.dispose();
    }
  });
});
