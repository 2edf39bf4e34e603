import type { HomebodyBridge } from '../../src-shared/contract/index.js';
import type { HostClient } from './hostClient.js';
import { createHttpClient, type SocketLike } from './httpTransport.js';
import { createIpcClient } from './ipcTransport.js';
import { forgetToken, readToken, type TokenProblem } from './token.js';

export type { ConnectionState, HostClient, HostListeners } from './hostClient.js';
export { ApiCallError, toAppError } from './apiError.js';
export type { TokenProblem } from './token.js';

/** The page's way to the Host, or why browser mode's page has none (it then shows how to open Homebody). */
export type HostConnection =
  { readonly client: HostClient } | { readonly client: null; readonly problem: TokenProblem };

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    homebody?: HomebodyBridge;
  }
}

/**
 * Picks the transport: Electron's preload bridge when present, otherwise browser mode's HTTP + WebSocket with the
 * page's token. `onTokenRefused` runs when the server turns down a token the tab kept (Homebody was started again).
 */
export function connectHostClient(onTokenRefused: () => void): HostConnection {
  if (window.homebody) return { client: createIpcClient(window.homebody) };
  const storage = safeSessionStorage();
  const reading = readToken({ document, location, history, storage });
  if (reading.token === null) return { client: null, problem: reading.problem };
  let refused = false;
  const client = createHttpClient({
    token: reading.token,
    host: location.host,
    secure: location.protocol === 'https:',
    fetch: (input, init) => window.fetch(input, init),
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    onTokenRefused: () => {
      if (refused) return;
      refused = true;
      forgetToken(storage);
      onTokenRefused();
    },
  });
  return { client };
}

function safeSessionStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  try {
    return window.sessionStorage;
  } catch {
    return { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
  }
}
