import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { HostEventSchema, type EgressEvent, type HostEvent } from '../../src-shared/contract/index.js';
import { ModelServer } from '../testing/modelServer.js';
import { openStore } from '../store/store.js';
import { createHost, type HostInternals } from './createHost.js';
import { createPrivacyNetworkService } from '../services/privacy/privacyNetworkService.js';

// Offline mode, rules and the ledger through the Host's contract, with a real download from a loopback server.
const modelPath = inject('tinyModelPath');
let server: ModelServer;
const hosts: HostInternals[] = [];

beforeAll(async () => {
  server = await ModelServer.start(modelPath, 'tiny.gguf');
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
});
afterAll(async () => {
  await server.close();
});

async function newHost(dataDir: string, extra: { offline?: boolean } = {}) {
  const host = await createHost({
    dataDir,
    shell: 'cli',
    loadModelOnStart: false,
    engineConfig: { gpu: false },
    ...extra,
  });
  hosts.push(host);
  const recorded: EgressEvent[] = [];
  host.subscribe((event: HostEvent) => {
    // Each pushed event is one the renderer accepts.
    if (event.type === 'egress.recorded') recorded.push(HostEventSchema.parse(event) && event.event);
  });
  return { host, recorded };
}

describe('privacy: network', () => {
  it('is offline with no rules for a new user; a blocked download, then allow, then allowed, all kept across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-privacy-net-'));
    const first = await newHost(dataDir);
    expect(await first.host.invoke('privacy.network', {})).toEqual({
      offline: true,
      rules: [],
      features: [
        { feature: 'model-download', label: 'Model downloads' },
        { feature: 'web', label: 'Web tools (fetch a page, web search)' },
        { feature: 'mail', label: 'Mail (SMTP sending, IMAP reading)' },
        { feature: 'mcp', label: 'MCP servers over HTTP' },
        { feature: 'remote-model', label: 'A model on another computer (llama-server, vLLM, Ollama)' },
      ],
    });

    await expect(first.host.invoke('models.download', { uri: server.url })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message:
        'Offline mode is on: Homebody did not connect to 127.0.0.1 for a model download. Allow it on the Privacy page (Allow "127.0.0.1" for Model downloads).',
    });
    expect(server.requests).toEqual([]);
    expect(first.recorded).toMatchObject([
      { allowed: false, feature: 'model-download', host: '127.0.0.1', via: 'guard' },
    ]);

    const allowed = await first.host.invoke('privacy.allow', { feature: 'model-download', host: '127.0.0.1' });
    expect(allowed).toMatchObject({ offline: true, rules: [{ feature: 'model-download', host: '127.0.0.1' }] });
    // Allowed twice, kept once.
    expect(
      (await first.host.invoke('privacy.allow', { feature: 'model-download', host: '127.0.0.1' })).rules,
    ).toHaveLength(1);

    const download = await first.host.invoke('models.download', { uri: server.url });
    await first.host.models.downloads.idle();
    expect(first.host.models.downloads.get(download.id)?.state).toBe('done');
    const ledger = await first.host.invoke('privacy.ledger', {});
    expect(ledger).toMatchObject({ total: 2, allowedCount: 1 });
    expect(ledger.events).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(Number),
        source: 'model download: tiny.gguf',
        feature: 'model-download',
        url: server.url,
        host: '127.0.0.1',
        port: Number(new URL(server.url).port),
        allowed: true,
        reason: 'rule model-download: 127.0.0.1',
        bytes: server.size,
        via: 'guard',
      },
      expect.objectContaining({ allowed: false, reason: expect.stringMatching(/^Offline mode is on/) }),
    ]);
    // The renderer was told of each event, and of the bytes as they came.
    expect(first.recorded.at(-1)).toMatchObject({ allowed: true, bytes: server.size });
    const audit = await first.host.invoke('audit.list', {});
    expect(audit.events.filter((e) => e.kind === 'network-changed').map((e) => e.summary)).toEqual([
      'Allowed "127.0.0.1" for Model downloads while offline',
    ]);
    await first.host.dispose();

    const second = await newHost(dataDir);
    expect(await second.host.invoke('privacy.network', {})).toMatchObject({
      offline: true,
      rules: [{ feature: 'model-download', host: '127.0.0.1' }],
    });
    expect(await second.host.invoke('privacy.ledger', { allowedOnly: true })).toMatchObject({
      total: 1,
      allowedCount: 1,
      events: [{ source: 'model download: tiny.gguf', bytes: server.size }],
    });
    // Paging back from the newest.
    const page = await second.host.invoke('privacy.ledger', { limit: 1 });
    expect(page.events).toHaveLength(1);
    const older = await second.host.invoke('privacy.ledger', { limit: 1, beforeId: page.events[0]?.id ?? 0 });
    expect(older.events).toMatchObject([{ allowed: false }]);
    expect(older.total).toBe(2);
  });

  it('replaces settings with setNetwork (rules kept once, audited), and validates what crosses the contract', async () => {
    const { host } = await newHost(mkdtempSync(join(tmpdir(), 'hb-privacy-net-')));
    const view = await host.invoke('privacy.setNetwork', {
      offline: false,
      rules: [
        { feature: 'web', host: 'Example.ORG' },
        { feature: 'web', host: 'example.org' },
      ],
    });
    expect(view).toMatchObject({ offline: false, rules: [{ feature: 'web', host: 'example.org' }] });
    // Allowing does not switch offline mode back on, nor off.
    expect((await host.invoke('privacy.allow', { feature: 'mail', host: 'smtp.example.com' })).offline).toBe(false);
    await host.invoke('privacy.setNetwork', { offline: true });
    expect((await host.invoke('privacy.network', {})).rules).toHaveLength(2);
    const summaries = (await host.invoke('audit.list', {})).events
      .filter((e) => e.kind === 'network-changed')
      .map((e) => e.summary);
    expect(summaries).toEqual([
      'Offline mode turned on',
      'Allowed "smtp.example.com" for Mail',
      'Offline mode turned off; Network rules replaced (1 now)',
    ]);
    await expect(host.invoke('privacy.allow', { feature: 'ftp', host: 'x' } as never)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(host.invoke('privacy.allow', { feature: 'web', host: 'http://x/' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('a host name, an IP address, or * for any host'),
    });
    await expect(host.invoke('privacy.ledger', { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('started offline (HOMEBODY_OFFLINE=1): nothing passes, rules included, and the view says offline', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-privacy-net-'));
    const { host } = await newHost(dataDir, { offline: true });
    await host.invoke('privacy.setNetwork', { offline: false, rules: [{ feature: 'model-download', host: '*' }] });
    expect((await host.invoke('privacy.network', {})).offline).toBe(true);
    await expect(host.invoke('models.download', { uri: server.url })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
      message: expect.stringContaining('started offline (HOMEBODY_OFFLINE=1)'),
    });
  });

  it('records connections seen outside the guard, as the shell reports them', async () => {
    const { host, recorded } = await newHost(mkdtempSync(join(tmpdir(), 'hb-privacy-net-')));
    host.recordConnection({
      source: 'renderer',
      url: 'https://fonts.example.net/a.woff2?key=secret',
      via: 'renderer',
      allowed: false,
      reason: 'Offline mode is on',
    });
    expect(recorded).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(Number),
        source: 'renderer',
        feature: null,
        url: 'https://fonts.example.net/a.woff2',
        host: 'fonts.example.net',
        port: 443,
        allowed: false,
        reason: 'Offline mode is on',
        bytes: null,
        via: 'renderer',
      },
    ]);
    expect((await host.invoke('privacy.ledger', {})).events).toEqual(recorded);
  });

  it('records what this process connects to without asking the guard, by the watcher, loopback included', async () => {
    const { host, recorded } = await newHost(mkdtempSync(join(tmpdir(), 'hb-privacy-net-')));
    const port = Number(new URL(server.url).port);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve()));
      socket.on('error', reject);
    });
    expect(recorded).toEqual([
      expect.objectContaining({
        source: 'unattributed (net socket)',
        feature: null,
        url: `tcp://127.0.0.1:${port}`,
        allowed: true,
        reason: 'seen, not asked through the guard',
        via: 'watcher',
      }),
    ]);
    await host.dispose();
    // A disposed Host watches no more.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve()));
      socket.on('error', reject);
    });
    expect(recorded).toHaveLength(1);
  });
});

describe('privacy: what the tool worker reports', () => {
  it('records a connection the worker closed for a call, and refuses a malformed report', () => {
    const store = openStore(':memory:');
    const service = createPrivacyNetworkService({ store, emit: () => {}, forceOffline: false });
    service.recordToolConnection('web_fetch', {
      kind: 'connection',
      url: 'tcp://203.0.113.9:25',
      host: '203.0.113.9',
      port: 25,
      route: 'net socket',
      allowed: false,
      reason:
        'The tool opened a connection to 203.0.113.9:25 that the egress guard had not allowed for it; it was closed.',
    });
    expect(store.egress.page({ limit: 5 }).events).toEqual([
      expect.objectContaining({
        source: 'tool web_fetch (net socket)',
        feature: null,
        host: '203.0.113.9',
        port: 25,
        allowed: false,
        via: 'watcher',
      }),
    ]);
    expect(() => service.recordToolConnection('web_fetch', { kind: 'connection', host: 'x', port: -1 })).toThrow();
    expect(store.egress.page({ limit: 5 }).total).toBe(1);
    service.dispose();
    store.close();
  });
});
