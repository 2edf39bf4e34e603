import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EgressGuard } from '../../privacy/egressGuard.js';
import { MemoryEgressLedger } from '../../privacy/egressLedger.js';
import { SecretStore, type SecretCipher } from '../../privacy/secretStore.js';
import { openStore } from '../../store/store.js';
import { REMOTE_NODES_KEY, RemoteNodes, nodeUrl } from './remoteNodes.js';

function nodesWith(secrets: SecretStore, store = openStore(':memory:')) {
  return {
    store,
    nodes: new RemoteNodes({
      settings: store.settings,
      secrets,
      guard: new EgressGuard({ sink: new MemoryEgressLedger(), settings: { offline: true, rules: [] } }),
      modelState: () => ({ status: 'none' }),
      allowHost: async () => undefined,
      disallowHost: async () => undefined,
      systemPrompt: () => 'You are a test.',
      enableThinking: () => undefined,
    }),
  };
}

const KEYCHAIN: SecretCipher = {
  kind: 'os-keychain',
  encrypt: (plain) => Buffer.from(plain).reverse(),
  decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
};

const stored = (id: string, apiKeySealed: string | null) => ({
  id,
  label: `node ${id}`,
  url: `http://192.168.1.${id.length}:8080`,
  model: 'botpsy',
  contextSize: 8192,
  protocol: 'dialect',
  fingerprint: null,
  apiKeySealed,
  allowOffline: false,
  addedAt: 1,
});

describe("the nodes' API keys at start", () => {
  it('are sealed again with the OS keychain once it is there, and left alone after', () => {
    const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-nodes-')));
    const keyFile = new SecretStore({ dataDir });
    const { store } = nodesWith(keyFile);
    store.settings.set(REMOTE_NODES_KEY, [stored('a', keyFile.seal('sk-one')), stored('b', null)]);

    const desktop = new SecretStore({ dataDir, keychain: { available: true, cipher: KEYCHAIN, backend: 'test' } });
    const { nodes } = nodesWith(desktop, store);
    expect(nodes.sealStoredSecrets()).toBe(true);
    const after = store.settings.get(REMOTE_NODES_KEY) as { apiKeySealed: string | null }[];
    expect(after[0]?.apiKeySealed).toMatch(/^hbo1:/);
    expect(desktop.openOrThrow(after[0]!.apiKeySealed!)).toBe('sk-one');
    expect(after[1]?.apiKeySealed).toBeNull();
    expect(nodes.sealStoredSecrets()).toBe(false);
    expect(nodes.list().map((n) => n.hasApiKey)).toEqual([true, false]);
  });

  it('keeps a key that cannot be opened as it is, and says which', () => {
    const dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-nodes-')));
    const notices: string[] = [];
    const { store, nodes } = nodesWith(
      new SecretStore({
        dataDir,
        notice: (m) => notices.push(m),
        keychain: { available: true, cipher: KEYCHAIN, backend: 'test' },
      }),
    );
    // Sealed with a key file that is gone: not what the keychain seals, and it cannot be opened to seal it again.
    const unreadable = `hbk1:${Buffer.from('not sealed with this key file').toString('base64')}`;
    store.settings.set(REMOTE_NODES_KEY, [stored('a', unreadable)]);
    expect(nodes.sealStoredSecrets()).toBe(false);
    expect((store.settings.get(REMOTE_NODES_KEY) as { apiKeySealed: string }[])[0]?.apiKeySealed).toBe(unreadable);
    expect(notices.join('\n')).toContain('the API key of node a');
  });
});

describe("a node's address as people type it", () => {
  it('is kept as Homebody uses it: no trailing /v1 or slash, http where no scheme is given', () => {
    expect(nodeUrl('http://192.168.1.20:8080/v1/')).toBe('http://192.168.1.20:8080');
    expect(nodeUrl('  https://gpu.lan:8443/v1 ')).toBe('https://gpu.lan:8443');
    expect(nodeUrl('https://gpu.lan/llm/v1')).toBe('https://gpu.lan/llm');
    expect(nodeUrl('192.168.1.20:8080')).toBe('http://192.168.1.20:8080');
    expect(nodeUrl('localhost:8080')).toBe('http://localhost:8080');
    expect(nodeUrl('[::1]:8080/')).toBe('http://[::1]:8080');
  });

  it('is refused with the reason when it cannot be one', () => {
    expect(() => nodeUrl('ftp://192.168.1.20/')).toThrow(/over http or https, not ftp:/);
    expect(() => nodeUrl('http://me:secret@gpu.lan:8080')).toThrow(/Leave the user name and password out/);
    expect(() => nodeUrl('http://gpu.lan:8080/?key=abc')).toThrow(/without a query/);
    expect(() => nodeUrl('http://')).toThrow(/is not a URL/);
    expect(() => nodeUrl('gpu lan:8080')).toThrow(/"gpu lan:8080" is not a URL/);
  });
});
