import type { ApiResult } from '../../src-shared/contract/api.js';
import type { HostTransport } from '../host/hostTypes.js';
import { checkSender, type FrameRef, type SenderSnapshot, type TrustedWindowSnapshot } from './senderCheck.js';

/** The parts of Electron's WebFrameMain the sender check reads. */
export interface FrameLike {
  isDestroyed(): boolean;
  readonly processId: number;
  readonly routingId: number;
  readonly url: string;
}

/** The parts of Electron's IpcMainInvokeEvent it reads (structural, so the handler is tested without Electron). */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: FrameLike | null;
}

/** The parts of Electron's BrowserWindow it reads. */
export interface WindowLike {
  isDestroyed(): boolean;
  readonly webContents: { readonly id: number; readonly mainFrame: FrameLike };
}

export interface InvokeHandlerOptions {
  readonly host: HostTransport;
  /** The one window allowed to call; null while none is open. Read on every call, so a re-created window works. */
  readonly getWindow: () => WindowLike | null;
  /** Whether a frame URL is our own page (app/appOrigin.ts's isAppUrl). */
  readonly isAllowedUrl: (url: string) => boolean;
}

function frameRef(frame: FrameLike): FrameRef {
  return { processId: frame.processId, routingId: frame.routingId };
}

function senderSnapshot(event: InvokeEventLike): SenderSnapshot {
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

function trustedSnapshot(window: WindowLike | null): TrustedWindowSnapshot | null {
  if (window === null || window.isDestroyed()) return null;
  return { webContentsId: window.webContents.id, mainFrame: frameRef(window.webContents.mainFrame) };
}

function refused(message: string): ApiResult<never> {
  return { ok: false, error: { code: 'INVALID_REQUEST', message } };
}

/**
 * The handler of the invoke channel: checks the sender frame, then hands the call to the Host, which validates the
 * request against the contract's schemas. Always answers with an ApiResult; nothing is thrown across IPC.
 */
export function invokeHandler({ host, getWindow, isAllowedUrl }: InvokeHandlerOptions) {
  return async (event: InvokeEventLike, method: unknown, request: unknown): Promise<ApiResult<unknown>> => {
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
  };
}
