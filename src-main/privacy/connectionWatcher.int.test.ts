import { once } from 'node:events';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  watchConnections,
  type ConnectionVerdict,
  type ConnectionWatcherOptions,
  type SeenConnection,
} from './connectionWatcher.js';

// A self-signed certificate for 127.0.0.1 and localhost, for the https routes only (test-only, never trusted).
const CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIULYC47GeNqNVR1zvS9M0NBwl3JHswCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEzMDE0MzYxMloYDzIxMjYxMTA2
MTQzNjEyWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATRsMAjy0zj+T25EIeETKH+oYJCkvCNmQ7BroqWXWM4BqKFd32crLF+
iJWU61AEY1XayQmPkJirE0iC0r+hibt6o28wbTAdBgNVHQ4EFgQUxvB2YsDnaqYz
BEurSR5+DhZlaKswHwYDVR0jBBgwFoAUxvB2YsDnaqYzBEurSR5+DhZlaKswDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDRwAwRAIgGq6Kl3G+cYlfR/Z37t5LaLfvU3nENgshOD1Jo/z13ZoCIEt7
j0Dx8QWPngFWO6dn+wakEYWknefmtuNfS0CGxvrM
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQguOwCILtScfgCFg+b
k0lWqHdX2/JrrUv2/d+MSISh72GhRANCAATRsMAjy0zj+T25EIeETKH+oYJCkvCN
mQ7BroqWXWM4BqKFd32crLF+iJWU61AEY1XayQmPkJirE0iC0r+hibt6
-----END PRIVATE KEY-----
`;

let plain: Server;
let secure: Server;
/** Bytes each server received from clients: a refused connection must have sent none. */
const received = { plain: 0, secure: 0 };
const portOf = (server: Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  plain = createHttpServer((_req, res) => res.end('plain'));
  plain.on('connection', (socket) => socket.on('data', (d: Buffer) => (received.plain += d.length)));
  secure = createHttpsServer({ cert: CERT, key: KEY }, (_req, res) => res.end('secure'));
  secure.on('connection', (socket) => socket.on('data', (d: Buffer) => (received.secure += d.length)));
  plain.listen(0, '127.0.0.1');
  secure.listen(0, '127.0.0.1');
  await Promise.all([once(plain, 'listening'), once(secure, 'listening')]);
});
afterAll(() => {
  plain.close();
  secure.close();
});

let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** A watcher whose judge answers `verdict` for connections to our servers (and null for anything else). */
function watch(verdict: ConnectionVerdict | null) {
  const recorded: Array<SeenConnection & ConnectionVerdict> = [];
  const ports = new Set([portOf(plain), portOf(secure)]);
  const options: ConnectionWatcherOptions = {
    judge: (connection) => (ports.has(connection.port) ? verdict : null),
    record: (connection, v) => recorded.push({ ...connection, ...v }),
  };
  stop = watchConnections(options);
  return recorded;
}

const get = (send: typeof httpRequest, url: string, extra: object = {}) =>
  new Promise<string>((resolve, reject) => {
    const request = send(url, { agent: false, ...extra }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    });
    request.on('error', reject);
    request.end();
  });

const rawConnect = (port: number, host = '127.0.0.1') =>
  new Promise<void>((resolve, reject) => {
    const socket = connect(port, host, () => {
      socket.write('hello', () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });

const ALLOW = { allowed: true, reason: 'seen, not asked through the guard' };

describe('watchConnections sees every route a client connection takes in Node 20', () => {
  it('http.request, with its host, port and route', async () => {
    const recorded = watch(ALLOW);
    expect(await get(httpRequest, `http://127.0.0.1:${portOf(plain)}/a`)).toBe('plain');
    expect(recorded).toEqual([
      {
        host: '127.0.0.1',
        port: portOf(plain),
        route: 'http module',
        url: `http://127.0.0.1:${portOf(plain)}`,
        ...ALLOW,
      },
    ]);
  });

  it('https.request', async () => {
    const recorded = watch(ALLOW);
    expect(await get(httpsRequest, `https://localhost:${portOf(secure)}/`, { ca: CERT })).toBe('secure');
    expect(recorded).toMatchObject([{ host: 'localhost', port: portOf(secure), route: 'http module' }]);
    expect(recorded[0]?.url).toBe(`https://localhost:${portOf(secure)}`);
  });

  it('fetch (undici) over http, and over https (here its handshake fails on the untrusted certificate)', async () => {
    const recorded = watch(ALLOW);
    expect(await (await fetch(`http://127.0.0.1:${portOf(plain)}/`)).text()).toBe('plain');
    await expect(fetch(`https://127.0.0.1:${portOf(secure)}/`)).rejects.toThrow();
    expect(recorded).toMatchObject([
      { host: '127.0.0.1', port: portOf(plain), route: 'fetch', url: `http://127.0.0.1:${portOf(plain)}` },
      { host: '127.0.0.1', port: portOf(secure), route: 'fetch', url: `https://127.0.0.1:${portOf(secure)}` },
    ]);
    expect(recorded[1]?.reason).toMatch(/; it failed \(/);
  });

  it('net.connect, by address and by name', async () => {
    const recorded = watch(ALLOW);
    await rawConnect(portOf(plain));
    await rawConnect(portOf(plain), 'localhost');
    expect(recorded).toMatchObject([
      { host: '127.0.0.1', port: portOf(plain), route: 'net socket', url: `tcp://127.0.0.1:${portOf(plain)}` },
      { host: 'localhost', port: portOf(plain), route: 'net socket' },
    ]);
  });

  it('records nothing the judge says the guard allowed already, and nothing once stopped', async () => {
    const recorded = watch(null);
    await get(httpRequest, `http://127.0.0.1:${portOf(plain)}/`);
    stop?.();
    stop = undefined;
    await get(httpRequest, `http://127.0.0.1:${portOf(plain)}/`);
    expect(recorded).toEqual([]);
  });
});

describe('a refused connection', () => {
  const REFUSE = { allowed: false, reason: 'Offline mode is on: a connection that no feature asked for was closed.' };

  it('is destroyed before the request is sent, by every route, and recorded as blocked', async () => {
    const recorded = watch(REFUSE);
    const before = { ...received };
    await expect(get(httpRequest, `http://127.0.0.1:${portOf(plain)}/secret?token=x`)).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
    });
    await expect(get(httpsRequest, `https://localhost:${portOf(secure)}/`, { ca: CERT })).rejects.toMatchObject({
      code: 'NETWORK_BLOCKED',
    });
    // By name: fetch keeps the earlier test's connection to 127.0.0.1 alive, and a kept connection is not a new one.
    await expect(fetch(`http://localhost:${portOf(plain)}/`)).rejects.toThrow();
    await expect(rawConnect(portOf(plain))).rejects.toMatchObject({ code: 'NETWORK_BLOCKED' });
    // Not one byte reached either server: no request line, no TLS hello.
    expect(received).toEqual(before);
    expect(recorded.map((r) => [r.route, r.allowed])).toEqual([
      ['http module', false],
      ['http module', false],
      ['fetch', false],
      ['net socket', false],
    ]);
  });
});
