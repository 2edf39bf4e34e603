import { describe, expect, it } from 'vitest';
import {
  EGRESS_FEATURES,
  HomebodyError,
  isOfflineRefusal,
  type NetworkSettings,
} from '../../src-shared/contract/index.js';
import { EgressGuard } from './egressGuard.js';
import { MemoryEgressLedger } from './egressLedger.js';

function blocked(fn: () => unknown): HomebodyError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HomebodyError) return error;
    throw error;
  }
  throw new Error('expected the guard to refuse');
}

function setup(settings: NetworkSettings = { offline: true, rules: [] }, extra: { forceOffline?: boolean } = {}) {
  let now = 1000;
  const ledger = new MemoryEgressLedger();
  const guard = new EgressGuard({ settings, sink: ledger, now: () => now, ...extra });
  return { guard, ledger, advance: (ms: number) => (now += ms) };
}

describe('EgressGuard, offline (the default)', () => {
  it('is offline with no rules by default, and refuses every feature with what to do about it', () => {
    const guard = new EgressGuard();
    expect(guard.offline).toBe(true);
    expect(guard.settings()).toEqual({ offline: true, rules: [] });
    const error = blocked(() => guard.check('smtp://smtp.example.com:587', 'mail', 'tool send_mail'));
    expect(error.code).toBe('NETWORK_BLOCKED');
    expect(error.message).toBe(
      'Offline mode is on: Homebody did not connect to smtp.example.com for mail. Allow it on the Privacy page (Allow "smtp.example.com" for Mail).',
    );
    for (const feature of EGRESS_FEATURES) {
      expect(() => guard.check('https://example.org/', feature, 'test')).toThrow(/Offline mode is on/);
    }
    // The renderer knows a refusal by its words (a failed tool call carries only them) and offers the Privacy page.
    expect(isOfflineRefusal(error.message)).toBe(true);
    expect(isOfflineRefusal(guard.judgeUnasked('example.org').reason)).toBe(true);
    expect(isOfflineRefusal('Homebody connects only over http(s), smtp(s) and imap(s), not ftp.')).toBe(false);
    expect(isOfflineRefusal(null)).toBe(false);
  });

  it('allows, for each feature, what a rule names (host or *), whatever the port, and records which rule did', () => {
    const { guard, ledger } = setup({
      offline: true,
      rules: [
        { feature: 'mail', host: 'smtp.example.com' },
        { feature: 'model-download', host: 'huggingface.co' },
        { feature: 'web', host: '*' },
        { feature: 'mcp', host: 'tools.example.net' },
      ],
    });
    const mail = guard.check('smtps://SMTP.example.com:2465', 'mail', 'tool send_mail');
    expect(mail.event).toMatchObject({ host: 'smtp.example.com', port: 2465, reason: 'rule mail: smtp.example.com' });
    expect(mail.hostNamed).toBe(true);
    expect(guard.check('https://huggingface.co/x.gguf', 'model-download', 'dl').event.reason).toBe(
      'rule model-download: huggingface.co',
    );
    const web = guard.check('https://example.org:8443/a?q=secret#f', 'web', 'tool web_fetch (web page)');
    expect(web.event).toMatchObject({ url: 'https://example.org:8443/a', port: 8443, reason: 'rule web: *' });
    expect(web.hostNamed).toBe(false);
    expect(guard.check('https://tools.example.net/mcp', 'mcp', 'MCP server t').event.reason).toBe(
      'rule mcp: tools.example.net',
    );
    // A rule is for its feature only.
    expect(() => guard.check('https://huggingface.co/', 'mcp', 'MCP server hf')).toThrow(/Offline mode is on/);
    expect(() => guard.check('imaps://smtp.example.org', 'mail', 'tool mail_inbox')).toThrow(/Offline mode is on/);
    expect(ledger.list().map((e) => [e.feature, e.allowed, e.via])).toEqual([
      ['mail', true, 'guard'],
      ['model-download', true, 'guard'],
      ['web', true, 'guard'],
      ['mcp', true, 'guard'],
      ['mcp', false, 'guard'],
      ['mail', false, 'guard'],
    ]);
  });

  it('records each attempt in its sink with source, feature, host, port, reason and bytes, never the query', () => {
    const { guard, ledger } = setup({ offline: false, rules: [] });
    const ticket = guard.check(
      'https://huggingface.co/q/x/resolve/main/a.gguf?token=secret#frag',
      'model-download',
      'model download: BotPsy',
    );
    ticket.setBytes(1234, true);
    expect(ledger.list()).toEqual([
      {
        id: 1,
        at: 1000,
        source: 'model download: BotPsy',
        feature: 'model-download',
        url: 'https://huggingface.co/q/x/resolve/main/a.gguf',
        host: 'huggingface.co',
        port: 443,
        allowed: true,
        reason: 'online',
        bytes: 1234,
        via: 'guard',
      },
    ]);
  });

  it('records what a request to a model on another computer carried, with its bytes both ways', () => {
    const { guard, ledger } = setup({ offline: true, rules: [{ feature: 'remote-model', host: '192.168.1.20' }] });
    const ticket = guard.check(
      'http://192.168.1.20:8080/completion',
      'remote-model',
      'model on node',
      'the conversation',
    );
    ticket.setBytes(0, false, 5000);
    ticket.setBytes(812, true);
    expect(ledger.list()).toMatchObject([
      { feature: 'remote-model', allowed: true, reason: 'rule remote-model: 192.168.1.20', sent: 5000, bytes: 812 },
    ]);
    expect(ledger.list()[0]!.carried).toBe('the conversation');
    // Another host is refused offline, and the refusal says what it would have carried.
    expect(() =>
      guard.check('http://10.0.0.9:8080/completion', 'remote-model', 'model on node', 'the conversation'),
    ).toThrow(/offline.*a model on another computer/i);
    expect(ledger.list()[1]).toMatchObject({ allowed: false, sent: null, bytes: null, carried: 'the conversation' });
  });

  it('refuses other schemes and invalid URLs in any mode, and records the refusal without bytes', () => {
    const { guard, ledger } = setup({ offline: false, rules: [] });
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.gguf', 'not a url', 'ws://127.0.0.1/']) {
      expect(blocked(() => guard.check(url, 'web', 'test')).code).toBe('NETWORK_BLOCKED');
    }
    expect(blocked(() => guard.check('ftp://example.com/a', 'web', 'test')).message).toMatch(
      /only over http\(s\), smtp\(s\) and imap\(s\), not ftp/,
    );
    expect(ledger.list().every((e) => !e.allowed && e.bytes === null)).toBe(true);
    expect(ledger.list().map((e) => e.url)).toContain('not a url');
  });

  it('gives the mail schemes their default ports', () => {
    const { guard } = setup({ offline: false, rules: [] });
    const ports = [
      'smtp://m.example.org',
      'smtps://m.example.org',
      'imap://m.example.org',
      'imaps://m.example.org',
    ].map((url) => guard.check(url, 'mail', 'mail').event.port);
    expect(ports).toEqual([25, 465, 143, 993]);
  });

  it('preflight refuses (and records) what check would refuse, and records nothing it would allow', () => {
    const { guard, ledger } = setup({ offline: true, rules: [{ feature: 'model-download', host: 'hf.co' }] });
    guard.preflight('https://hf.co/a.gguf', 'model-download', 'dl');
    expect(ledger.list()).toEqual([]);
    expect(() => guard.preflight('https://other.example/a.gguf', 'model-download', 'dl')).toThrow(/Offline/);
    expect(ledger.list()).toMatchObject([{ host: 'other.example', allowed: false }]);
  });
});

describe('EgressGuard, online', () => {
  it('allows every feature with reason "online", and follows settings changes at once', () => {
    const { guard } = setup({ offline: false, rules: [] });
    for (const feature of EGRESS_FEATURES) {
      expect(guard.check('https://example.org/', feature, 'test').event.reason).toBe('online');
    }
    guard.setSettings({ offline: true, rules: [] });
    expect(() => guard.check('https://example.org/', 'web', 'test')).toThrow(/Offline mode is on/);
  });

  it.each([
    ['http://127.0.0.1:8080/'],
    ['http://localhost/'],
    ['http://[::1]:3000/'],
    ['http://[fd00::5]/'],
    ['http://[fe80::1]/'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://10.1.2.3/'],
    ['http://172.20.0.1/'],
    ['http://192.168.0.1/admin'],
    ['http://100.100.100.100/'],
    ['http://0.0.0.0/'],
    ['http://[::ffff:127.0.0.1]/'],
    ['http://2130706433/'],
  ])('refuses the web tools %s unless a rule names that exact host', (url) => {
    const { guard } = setup({ offline: false, rules: [{ feature: 'web', host: '*' }] });
    const error = blocked(() => guard.check(url, 'web', 'tool web_fetch'));
    expect(error.message).toMatch(
      /this machine or the local network\. Allow it on the Privacy page \(Allow ".+" for Web tools\)/,
    );
    const host = new URL(url).hostname;
    guard.setSettings({ offline: false, rules: [{ feature: 'web', host }] });
    const ticket = guard.check(url, 'web', 'tool web_fetch');
    expect(ticket.hostNamed).toBe(true);
    expect(ticket.event.reason).toMatch(/^rule web: /);
  });

  it('lets the other features reach loopback online (a local model server, SMTP relay, MCP server)', () => {
    const { guard } = setup({ offline: false, rules: [] });
    for (const feature of ['mail', 'mcp', 'model-download'] as const) {
      expect(guard.check('http://127.0.0.1:2525/', feature, 'test').event.allowed).toBe(true);
    }
  });
});

describe('EgressGuard, forced offline (HOMEBODY_OFFLINE=1)', () => {
  it('refuses everything, rules and online settings included, and says how it was started', () => {
    const { guard } = setup({ offline: false, rules: [{ feature: 'mail', host: '*' }] }, { forceOffline: true });
    expect(guard.offline).toBe(true);
    expect(guard.forcedOffline).toBe(true);
    expect(blocked(() => guard.check('smtp://127.0.0.1:2525', 'mail', 'tool send_mail')).message).toMatch(
      /started offline \(HOMEBODY_OFFLINE=1\): it did not connect to 127\.0\.0\.1 for mail/,
    );
    expect(guard.settings().offline).toBe(false);
  });
});

describe('EgressGuard tickets', () => {
  it('cover their host and port for the ticket window, renewed by bytes reported', () => {
    const { guard, advance } = setup({ offline: false, rules: [] });
    const ticket = guard.check('https://example.org:8443/', 'web', 'test');
    expect(guard.covers('EXAMPLE.org', 8443)).toBe(true);
    expect(guard.covers('example.org', 443)).toBe(false);
    advance(25_000);
    ticket.setBytes(10);
    advance(25_000);
    expect(guard.covers('example.org', 8443)).toBe(true);
    advance(31_000);
    expect(guard.covers('example.org', 8443)).toBe(false);
  });

  it('write bytes at most once per interval, always the last value, at once when final', async () => {
    const { guard, ledger } = setup({ offline: false, rules: [] });
    const writes: number[] = [];
    const sink = { record: ledger.record.bind(ledger), setBytes: (_: number, b: number) => writes.push(b) };
    const throttled = new EgressGuard({ settings: guard.settings(), sink, now: () => 0, bytesIntervalMs: 20 });
    const ticket = throttled.check('https://example.org/', 'model-download', 'dl');
    for (let b = 1; b <= 50; b++) ticket.setBytes(b);
    expect(writes).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toEqual([1, 50]);
    ticket.setBytes(70, true);
    expect(writes).toEqual([1, 50, 70]);
    // Closing writes what waits, then takes nothing more (the ledger's store is about to close).
    ticket.setBytes(80);
    throttled.dispose();
    ticket.setBytes(90, true);
    expect(writes).toEqual([1, 50, 70, 80]);
  });
});

describe('EgressGuard, connections no feature asked for', () => {
  it('pass on loopback, pass online, and offline pass only for a host some rule names', () => {
    const { guard } = setup({ offline: true, rules: [{ feature: 'mail', host: 'smtp.example.com' }] });
    expect(guard.judgeUnasked('127.0.0.1')).toMatchObject({ allowed: true });
    expect(guard.judgeUnasked('::1')).toMatchObject({ allowed: true });
    expect(guard.judgeUnasked('smtp.example.com')).toMatchObject({ allowed: true });
    expect(guard.judgeUnasked('tracker.example.net')).toEqual({
      allowed: false,
      reason: 'Offline mode is on: a connection to tracker.example.net that no feature asked for was closed.',
    });
    guard.setSettings({ offline: false, rules: [] });
    expect(guard.judgeUnasked('tracker.example.net')).toEqual({
      allowed: true,
      reason: 'seen, not asked through the guard',
    });
  });

  it('offline, pass while a model download runs (its redirect to a mirror), and not after its window', () => {
    const { guard, advance } = setup({ offline: true, rules: [{ feature: 'model-download', host: 'huggingface.co' }] });
    const ticket = guard.check('https://huggingface.co/a.gguf', 'model-download', 'model download: BotPsy');
    expect(guard.judgeUnasked('cdn-lfs.hf.co')).toEqual({
      allowed: true,
      reason: 'seen while "model download: BotPsy" was downloading (a redirect or mirror of it)',
    });
    advance(20_000);
    ticket.setBytes(100);
    advance(20_000);
    expect(guard.judgeUnasked('cdn-lfs.hf.co').allowed).toBe(true);
    advance(31_000);
    expect(guard.judgeUnasked('cdn-lfs.hf.co').allowed).toBe(false);
  });
});
