import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../src-shared/contract/index.js';
import { SecretStore, type SecretCipher } from '../../privacy/secretStore.js';
import { openStore } from '../../store/store.js';
import { sealedMcpStore } from './sealedMcpStore.js';

const http: McpServerConfig = {
  name: 'remote',
  transport: { kind: 'http', url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer t0k-42' } },
};
const stdio: McpServerConfig = {
  name: 'local',
  transport: { kind: 'stdio', command: 'node', args: ['server.js'], env: { API_KEY: 'k3y-42', MODE: 'plain' } },
};

const keychainCipher: SecretCipher = {
  kind: 'os-keychain',
  encrypt: (plain) => Buffer.from(plain).reverse(),
  decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
};

function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-sealed-mcp-'));
  const store = openStore(':memory:');
  const notices: string[] = [];
  const secrets = new SecretStore({ dataDir, notice: (m) => notices.push(m) });
  return { dataDir, store, notices, secrets, sealed: sealedMcpStore(store.mcp, secrets) };
}

describe('the MCP servers’ store with sealed values', () => {
  it('stores env and header values sealed, names in clear, and gives them back as they were', () => {
    const { store, sealed } = setup();
    sealed.add([http, stdio], 1);
    const raw = JSON.stringify(store.mcp.list());
    expect(raw).not.toContain('t0k-42');
    expect(raw).not.toContain('k3y-42');
    expect(raw).not.toContain('"plain"');
    expect(raw).toContain('Authorization');
    expect(raw).toContain('API_KEY');
    expect(sealed.list().map((s) => s.config)).toEqual([stdio, http]); // by name, added together
    expect(sealed.sealStored()).toBe(false);
  });

  it('seals a configuration stored in clear, and, with the keychain, values the key file sealed', () => {
    const { store, sealed, dataDir } = setup();
    store.mcp.add([stdio], 1);
    expect(sealed.list()[0]?.config).toEqual(stdio);
    expect(sealed.sealStored()).toBe(true);
    expect(JSON.stringify(store.mcp.list())).not.toContain('k3y-42');
    expect(sealed.list()[0]?.config).toEqual(stdio);

    const desktop = sealedMcpStore(
      store.mcp,
      new SecretStore({ dataDir, keychain: { available: true, cipher: keychainCipher, backend: 'test' } }),
    );
    expect(desktop.sealStored()).toBe(true);
    const env = (store.mcp.list()[0]?.config as { transport: { env: Record<string, string> } }).transport.env;
    expect(Object.values(env).every((v) => v.startsWith('hbo1:'))).toBe(true);
    expect(desktop.list()[0]?.config).toEqual(stdio);
    expect(desktop.sealStored()).toBe(false);
  });

  it('leaves out a value it cannot open, names it in a notice, and keeps it stored for a key that comes back', () => {
    const { store, sealed, dataDir, notices } = setup();
    sealed.add([http], 1);
    const before = JSON.stringify(store.mcp.list());
    rmSync(join(dataDir, 'secret.key'));
    expect(sealed.list()[0]?.config).toEqual({ ...http, transport: { ...http.transport, headers: {} } });
    expect(notices).toEqual([
      expect.stringContaining('The header Authorization of the MCP server "remote" could not be decrypted'),
    ]);
    expect(sealed.sealStored()).toBe(false);
    expect(JSON.stringify(store.mcp.list())).toBe(before);
  });
});
