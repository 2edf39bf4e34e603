import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type HostInternals } from '../../../host/createHost.js';
import { EgressGuard } from '../../../privacy/egressGuard.js';
import { testPackConfig } from '../../packFixture.js';
import { ToolExecutor } from '../../sandbox/toolExecutor.js';
import { startWebTestServer, type WebTestServer } from './webTestServer.js';
import { bundleToolWorker } from '../../../testing/bundleToolWorker.js';

// The web tools on the app's own path: the Host's broker and policy, the sandboxed worker, and the Host's answer to
// the worker's egress requests (the EgressGuard), against a real HTTP server on loopback.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-web-int-')));
const TASK = 'web-research';
let host: HostInternals;
let server: WebTestServer;

beforeAll(async () => {
  server = await startWebTestServer({
    // Offline mode switched on while a redirect chain is under way: the next hop must not be requested.
    onRequest: (path) => {
      if (path === '/to-blocked') host.egress.setOffline(true);
    },
  });
  host = await createHost({ dataDir: join(work, 'data'), shell: 'cli', loadModelOnStart: false });
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
    const ledger = host.egress.list().map((a) => `${a.purpose} ${a.url} ${a.allowed}`);
    expect(ledger).toEqual([
      `web search ${server.origin}/search true`,
      ...['/r1', '/r2', '/r3', '/article'].map((p) => `web page ${server.origin}${p} true`),
    ]);
    expect(host.store.taskSafety.taintSources(TASK)).toEqual([
      expect.stringMatching(/^web search results from 127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^web page 127\.0\.0\.1:\d+$/),
    ]);
  });

  it('offline: a redirect hop after offline mode went on is refused by the guard and never requested', async () => {
    const outcome = await call('web_fetch', { url: `${server.origin}/to-blocked` });
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('Homebody is offline') });
    expect(server.hits).not.toContain('/blocked-target');
    expect(host.egress.list().at(-1)).toMatchObject({ host: 'localhost', allowed: false, purpose: 'web page' });

    const before = server.hits.length;
    const search = await call('web_search', { query: 'otters' });
    expect(search).toMatchObject({ status: 'failed', error: expect.stringContaining('offline') });
    expect(server.hits.length).toBe(before);
    host.egress.setOffline(false);
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
    const guard = new EgressGuard();
    const trashDir = join(work, 'trash');
    mkdirSync(trashDir);
    const executor = new ToolExecutor({
      trashDir,
      workerPath: bundle,
      services: async (request) => {
        if (request.kind !== 'egress') throw new Error('no device here');
        guard.check(request.url, request.purpose);
        return null;
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
      expect(guard.list().map((a) => new URL(a.url).pathname)).toEqual(['/r1', '/r2', '/r3', '/article']);
      guard.setOffline(true);
      await expect(
        executor.run('web_fetch', { url: `${server.origin}/article` }, { roots: [], packs }),
      ).rejects.toMatchObject({ code: 'NETWORK_BLOCKED' });
    } finally {
      await executor.dispose();
    }
  });
});
