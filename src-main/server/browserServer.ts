import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { API_PATH_PREFIX, EVENTS_PATH, TOKEN_QUERY, maxRequestBytes } from '../../src-shared/contract/index.js';
import type { HostTransport } from '../host/hostTypes.js';
import { hostAllowed, originAllowed, presentedTokens, tokenMatches } from './requestGuard.js';
import { contentTypeFor, readRendererFile, resolveRendererFile } from '../util/rendererFiles.js';

export interface BrowserServerOptions {
  readonly host: HostTransport;
  /** The built renderer (vite build output). */
  readonly rendererDir: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Fixed token for tests; a random one per launch otherwise. */
  readonly token?: string;
  /** The command that started this server, as the user typed it ("npm start"): a page without the token names it. */
  readonly command?: string;
  /** How many pages listen to the Host's events, each time that changes (the device bridge asks them). */
  readonly onPagesChanged?: (count: number) => void;
}

export interface BrowserServer {
  readonly port: number;
  readonly token: string;
  /** The address to open, token included. */
  readonly url: string;
  close(): Promise<void>;
}

export const TOKEN_META_PLACEHOLDER = '<meta name="homebody-token" content="">';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);

function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Refusals of API calls are result values too, so the renderer shows one kind of error. */
function refuseApi(
  res: ServerResponse,
  status: number,
  code: 'INVALID_REQUEST' | 'UNKNOWN_METHOD',
  message: string,
): void {
  send(res, status, JSON.stringify({ ok: false, error: { code, message } }), 'application/json');
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client still gets its 413.
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () =>
      size > maxBytes ? reject(new Error('too large')) : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/**
 * Browser mode: the Host behind an HTTP + WebSocket server bound to 127.0.0.1 only. Every request needs a Host and
 * Origin naming this server (so DNS rebinding and other sites fail), and everything that reaches the Host needs the
 * per-launch token: API calls in a header, the event socket in its address.
 *
 * The token lives only in the page, never in a cookie: cookies are not scoped by port, so every other server on
 * 127.0.0.1 that the browser visits would receive it. The page gets it once, in the meta tag of `/?token=...` (the
 * printed address), keeps it in the tab's sessionStorage for reloads and removes it from the address bar.
 *
 * Pages and assets are served without the token. A `<script src>` or `<link href>` cannot carry a header, and the
 * bundle is public code that holds no secret; `/` without the right token is the same app page with no token in
 * it, which finds the token in sessionStorage after a reload or tells the user which address to open.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const indexHtml = readFileSync(join(options.rendererDir, 'index.html'), 'utf8');
  if (!indexHtml.includes(TOKEN_META_PLACEHOLDER)) {
    throw new Error(`${options.rendererDir}/index.html lacks the token placeholder; rebuild the renderer`);
  }
  const rendererRoot = realpathSync(options.rendererDir);
  const sockets = new Set<WebSocket>();
  let port = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('[server] request failed:', error);
      if (!res.headersSent) send(res, 500, 'Internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('cross-origin-resource-policy', 'same-origin');
    res.setHeader('cache-control', 'no-store');
    if (!hostAllowed(req.headers.host, port)) return send(res, 421, 'Unknown host name');
    if (!originAllowed(req.headers.origin, port)) return send(res, 403, 'Cross-origin requests are refused');

    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const tokens = presentedTokens(req, url);

    if (url.pathname.startsWith(API_PATH_PREFIX)) {
      // Only the header counts: a page of another site can make a browser send neither it nor our Origin.
      if (!tokenMatches(tokens.header, token)) {
        return refuseApi(
          res,
          401,
          'INVALID_REQUEST',
          'Missing or wrong access token: open the address that `homebody serve` (or `npm start`) printed.',
        );
      }
      if (req.method !== 'POST') return refuseApi(res, 405, 'INVALID_REQUEST', 'API calls use POST.');
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        return refuseApi(res, 415, 'INVALID_REQUEST', 'API calls send application/json.');
      }
      const method = url.pathname.slice(API_PATH_PREFIX.length);
      let request: unknown;
      try {
        const body = await readBody(req, maxRequestBytes(method));
        request = body.length ? JSON.parse(body) : {};
      } catch (error) {
        const tooLarge = error instanceof Error && error.message === 'too large';
        const result = {
          ok: false,
          error: {
            code: 'INVALID_REQUEST',
            message: tooLarge ? 'The request is too large.' : 'The request is not valid JSON.',
          },
        };
        return send(res, tooLarge ? 413 : 400, JSON.stringify(result), 'application/json');
      }
      const result = await options.host.call(method, request);
      return send(res, 200, JSON.stringify(result), 'application/json');
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.setHeader('content-security-policy', contentSecurityPolicy(port));
      // Only the printed address writes the token into the page; any other visit gets the page without it.
      // The command is no secret: a page opened without the token uses it to say which terminal has the address.
      const command = `<meta name="homebody-command" content="${escapeHtml(options.command ?? 'homebody serve')}">`;
      const tokenMeta = tokenMatches(tokens.query, token)
        ? `<meta name="homebody-token" content="${token}">`
        : TOKEN_META_PLACEHOLDER;
      const html = indexHtml.replace(TOKEN_META_PLACEHOLDER, `${tokenMeta}${command}`);
      return send(res, 200, html, 'text/html; charset=utf-8');
    }
    const file = await resolveRendererFile(rendererRoot, url.pathname);
    if (!file) return send(res, 404, 'Not found');
    res.setHeader('content-security-policy', contentSecurityPolicy(port));
    const body = await readRendererFile(file);
    res.writeHead(200, { 'content-type': contentTypeFor(file), 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const tokens = presentedTokens(req, url);
    const allowed =
      url.pathname === EVENTS_PATH &&
      hostAllowed(req.headers.host, port) &&
      // Browsers always send Origin on WebSocket handshakes; a cross-site page cannot forge ours.
      req.headers.origin !== undefined &&
      originAllowed(req.headers.origin, port) &&
      tokenMatches(tokens.query, token);
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      options.onPagesChanged?.(sockets.size);
      ws.on('close', () => {
        sockets.delete(ws);
        options.onPagesChanged?.(sockets.size);
      });
      // The renderer only listens; anything it sends on this socket is ignored.
      ws.on('message', () => undefined);
    });
  });

  const unsubscribe = options.host.subscribe((event) => {
    if (sockets.size === 0) return;
    const data = JSON.stringify(event);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(data);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?${TOKEN_QUERY}=${token}`,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
