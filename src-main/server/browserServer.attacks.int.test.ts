import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiResult } from '../../src-shared/contract/index.js';
import type { HostTransport } from '../host/hostTypes.js';
import { startBrowserServer, TOKEN_META_PLACEHOLDER, type BrowserServer } from './browserServer.js';
import { requestServer, type Reply, type RequestInit } from '../testing/serverTestRequest.js';

/**
 * Browser mode under attack: every request here comes from something that is not Homebody's own page (another
 * site, a DNS name rebound to 127.0.0.1, a local process guessing the token, a smuggled request, the cookie an
 * older version set). Each must be refused with the right status, and none may reach the Host: the Host below only
 * records. No answer ever sets a cookie.
 */

const calls: string[] = [];
const host: HostTransport = {
  async call(method): Promise<ApiResult<unknown>> {
    calls.push(method);
    return { ok: true, value: { answered: method } };
  },
  subscribe: () => () => undefined,
  async dispose() {},
};

const SECRET = 'top secret, outside the renderer folder';
const outside = mkdtempSync(join(tmpdir(), 'hb-attacks-'));
const renderer = join(outside, 'renderer');
mkdirSync(join(renderer, 'assets'), { recursive: true });
writeFileSync(join(renderer, 'index.html'), `<html><head>${TOKEN_META_PLACEHOLDER}</head><body>app</body></html>`);
writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(outside, 'secret.txt'), SECRET);
symlinkSync(join(outside, 'secret.txt'), join(renderer, 'assets', 'link.txt'));

let server: BrowserServer;
let port: number;
let token: string;
beforeAll(async () => {
  server = await startBrowserServer({ host, rendererDir: renderer, port: 0 });
  port = server.port;
  token = server.token;
});
afterAll(async () => {
  await server.close();
  rmSync(outside, { recursive: true, force: true });
});
afterEach(() => {
  // The one assertion every case shares: nothing reached the Host.
  expect(calls.splice(0)).toEqual([]);
});

/** Every answer, to anyone: the token never travels in a cookie, so none is ever set. */
async function send(path: string, init: RequestInit = {}): Promise<Reply> {
  const reply = await requestServer(port, path, init);
  expect(reply.headers['set-cookie'], `${init.method ?? 'GET'} ${path}`).toBeUndefined();
  return reply;
}

/** A valid call in every respect but the ones a case overrides. */
const apiCall = (headers: Record<string, string | string[]> = {}, method = 'history.deleteAll') =>
  send(`/api/${method}`, {
    method: 'POST',
    body: '{"confirm":"delete all history"}',
    headers: { 'content-type': 'application/json', 'x-homebody-token': token, ...headers },
  });

/** The cookie older versions set: it must carry no weight anywhere. */
const cookie = () => `homebody_token_${port}=${token}`;

/** Bytes as they are written, for what an HTTP client library would refuse to send. */
function rawExchange(text: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const done = () => {
      clearTimeout(timer);
      resolve(received);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, 5000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', reject);
  }).then((received) => {
    expect(received).not.toMatch(/^set-cookie:/im);
    return received;
  });
}

function upgrade(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => resolve(0));
  });
}

describe('browser mode refuses a missing or wrong token', () => {
  const sameLength = () => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
  const wrongTokens = () => [
    '',
    sameLength(),
    token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
    token.slice(0, -1),
    `${token}x`,
    `${token},${token}`,
    token.slice(0, 16),
  ];

  it('on API calls, whatever the wrong token looks like', async () => {
    for (const wrong of wrongTokens()) {
      const reply = await apiCall({ 'x-homebody-token': wrong });
      expect(reply.status, wrong).toBe(401);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    }
  });

  it('on API calls with the token anywhere but the header: the address, a Referer, a cookie, twice in a header', async () => {
    const noHeader = { 'content-type': 'application/json' };
    const post = (path: string, headers: Record<string, string | string[]>) =>
      send(path, { method: 'POST', body: '{"confirm":"delete all history"}', headers: { ...noHeader, ...headers } });
    expect((await post(`/api/history.deleteAll?token=${token}`, {})).status).toBe(401);
    expect((await post('/api/history.deleteAll', { referer: `http://127.0.0.1:${port}/?token=${token}` })).status).toBe(
      401,
    );
    expect((await post('/api/history.deleteAll', { cookie: cookie() })).status).toBe(401);
    expect((await post('/api/history.deleteAll', { 'x-homebody-token': [token, token] })).status).toBe(401);
  });

  it('on pages: a wrong token, a Referer carrying the right one, or the old cookie get the page without the token', async () => {
    for (const wrong of wrongTokens()) {
      const reply = await send(`/?token=${encodeURIComponent(wrong)}`);
      expect(reply.status, wrong).toBe(200);
      expect(reply.body, wrong).toContain(TOKEN_META_PLACEHOLDER);
      expect(reply.body, wrong).not.toContain(token);
    }
    const carriers: Array<Record<string, string>> = [
      { referer: `http://127.0.0.1:${port}/?token=${token}` },
      { cookie: cookie() },
      { 'x-homebody-token': token },
    ];
    for (const headers of carriers) {
      for (const path of ['/', '/index.html']) {
        const reply = await send(path, { headers });
        expect(reply.status).toBe(200);
        expect(reply.body, `${path} ${JSON.stringify(headers)}`).not.toContain(token);
      }
    }
  });

  it('on API calls with the old cookie and no header, whatever else the call gets right', async () => {
    for (const method of ['history.deleteAll', 'mcp.add', 'mcp.setEnabled', 'app.info']) {
      const reply = await send(`/api/${method}`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}`, cookie: cookie() },
      });
      expect(reply.status, method).toBe(401);
    }
  });
});

describe('browser mode refuses requests that name another host (DNS rebinding)', () => {
  const otherHosts = () => [
    'evil.com',
    `evil.com:${port}`,
    `127.0.0.1.nip.io:${port}`,
    `localhost.evil.com:${port}`,
    `LOCALHOST.evil.com:${port}`,
    `Evil.Com:${port}`,
    `localhost:${port + 1}`,
    `127.0.0.1:${port + 1}`,
    `127.0.0.1:0${port}`,
    `127.0.0.1:${port}.evil.com`,
    `127.0.0.1:${port}@evil.com`,
    `evil.com@127.0.0.1:${port}`,
    `localhost.:${port}`,
    `[::1]:${port}`,
    `[::1]`,
    `[::ffff:127.0.0.1]:${port}`,
    `[0:0:0:0:0:0:0:1]:${port}`,
    `127.1:${port}`,
    `2130706433:${port}`,
    `0x7f.0.0.1:${port}`,
    `0.0.0.0:${port}`,
    '127.0.0.1',
    'localhost',
  ];

  it('on API calls, even with the right token and a matching Origin', async () => {
    for (const name of otherHosts()) {
      const reply = await apiCall({ host: name, origin: `http://${name}` });
      expect(reply.status, name).toBe(421);
    }
  });

  it('on pages: the token in the address is neither echoed nor set as a cookie', async () => {
    for (const name of otherHosts()) {
      const reply = await send(`/?token=${token}`, { headers: { host: name } });
      expect(reply.status, name).toBe(421);
      expect(reply.body).not.toContain(token);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('when the Host header is missing or empty', async () => {
    for (const [version, hostLine] of [
      ['1.0', ''],
      ['1.1', ''],
      ['1.1', 'host: \r\n'],
    ]) {
      const reply = await rawExchange(
        `POST /api/history.deleteAll HTTP/${version}\r\n${hostLine}content-type: application/json\r\nx-homebody-token: ${token}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
      );
      expect(reply, `HTTP/${version} ${JSON.stringify(hostLine)}`).toMatch(/^HTTP\/1\.[01] 4(21|00) /);
    }
  });
});

describe('browser mode refuses other origins', () => {
  const otherOrigins = () => [
    'https://evil.com',
    'http://evil.com',
    'null',
    '',
    `http://localhost:${port + 1}`,
    `http://127.0.0.1:${port + 1}`,
    `https://127.0.0.1:${port}`,
    `http://127.0.0.1:${port}.evil.com`,
    `http://127.0.0.1.nip.io:${port}`,
    `http://[::1]:${port}`,
    `http://localhost.:${port}`,
    `file://`,
    `homebody://app`,
  ];

  it('on API calls, even with the right token and Host', async () => {
    for (const origin of otherOrigins()) {
      expect((await apiCall({ origin })).status, origin).toBe(403);
    }
  });

  it('on pages, even with the token in the address', async () => {
    for (const origin of otherOrigins()) {
      const reply = await send(`/?token=${token}`, { headers: { origin } });
      expect(reply.status, origin).toBe(403);
      expect(reply.body).not.toContain(token);
    }
  });

  it('grants no CORS preflight: no Access-Control-Allow-Origin, whoever asks', async () => {
    const preflight = (origin: string | undefined, withToken: boolean) =>
      send('/api/history.deleteAll', {
        method: 'OPTIONS',
        headers: {
          ...(origin === undefined ? {} : { origin }),
          ...(withToken ? { 'x-homebody-token': token } : {}),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-homebody-token',
        },
      });
    const replies = [
      [await preflight('https://evil.com', false), 403],
      [await preflight('null', true), 403],
      [await preflight(`http://127.0.0.1:${port}`, false), 401],
      [await preflight(undefined, true), 405],
    ] as const;
    for (const [reply, status] of replies) {
      expect(reply.status).toBe(status);
      for (const name of Object.keys(reply.headers)) expect(name).not.toMatch(/^access-control-/);
    }
    // Nor does an answered call from our own page carry one: nothing invites another origin to read it.
    const answered = await apiCall({ origin: `http://127.0.0.1:${port}` }, 'app.info');
    expect(answered.status).toBe(200);
    for (const name of Object.keys(answered.headers)) expect(name).not.toMatch(/^access-control-/);
    expect(calls.splice(0)).toEqual(['app.info']);
  });
});

describe('browser mode refuses cross-site WebSocket upgrades', () => {
  it('from another origin, with no origin, to another Host or path, or with the cookie of a cross-site page', async () => {
    const own = `http://127.0.0.1:${port}`;
    const cases: Array<[string, Record<string, string>]> = [
      [`/events?token=${token}`, { origin: 'https://evil.com' }],
      [`/events?token=${token}`, { origin: 'null' }],
      [`/events?token=${token}`, { origin: `http://localhost:${port + 1}` }],
      [`/events?token=${token}`, { origin: `http://127.0.0.1.nip.io:${port}` }],
      [`/events?token=${token}`, {}],
      [`/events?token=${token}`, { origin: own, host: `127.0.0.1.nip.io:${port}` }],
      [`/events?token=${token}`, { origin: `http://evil.com:${port}`, host: `evil.com:${port}` }],
      [`/events?token=${token}`, { origin: own, host: `[::1]:${port}` }],
      ['/events', { origin: 'https://evil.com', cookie: cookie() }],
      // The cookie older versions set, from our own page: no longer a way in.
      ['/events', { origin: own, cookie: cookie() }],
      ['/events', { origin: own, cookie: `homebody_token_${port + 1}=${token}` }],
      ['/events', { origin: own, referer: `${own}/?token=${token}` }],
      ['/events', { origin: own, 'x-homebody-token': token }],
      [`/events?token=${token.slice(0, -1)}`, { origin: own }],
      [`/api/app.info?token=${token}`, { origin: own }],
      [`/Events?token=${token}`, { origin: own }],
      [`/events/?token=${token}`, { origin: own }],
    ];
    for (const [path, headers] of cases) {
      expect(await upgrade(path, headers), `${path} ${JSON.stringify(headers)}`).toBe(403);
    }
    // The same socket opens for our own page (the token in its address): the refusals above are the checks, not a
    // broken upgrade.
    expect(await upgrade(`/events?token=${token}`, { origin: own })).toBe(101);
  });
});

describe('browser mode keeps static files inside the renderer folder', () => {
  it('refuses traversal however it is spelt, and never serves what lies outside', async () => {
    const paths = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/.%2e/secret.txt',
      '/%252e%252e/secret.txt',
      '/..%5csecret.txt',
      '/assets%5c..%5c..%5csecret.txt',
      '/..\\secret.txt',
      '/assets\\..\\..\\secret.txt',
      '/assets/app.js%00.png',
      '/index.html%00',
      '/%00../secret.txt',
      '/%c0%ae%c0%ae/secret.txt',
      '/%e0%80%ae%e0%80%ae/secret.txt',
      `/${outside.slice(1)}/secret.txt`,
      `/${encodeURIComponent(join(outside, 'secret.txt'))}`,
      '/assets/link.txt',
      '/assets',
      '/assets/',
    ];
    for (const path of paths) {
      const reply = await send(path);
      expect([400, 404], path).toContain(reply.status);
      expect(reply.body, path).not.toContain(SECRET);
    }
  });

  it('reads a path that starts with two slashes as a host name, and serves the app page, not a file', async () => {
    const reply = await send('//secret.txt');
    expect(reply.body).not.toContain(SECRET);
    expect(reply.body).toContain('<body>app</body>');
  });

  it('refuses a raw NUL byte or a raw ../ in the request line', async () => {
    for (const target of [
      '/assets/app.js\u0000.png',
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/assets/../../secret.txt',
    ]) {
      const reply = await rawExchange(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
      expect(reply, JSON.stringify(target)).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(reply).not.toContain(SECRET);
    }
  });
});

describe('browser mode refuses HTTP method tricks', () => {
  it('API calls are POST only, whatever else the request gets right', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
      const reply = await send('/api/history.deleteAll', {
        method,
        headers: { 'content-type': 'application/json', 'x-homebody-token': token },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{"confirm":"delete all history"}' }),
      });
      expect(reply.status, method).toBe(405);
    }
    const overridden = await send(`/api/history.deleteAll?token=${token}&_method=POST`, {
      headers: { 'x-http-method-override': 'POST', 'x-homebody-token': token },
    });
    expect(overridden.status).toBe(405);
  });

  it('pages are GET and HEAD only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const reply = await send(`/?token=${token}`, { method, body: 'x' });
      expect(reply.status, method).toBe(405);
      expect(reply.body).not.toContain(token);
    }
  });

  it('a CONNECT to the server goes nowhere', async () => {
    const reply = await rawExchange(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    expect(reply).not.toMatch(/^HTTP\/1\.1 2/);
  });
});

describe('browser mode refuses request smuggling', () => {
  const head = (lines: string[]) =>
    [
      'POST /api/history.deleteAll HTTP/1.1',
      `host: 127.0.0.1:${port}`,
      'content-type: application/json',
      `x-homebody-token: ${token}`,
      ...lines,
      'connection: close',
      '',
      '',
    ].join('\r\n');
  const body = '{"confirm":"delete all history"}';

  it('refuses two Content-Length headers, or Content-Length with chunked', async () => {
    for (const lines of [
      [`content-length: ${body.length}`, 'content-length: 2'],
      [`content-length: ${body.length}`, `content-length: ${body.length}`],
      [`content-length: ${body.length}, 2`],
      [`content-length: ${body.length}`, 'transfer-encoding: chunked'],
      ['transfer-encoding: chunked', 'transfer-encoding: identity'],
      ['transfer-encoding: chunked, identity'],
      ['transfer-encoding: xchunked'],
      [`content-length: +${body.length}`],
      [`content-length: -1`],
    ]) {
      const reply = await rawExchange(head(lines) + body);
      expect(reply, lines.join(' | ')).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
  });

  it('judges a request hidden after a body on its own, and refuses it', async () => {
    const hidden = [
      'POST /api/history.deleteAll HTTP/1.1',
      `host: evil.com:${port}`,
      'content-type: application/json',
      `content-length: ${body.length}`,
      'connection: close',
      '',
      body,
    ].join('\r\n');
    const first = [
      'POST /api/history.deleteAll HTTP/1.1',
      `host: 127.0.0.1:${port}`,
      'content-type: application/json',
      'x-homebody-token: wrong',
      'content-length: 2',
      '',
      '{}',
    ].join('\r\n');
    const reply = await rawExchange(first + hidden);
    const statuses = [...reply.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    // The first is refused for its token, the hidden one for its Host: each was read as the request it is.
    expect(statuses).toEqual([401, 421]);
  });
});
