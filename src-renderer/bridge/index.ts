import type { HomebodyBridge } from '../../src-shared/contract/index.js';
import type { HostClient } from './hostClient.js';
import { createHttpClient, type SocketLike } from './httpTransport.js';
import { createIpcClient } from './ipcTransport.js';
import { readToken } from './token.js';

export type { ConnectionState, HostClient, HostListeners } from './hostClient.js';
export { ApiCallError, toAppError } from './apiError.js';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    homebody?: HomebodyBridge;
  }
}

/** Picks the transport: Electron's preload bridge when present, otherwise browser mode's HTTP + WebSocket. */
export function createHostClient(): HostClient {
  if (window.homebody) return createIpcClient(window.homebody);
  const token = readToken({ document, location, history, storage: safeSessionStorage() });
  return createHttpClient({
    token,
    host: location.host,
    secure: location.protocol === 'https:',
    fetch: (input, init) => window.fetch(input, init),
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  });
}

function safeSessionStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  try {
    return window.sessionStorage;
  } catch {
    return { getItem: () => null, setItem: () => undefined };
  }
}
