/**
 * Who may call the Host over IPC: only the main frame of our own window, and
 * only while it shows our own page. Subframes, other windows, devtools and a
 * page that somehow navigated away are all refused (Electron security
 * checklist, "Validate the sender of all IPC messages"; VS Code checks the
 * same in base/parts/ipc/electron-main/ipcMain.ts).
 *
 * Plain data in, verdict out, so that it is tested without Electron;
 * invokeHandler.ts takes the snapshot from the real event.
 */

/** Electron identifies a frame by (processId, routingId); two WebFrameMain objects may stand for one frame. */
export interface FrameRef {
  readonly processId: number;
  readonly routingId: number;
}

export interface SenderSnapshot {
  readonly webContentsId: number;
  /** Null when the frame navigated or was destroyed before the message was handled. */
  readonly frame: (FrameRef & { readonly url: string }) | null;
}

export interface TrustedWindowSnapshot {
  readonly webContentsId: number;
  readonly mainFrame: FrameRef;
}

export type SenderVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export function checkSender(
  sender: SenderSnapshot,
  trusted: TrustedWindowSnapshot | null,
  isAllowedUrl: (url: string) => boolean,
): SenderVerdict {
  if (trusted === null) return { ok: false, reason: 'no Homebody window is open' };
  if (sender.webContentsId !== trusted.webContentsId) return { ok: false, reason: 'sender is not the Homebody window' };
  const frame = sender.frame;
  if (frame === null) return { ok: false, reason: 'sender frame is gone' };
  if (frame.processId !== trusted.mainFrame.processId || frame.routingId !== trusted.mainFrame.routingId) {
    return { ok: false, reason: 'sender is not the main frame' };
  }
  if (!isAllowedUrl(frame.url)) return { ok: false, reason: `sender page is not Homebody's (${frame.url})` };
  return { ok: true };
}
