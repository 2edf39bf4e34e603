import type { HomebodyBridge } from '../../src-shared/contract/index.js';
import { ApiCallError } from './apiError.js';
import { apiFromInvoke, type HostClient, type HostListeners } from './hostClient.js';
import { parseApiResult, parseHostEvent } from './validate.js';

/** Electron: the preload's window.homebody carries calls and events; every payload is still checked here. */
export function createIpcClient(bridge: HomebodyBridge): HostClient {
  const api = apiFromInvoke(async (method, request) => {
    let raw: unknown;
    try {
      raw = await bridge.invoke(method, request);
    } catch (cause) {
      throw new ApiCallError('INTERNAL', `Could not reach Homebody (${method}).`, { cause });
    }
    return parseApiResult(method, raw);
  });

  return {
    transport: 'ipc',
    api,
    subscribe(listeners: HostListeners) {
      listeners.onConnectionChange?.('connected');
      return bridge.onEvent((raw) => {
        const parsed = parseHostEvent(raw);
        if (parsed.ok) listeners.onEvent(parsed.event);
        else listeners.onError(parsed.error.toAppError());
      });
    },
  };
}
