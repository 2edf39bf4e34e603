/*
 * The sandboxed preload: runs before the page, in an isolated world, with no
 * Node. Bundled into one CommonJS file (scripts/buildPreload.mjs) because a
 * sandboxed preload can require only a few modules, 'electron' among them.
 *
 * It exposes exactly window.homebody = { invoke, onEvent } (HomebodyBridge),
 * on two fixed channels. ipcRenderer itself and Electron's event objects never
 * reach the page: a page holding ipcRenderer could send on any channel.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, type HomebodyBridge } from '../../src-shared/contract/transport.js';
import { isMethodName } from './methodName.js';

const bridge: HomebodyBridge = {
  invoke(method: string, request: unknown): Promise<unknown> {
    if (!isMethodName(method)) {
      // Answered like the Host answers an unknown method: errors are values on this boundary too.
      return Promise.resolve({
        ok: false,
        error: { code: 'UNKNOWN_METHOD', message: `Not a Homebody method: ${String(method).slice(0, 80)}` },
      });
    }
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, method, request);
  },

  onEvent(listener: (event: unknown) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    const forward = (_event: IpcRendererEvent, payload: unknown) => {
      try {
        listener(payload);
      } catch (error) {
        console.error('[homebody] an event listener threw', error);
      }
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('homebody', bridge);
