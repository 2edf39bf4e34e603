import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiResult, HostEvent } from '../../src-shared/contract/index.js';
import type { HostTransport } from '../host/hostTypes.js';
import { startBrowserServer, TOKEN_META_PLACEHOLDER, type BrowserServer } from './browserServer.js';
import { requestServer } from '../testing/serverTestRequest.js';

/** A stand-in Host: these tests are about the transport's guards, not the services behind it. */
function fakeHost() {
  const listeners = new Set<(e: HostEvent) => void>();
  const calls: Array<[string, unknown]> = [];
  const host: HostTransport = {
    async call(method, request): Promise<ApiResult<unknown>> {
      calls.push([method, request]);
      return { ok: true, value: { echoed: method } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {},
  };
  return { host, calls, emit: (e: HostEvent) => listeners.forEach((l) => l(e)) };
}

const renderer = mkdtempSync(join(tmpdir(), 'hb-renderer-'));
mkdirSync(join(renderer, 'assets'));
writeFileSync(join(renderer, 'index.html'), `<html><head>${TOKEN_META_PLACEHOLDER}</head><body>app</body></html>`);
writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');

let server: BrowserServer;
const fake = fakeHost();
beforeAll(async () => {
  server = await startBrowserServer({ host: fake.host, rendererDir: renderer, port: 0 });
});
afterAll(() => server.close());

const api = (token: string | undefined, extra: Record<string, string> = {}, body = '{}') =>
  requestServer(server.port, '/api/app.info', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-homebody-token': token } : {}), ...extra },
  });

describe('browser mode server', () => {
  it('listens on 127.0.0.1 only, with a long random token in the printed address', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('is not reachable on any non-loopback address of this machine', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === 'IPv4')
      .map((i) => i!.address);
    for (const address of external) {
      await expect(requestServer(server.port, '/', { address })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    }
  });

  it('writes the token into the page only when the address carries it, and never sets a cookie', async () => {
    const page = await requestServer(server.port, `/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<meta name="homebody-token" content="${server.token}">`);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    // A reload, or any other visit: the same app page, with no token in it (the tab keeps its own).
    for (const path of ['/', '/index.html', '/?token=wrong', `/?token=${server.token}x`]) {
      const other = await requestServer(server.port, path);
      expect(other.status, path).toBe(200);
      expect(other.body, path).toContain(TOKEN_META_PLACEHOLDER);
      expect(other.body, path).not.toContain(server.token);
      expect(other.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('names the command that started it in every page, so one opened without the token says where to look', async () => {
    for (const path of ['/', `/?token=${server.token}`]) {
      expect((await requestServer(server.port, path)).body).toContain(
        '<meta name="homebody-command" content="homebody serve">',
      );
    }
    const started = await startBrowserServer({
      host: fake.host,
      rendererDir: renderer,
      port: 0,
      command: 'npm start "<x>"',
    });
    try {
      expect((await requestServer(started.port, '/')).body).toContain(
        '<meta name="homebody-command" content="npm start &quot;&lt;x&gt;&quot;">',
      );
    } finally {
      await started.close();
    }
  });

  it('serves the bundle without the token: a script tag cannot send one, and it holds no secret', async () => {
    const asset = await requestServer(server.port, '/assets/app.js');
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(asset.headers['set-cookie']).toBeUndefined();
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    expect((await api(undefined)).status).toBe(401);
    expect((await api('x'.repeat(43))).status).toBe(401);
    expect(fake.calls).toHaveLength(0);
  });

  it('does not accept a cookie, not even one holding the right token, for API calls', async () => {
    for (const cookie of [`homebody_token_${server.port}=${server.token}`, `token=${server.token}`]) {
      const refused = await api(undefined, { cookie });
      expect(refused.status).toBe(401);
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect(fake.calls).toHaveLength(0);
  });

  it('refuses another Host (DNS rebinding) and another Origin, even with the token', async () => {
    expect((await api(server.token, { host: `evil.example:${server.port}` })).status).toBe(421);
    expect((await api(server.token, { host: `127.0.0.1:${server.port + 1}` })).status).toBe(421);
    expect((await api(server.token, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await api(server.token, { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect(fake.calls).toHaveLength(0);
  });

  it('answers API calls with the token, and rejects bad bodies with clear errors', async () => {
    const ok = await api(server.token, { origin: `http://127.0.0.1:${server.port}` });
    expect(JSON.parse(ok.body)).toEqual({ ok: true, value: { echoed: 'app.info' } });
    const bad = await api(server.token, {}, '{not json');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect((await api(server.token, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await api(server.token, {}, 'x'.repeat(2 << 20))).status).toBe(413);
  });

  it('lets a history import carry a whole backup, and only that method', async () => {
    const body = JSON.stringify({ content: 'x'.repeat(3 << 20) });
    const post = (method: string) =>
      requestServer(server.port, `/api/${method}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-homebody-token': server.token },
      });
    expect((await post('history.import')).status).toBe(200);
    expect(fake.calls.at(-1)?.[0]).toBe('history.import');
    expect((await post('policy.set')).status).toBe(413);
    expect((await post('history.delete')).status).toBe(200);
  });

  it('keeps static files inside the renderer folder', async () => {
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2f..%2fetc/passwd', '/%00']) {
      expect((await requestServer(server.port, path)).status).toBe(404);
    }
  });

  function openSocket(query: string, headers: Record<string, string>): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events${query}`, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  }

  it('streams events over the WebSocket only to a same-origin client with the token', async () => {
    const origin = `http://127.0.0.1:${server.port}`;
    await expect(openSocket('', { origin })).rejects.toThrow(/403/);
    await expect(openSocket('?token=wrong', { origin })).rejects.toThrow(/403/);
    await expect(openSocket(`?token=${server.token}`, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(openSocket(`?token=${server.token}`, {})).rejects.toThrow(/403/);
    // The old cookie, with the right token, opens nothing.
    await expect(openSocket('', { origin, cookie: `homebody_token_${server.port}=${server.token}` })).rejects.toThrow(
      /403/,
    );
    await expect(openSocket(`?token=${server.token}`, { origin, host: `evil.example:${server.port}` })).rejects.toThrow(
      /403/,
    );

    const ws = await openSocket(`?token=${server.token}`, { origin });
    const received = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    const event: HostEvent = { type: 'model.state', state: { status: 'none' } };
    fake.emit(event);
    expect(await received).toEqual(event);
    ws.close();
  });
});
