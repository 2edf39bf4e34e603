import type { AppError } from '../../src-shared/contract/index.js';
import { API_PATH_PREFIX, EVENTS_PATH, TOKEN_HEADER, TOKEN_QUERY } from '../../src-shared/contract/index.js';
import { ApiCallError } from './apiError.js';
import { apiFromInvoke, type HostClient, type HostListeners } from './hostClient.js';
import { parseApiResult, parseHostEvent } from './validate.js';

/** The parts of WebSocket the event stream uses, so tests can hand in a fake. */
export interface SocketLike {
  onopen: (() => void) | null;
  onmessage: ((message: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  onerror: (() => void) | null;
  close(): void;
}

export interface HttpClientOptions {
  token: string | null;
  /** host[:port] of the page, e.g. location.host. */
  host: string;
  secure?: boolean;
  fetch: typeof fetch;
  openSocket: (url: string) => SocketLike;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** The server refused the token (HTTP 401): this page can do nothing more until it is opened with the new one. */
  onTokenRefused?: () => void;
}

/** Waits between reconnect attempts: 0.5 s doubling to 10 s, with a little jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Browser mode: POST /api/<method> with the token header; events over one WebSocket that reconnects. */
export function createHttpClient(options: HttpClientOptions): HostClient {
  const { token } = options;
  const later = options.setTimeout ?? ((cb: () => void, ms: number) => globalThis.setTimeout(cb, ms));
  const cancel = options.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as number));

  const api = apiFromInvoke(async (method, request) => {
    let response: Response;
    try {
      response = await options.fetch(`${API_PATH_PREFIX}${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token ?? '' },
        body: JSON.stringify(request),
      });
    } catch (cause) {
      throw new ApiCallError('INTERNAL', 'Could not reach Homebody. Is it still running?', { cause });
    }
    if (response.status === 401) {
      options.onTokenRefused?.();
      throw new ApiCallError(
        'INVALID_REQUEST',
        'Homebody refused this page’s access token. Open the address that `homebody serve` (or `npm start`) printed.',
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await response.text());
    } catch (cause) {
      throw new ApiCallError('INTERNAL', `Homebody sent a malformed answer to ${method} (HTTP ${response.status}).`, {
        cause,
      });
    }
    return parseApiResult(method, raw);
  });

  const eventsUrl = `${options.secure ? 'wss' : 'ws'}://${options.host}${EVENTS_PATH}?${TOKEN_QUERY}=${encodeURIComponent(token ?? '')}`;

  function subscribe(listeners: HostListeners): () => void {
    let socket: SocketLike | null = null;
    let attempt = 0;
    let everOpened = false;
    let retryHandle: unknown = null;
    let closed = false;
    let reportedDrop = false;

    const connect = () => {
      retryHandle = null;
      if (closed) return;
      listeners.onConnectionChange?.(everOpened ? 'reconnecting' : 'connecting');
      const ws = options.openSocket(eventsUrl);
      socket = ws;
      ws.onopen = () => {
        attempt = 0;
        reportedDrop = false;
        listeners.onConnectionChange?.('connected');
        if (everOpened) listeners.onReconnect();
        everOpened = true;
      };
      ws.onmessage = (message) => {
        let raw: unknown;
        try {
          raw = typeof message.data === 'string' ? JSON.parse(message.data) : undefined;
        } catch {
          raw = undefined;
        }
        const parsed = parseHostEvent(raw);
        if (parsed.ok) listeners.onEvent(parsed.event);
        else listeners.onError(parsed.error.toAppError());
      };
      ws.onerror = () => {
        // onclose follows and schedules the retry.
      };
      ws.onclose = () => {
        if (socket === ws) socket = null;
        if (closed) return;
        if (!reportedDrop && attempt >= 3) {
          reportedDrop = true;
          const error: AppError = { code: 'INTERNAL', message: 'Lost the connection to Homebody; retrying…' };
          listeners.onError(error);
        }
        listeners.onConnectionChange?.('reconnecting');
        retryHandle = later(connect, reconnectDelay(attempt++));
      };
    };

    connect();
    return () => {
      closed = true;
      if (retryHandle !== null) cancel(retryHandle);
      socket?.close();
      socket = null;
    };
  }

  return { transport: 'http', api, subscribe };
}
