import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import { normalizeHost } from './networkRules.js';

/**
 * Sees the client connections this process opens, however it opens them, so the egress ledger is complete and not
 * a promise: what was asked through the egress guard is there already; anything else is recorded here, and closed
 * when the process's judge says so.
 *
 * Node 20 publishes on these diagnostics channels (checked by connectionWatcher.int.test.ts, one route each):
 * - `net.client.socket`: every net.connect (plain TCP, http.request over an Agent, fetch over http), before it connects;
 * - `http.client.request.start`: http.request and https.request; their socket arrives on the request's `socket` event;
 * - `undici:client:beforeConnect`, `undici:client:connected`, `undici:client:connectError`: fetch (undici), over
 *   https too, once connected or failed (undici's TLS goes through tls.connect, which publishes on no channel).
 * A socket is judged on its `connect` event (our listener goes first), before any byte of the request is written;
 * https by fetch is judged after its TLS handshake (which names the host) but before the request. A direct
 * tls.connect (mail over implicit TLS, smtps/imaps) publishes nowhere in Node 20, so it is not seen here; the mail
 * tools ask the guard for it first. Connections of child processes (stdio MCP servers) are other programs: unseen.
 *
 * Decision: a connection the guard allowed (`judge` answers null for it: same host and port, within the ticket
 * window) is not recorded twice. Any other is recorded with the judge's verdict; when the verdict refuses it the socket
 * is destroyed first. In the main process the judge refuses what offline mode would (loopback excepted, since it
 * never leaves the machine); in the tool worker it refuses anything the guard did not allow for a running call.
 */

export interface SeenConnection {
  readonly host: string;
  readonly port: number;
  /** How it was opened: 'http module', 'fetch', 'net socket'. */
  readonly route: string;
  /** For the ledger: scheme, host and port (no path is known for a socket). */
  readonly url: string;
}

export interface ConnectionVerdict {
  readonly allowed: boolean;
  readonly reason: string;
}

export interface ConnectionWatcherOptions {
  /** null: the guard allowed this one already (nothing to record); else whether it may go on, and why. */
  judge(connection: SeenConnection): ConnectionVerdict | null;
  /** Called for every connection judged, after a refused one was destroyed. */
  record(connection: SeenConnection, verdict: ConnectionVerdict): void;
}

interface Hint {
  readonly route: string;
  readonly scheme: string;
  readonly host?: string;
  readonly port?: number;
}

/** The error a refused socket is destroyed with; its code tells a caller what happened. */
export class ConnectionRefusedByWatcher extends Error {
  readonly code = 'NETWORK_BLOCKED';
}

/** Starts watching; answers the function that stops it. */
export function watchConnections(options: ConnectionWatcherOptions): () => void {
  /** Sockets seen, with what is known of how they were opened (a later channel may say more before they connect). */
  const hints = new WeakMap<Socket, Hint>();
  /**
   * The fetch connection announced by undici:client:beforeConnect in this turn: undici's net.connect follows at once,
   * so the next net.client.socket is its socket (cleared after the turn, so no other socket takes it).
   */
  let undiciNext: Hint | undefined;

  const judgeNow = (socket: Socket, name: string | undefined) => {
    const hint = hints.get(socket) ?? { route: 'net socket', scheme: 'tcp' };
    // A local (Unix socket, named pipe) connection has no remote address: it is not the network.
    if (!socket.remoteAddress && !hint.host && !name) return;
    const host = normalizeHost(hint.host ?? name ?? socket.remoteAddress ?? '');
    const port = hint.port ?? socket.remotePort ?? 0;
    const connection: SeenConnection = {
      host,
      port,
      route: hint.route,
      url: `${hint.scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    };
    let verdict: ConnectionVerdict | null;
    try {
      verdict = options.judge(connection);
      if (verdict === null) return;
      if (!verdict.allowed) {
        const refusal = new ConnectionRefusedByWatcher(verdict.reason);
        // Before it connects, its owner is given the time to listen for the error first.
        if (socket.connecting) process.nextTick(() => socket.destroy(refusal));
        else socket.destroy(refusal);
      }
      options.record(connection, verdict);
    } catch (error) {
      // A watcher that fails must not break the app's connections; it says so instead.
      console.error('[privacy] the connection watcher failed:', error);
    }
  };

  const observe = (socket: Socket, hint: Hint) => {
    const known = hints.get(socket);
    if (known) {
      // The http module names its socket after net.client.socket showed it: its words are better, if still in time.
      if (known.route === 'net socket' && socket.connecting) hints.set(socket, hint);
      return;
    }
    hints.set(socket, hint);
    if (!socket.connecting && socket.remoteAddress) {
      judgeNow(socket, undefined);
      return;
    }
    let name: string | undefined;
    socket.once('lookup', (_error: Error | null, _address: string, _family: number, host: string) => {
      name = host;
    });
    // First among the connect listeners (tls's handshake start included), so a refused socket sends nothing.
    socket.prependOnceListener('connect', () => judgeNow(socket, name));
  };

  const onNetSocket = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (!socket) return;
    const fetching = undiciNext;
    undiciNext = undefined;
    if (!fetching) {
      observe(socket, { route: 'net socket', scheme: 'tcp' });
      return;
    }
    // fetch's socket: its host and port are known already, so it is judged before it connects (undici takes a
    // socket closed during its connect event for a live one, and waits on it).
    hints.set(socket, fetching);
    judgeNow(socket, undefined);
  };
  const onHttpRequest = (message: unknown) => {
    const request = (message as { request?: ClientRequest }).request;
    if (!request) return;
    const scheme = request.protocol === 'https:' ? 'https' : 'http';
    const hint: Hint = { route: 'http module', scheme, host: normalizeHost(request.host) };
    // The request may have its socket already (published late, or a socket kept alive), or get it later.
    if (request.socket) observe(request.socket, hint);
    else request.once('socket', (socket: Socket) => observe(socket, hint));
  };
  const undiciHint = (message: unknown): Hint => {
    const params = (message as { connectParams?: { hostname?: string; port?: string | number; protocol?: string } })
      .connectParams;
    const scheme = params?.protocol === 'https:' ? 'https' : 'http';
    const port = Number(params?.port) || (scheme === 'https' ? 443 : 80);
    return { route: 'fetch', scheme, ...(params?.hostname ? { host: normalizeHost(params.hostname) } : {}), port };
  };
  const onUndiciBeforeConnect = (message: unknown) => {
    const hint = undiciHint(message);
    undiciNext = hint;
    queueMicrotask(() => {
      if (undiciNext === hint) undiciNext = undefined;
    });
  };
  const onUndiciConnected = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket) observe(socket, undiciHint(message));
  };

  // A fetch whose connection failed (refused, or a TLS handshake that did not check out) still tried: recorded too.
  const onUndiciConnectError = (message: unknown) => {
    const hint = undiciHint(message);
    const host = hint.host ?? '';
    const port = hint.port ?? 0;
    const connection: SeenConnection = { host, port, route: hint.route, url: `${hint.scheme}://${host}:${port}` };
    const failure = (message as { error?: unknown }).error;
    // One this watcher refused is recorded already.
    if (failure instanceof ConnectionRefusedByWatcher) return;
    const code = (failure as { code?: unknown } | undefined)?.code;
    try {
      const verdict = options.judge(connection);
      if (verdict) {
        options.record(connection, { ...verdict, reason: `${verdict.reason}; it failed (${String(code ?? 'error')})` });
      }
    } catch (error) {
      console.error('[privacy] the connection watcher failed:', error);
    }
  };

  const subscriptions: Array<[string, (message: unknown) => void]> = [
    ['net.client.socket', onNetSocket],
    ['http.client.request.start', onHttpRequest],
    ['undici:client:beforeConnect', onUndiciBeforeConnect],
    ['undici:client:connected', onUndiciConnected],
    ['undici:client:connectError', onUndiciConnectError],
  ];
  for (const [channel, listener] of subscriptions) diagnostics.subscribe(channel, listener);
  return () => {
    for (const [channel, listener] of subscriptions) diagnostics.unsubscribe(channel, listener);
  };
}
