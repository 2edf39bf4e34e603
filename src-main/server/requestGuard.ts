import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_HEADER, TOKEN_QUERY } from '../../src-shared/contract/index.js';

/**
 * Browser mode's checks on every request and WebSocket upgrade. A page on any
 * other site, or one reached through a DNS name that points at 127.0.0.1
 * (DNS rebinding), must not be able to drive the Host.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'];

/** The Host header must name this server on a loopback name and our port, nothing else. */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  return LOOPBACK_NAMES.some((name) => hostHeader.toLowerCase() === `${name}:${port}`);
}

/** An Origin, when the browser sends one, must be this server's own. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return LOOPBACK_NAMES.some((name) => origin.toLowerCase() === `http://${name}:${port}`);
}

export function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface PresentedTokens {
  /** The `x-homebody-token` header: how API calls carry it. */
  readonly header: string | undefined;
  /** `?token=` in the address: the printed address, and the event socket. */
  readonly query: string | undefined;
}

/** Where a request may carry the token. Never a cookie: cookies are not scoped by port (see browserServer.ts). */
export function presentedTokens(req: IncomingMessage, url: URL): PresentedTokens {
  const header = req.headers[TOKEN_HEADER];
  return {
    header: Array.isArray(header) ? header[0] : header,
    query: url.searchParams.get(TOKEN_QUERY) ?? undefined,
  };
}
