import { ipcMain } from 'electron';
import type { BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src-shared/contract/transport.js';
import type { HostTransport } from '../host/hostTypes.js';
import { invokeHandler } from './invokeHandler.js';

export interface IpcOptions {
  readonly host: HostTransport;
  /** The one window allowed to call; null while none is open. Read on every call, so a re-created window works. */
  readonly getWindow: () => BrowserWindow | null;
  /** Whether a frame URL is our own page (app/appOrigin.ts's isAppUrl). */
  readonly isAllowedUrl: (url: string) => boolean;
}

/**
 * Connects the preload's two channels to the Host. Calls are answered with
 * the Host's ApiResult (errors are values; nothing is thrown across IPC), and
 * the Host validates every request against the contract's schemas. Returns a
 * function that disconnects both directions.
 */
export function registerIpc({ host, getWindow, isAllowedUrl }: IpcOptions): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, invokeHandler({ host, getWindow, isAllowedUrl }));

  const unsubscribe = host.subscribe((hostEvent) => {
    const window = getWindow();
    if (window === null || window.isDestroyed()) return;
    const contents = window.webContents;
    // Events go only to our own page: send() targets the main frame, whose URL is checked first.
    if (contents.isDestroyed() || !isAllowedUrl(contents.mainFrame.url)) return;
    contents.send(IPC_EVENT_CHANNEL, hostEvent);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}
