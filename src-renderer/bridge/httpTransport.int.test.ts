import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src-shared/contract/index.js';
import { ApiCallError } from './apiError.js';
import { createHttpClient, reconnectDelay, type SocketLike } from './httpTransport.js';
import type { HostListeners } from './hostClient.js';

interface Call {
  url: string;
  init: RequestInit | undefined;
}

function fakeFetch(body: string | (() => never), status = 200) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    if (typeof body === 'function') body();
    return new Response(body as string, { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

class FakeSocket implements SocketLike {
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  close() {
    this.closed = true;
  }
}

function client(fetch: typeof globalThis.fetch, sockets: FakeSocket[] = [], timers: (() => void)[] = []) {
  return createHttpClient({
    token: 'tok en',
    host: '127.0.0.1:4000',
    fetch,
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimeout: (cb) => timers.push(cb),
    clearTimeout: () => undefined,
  });
}

async function rejection(promise: Promise<unknown>): Promise<ApiCallError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiCallError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('HTTP transport calls', () => {
  it('posts JSON with the token header and returns the validated value', async () => {
    const { fetch, calls } = fakeFetch(JSON.stringify({ ok: true, value: { stopped: true } }));
    await expect(client(fetch).api['chat.stop']({ taskId: 't1' })).resolves.toEqual({ stopped: true });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe('/api/chat.stop');
    expect(call?.init?.method).toBe('POST');
    expect(call?.init?.body).toBe(JSON.stringify({ taskId: 't1' }));
    expect(call?.init?.headers).toMatchObject({ 'content-type': 'application/json', 'x-homebody-token': 'tok en' });
  });

  it('throws the Host error for {ok:false}, with its code and message', async () => {
    const body = JSON.stringify({ ok: false, error: { code: 'MODEL_NOT_GGUF', message: 'Not a GGUF file.' } });
    const error = await rejection(client(fakeFetch(body, 400).fetch).api['model.open']({ path: '/x' }));
    expect(error.code).toBe('MODEL_NOT_GGUF');
    expect(error.message).toBe('Not a GGUF file.');
  });

  it('turns a value that does not match the schema into INTERNAL', async () => {
    const body = JSON.stringify({ ok: true, value: { status: 'ready' } });
    const error = await rejection(client(fakeFetch(body).fetch).api['model.state']({}));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/malformed/);
  });

  it('turns an unknown error code into INTERNAL', async () => {
    const body = JSON.stringify({ ok: false, error: { code: 'NOPE', message: 'x' } });
    expect((await rejection(client(fakeFetch(body).fetch).api['tasks.list']({}))).code).toBe('INTERNAL');
  });

  it('turns a non-JSON body into INTERNAL', async () => {
    const error = await rejection(client(fakeFetch('<html>502</html>', 502).fetch).api['app.info']({}));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/HTTP 502/);
  });

  it('tells the page when the server refuses its token (a new launch), with a sentence naming the address to open', async () => {
    const body = JSON.stringify({ ok: false, error: { code: 'INVALID_REQUEST', message: 'Missing or wrong token' } });
    let refused = 0;
    const http = createHttpClient({
      token: 'old',
      host: '127.0.0.1:4000',
      fetch: fakeFetch(body, 401).fetch,
      openSocket: (url) => new FakeSocket(url),
      onTokenRefused: () => refused++,
    });
    const error = await rejection(http.api['app.info']({}));
    expect(error.message).toMatch(/refused this page’s access token.*`homebody serve` \(or `npm start`\) printed/);
    expect(refused).toBe(1);
  });

  it('turns a network failure into INTERNAL', async () => {
    const { fetch } = fakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    expect((await rejection(client(fetch).api['app.info']({}))).code).toBe('INTERNAL');
  });
});

describe('HTTP transport events', () => {
  function listen() {
    const events: HostEvent[] = [];
    const errors: string[] = [];
    let reconnects = 0;
    const listeners: HostListeners = {
      onEvent: (e) => events.push(e),
      onError: (e) => errors.push(e.code),
      onReconnect: () => reconnects++,
    };
    return { listeners, events, errors, reconnects: () => reconnects };
  }

  it('opens the event socket with the token and validates every message', () => {
    const sockets: FakeSocket[] = [];
    const { listeners, events, errors } = listen();
    client(fakeFetch('{}').fetch, sockets).subscribe(listeners);
    const socket = sockets[0]!;
    expect(socket.url).toBe('ws://127.0.0.1:4000/events?token=tok%20en');
    socket.onopen?.();
    socket.onmessage?.({ data: JSON.stringify({ type: 'model.state', state: { status: 'none' } }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'model.state', state: { status: 'bogus' } }) });
    socket.onmessage?.({ data: 'not json' });
    expect(events).toEqual([{ type: 'model.state', state: { status: 'none' } }]);
    expect(errors).toEqual(['INTERNAL', 'INTERNAL']);
  });

  it('reconnects after a drop and asks for a refetch', () => {
    const sockets: FakeSocket[] = [];
    const timers: (() => void)[] = [];
    const { listeners, reconnects } = listen();
    const unsubscribe = client(fakeFetch('{}').fetch, sockets, timers).subscribe(listeners);
    sockets[0]!.onopen?.();
    expect(reconnects()).toBe(0);
    sockets[0]!.onclose?.();
    expect(timers).toHaveLength(1);
    timers.shift()!();
    expect(sockets).toHaveLength(2);
    sockets[1]!.onopen?.();
    expect(reconnects()).toBe(1);
    unsubscribe();
    expect(sockets[1]!.closed).toBe(true);
    sockets[1]!.onclose?.();
    expect(timers).toHaveLength(0);
  });

  it('backs off up to ten seconds', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(500);
    expect(reconnectDelay(1, () => 0.5)).toBe(1000);
    expect(reconnectDelay(20, () => 0.5)).toBe(10_000);
  });
});
