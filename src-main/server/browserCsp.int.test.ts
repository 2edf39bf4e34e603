import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostTransport } from '../host/hostTypes.js';
import { startBrowserServer, TOKEN_META_PLACEHOLDER, type BrowserServer } from './browserServer.js';

/** The server's headers are what is under test; the Host behind it answers nothing. */
const host: HostTransport = {
  call: async () => ({ ok: true, value: null }),
  subscribe: () => () => {},
  dispose: async () => {},
};

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

const renderer = mkdtempSync(join(tmpdir(), 'hb-csp-'));
mkdirSync(join(renderer, 'assets'));
writeFileSync(join(renderer, 'index.html'), `<html><head>${TOKEN_META_PLACEHOLDER}</head><body></body></html>`);
writeFileSync(join(renderer, 'assets', 'app.js'), 'export {}');

let server: BrowserServer;
beforeAll(async () => {
  server = await startBrowserServer({ host, rendererDir: renderer, port: 0 });
});
afterAll(() => server.close());

async function policyOf(pathname: string): Promise<Map<string, string[]>> {
  const response = await fetch(`http://127.0.0.1:${server.port}${pathname}`, {
    headers: { cookie: `homebody_token_${server.port}=${server.token}` },
  });
  expect(response.status, pathname).toBe(200);
  const header = response.headers.get('content-security-policy');
  expect(header, pathname).not.toBeNull();
  expect(header).not.toMatch(/unsafe-|\*|https?:|wss:/);
  return directives(header ?? '');
}

describe("browser mode's Content Security Policy", () => {
  it.each(['/', '/index.html', '/assets/app.js'])('is strict on %s', async (pathname) => {
    const policy = await policyOf(pathname);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('object-src') ?? policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it("connects only to its own origin: the page's server and that server's event socket", async () => {
    const connect = (await policyOf('/')).get('connect-src') ?? [];
    expect(connect).toContain("'self'");
    const port = String(server.port);
    for (const source of connect.filter((s) => s !== "'self'")) {
      const url = new URL(source);
      expect(url.protocol, source).toBe('ws:');
      expect(['127.0.0.1', 'localhost'], source).toContain(url.hostname);
      expect(url.port, source).toBe(port);
    }
  });
});
