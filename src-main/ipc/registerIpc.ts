import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import type { ApiResult } from '../../src-shared/contract/api.js';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../src-shared/contract/transport.js';
import type { Host } from '../host/hostTypes.js';
import { checkSender, type FrameRef, type SenderSnapshot, type TrustedWindowSnapshot } from './senderCheck.js';

export interface IpcOptions {
  readonly host: Host;
  /** The one window allowed to call; null while none is open. Read on every call, so a re-created window works. */
  readonly getWindow: () => BrowserWindow | null;
  /** Whether a frame URL is our own page (app/appOrigin.ts's isAppUrl). */
  readonly isAllowedUrl: (url: string) => boolean;
}

function frameRef(frame: WebFrameMain): FrameRef {
  return { processId: frame.processId, routingId: frame.routingId };
}

function senderSnapshot(event: IpcMainInvokeEvent): SenderSnapshot {
  let frame: SenderSnapshot['frame'] = null;
  try {
    // Reading a frame that was disposed meanwhile throws; that sender is simply gone.
    const sender = event.senderFrame;
    if (sender !== null && !sender.isDestroyed()) frame = { ...frameRef(sender), url: sender.url };
  } catch {
    frame = null;
  }
  return { webContentsId: event.sender.id, frame };
}

function trustedSnapshot(window: BrowserWindow | null): TrustedWindowSnapshot | null {
  if (window === null || window.isDestroyed()) return null;
  return { webContentsId: window.webContents.id, mainFrame: frameRef(window.webContents.mainFrame) };
}

function refused(message: string): ApiResult<never> {
  return { ok: false, error: { code: 'INVALID_REQUEST', message } };
}

/**
 * Connects the preload's two channels to the Host. Calls are answered with
 * the Host's ApiResult (errors are values; nothing is thrown across IPC), and
 * the Host validates every request against the contract's schemas. Returns a
 * function that disconnects both directions.
 */
export function registerIpc({ host, getWindow, isAllowedUrl }: IpcOptions): () => void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event: IpcMainInvokeEvent, method: unknown, request: unknown): Promise<ApiResult<unknown>> => {
      const verdict = checkSender(senderSnapshot(event), trustedSnapshot(getWindow()), isAllowedUrl);
      if (!verdict.ok) {
        console.warn(`[homebody] refused an IPC call: ${verdict.reason}`);
        return refused('This page may not call Homebody.');
      }
      if (typeof method !== 'string') {
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: 'The method name must be a string.' } };
      }
      try {
        return await host.call(method, request);
      } catch (error) {
        // host.call answers with values; this only guards against a bug turning into an unhandled IPC rejection.
        console.error(`[homebody] ${method} threw`, error);
        return { ok: false, error: { code: 'INTERNAL', message: 'Homebody failed to answer this request.' } };
      }
    },
  );

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
