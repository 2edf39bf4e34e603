/**
 * Names shared by the transports. Kept free of schema code so the Electron
 * preload, which must stay tiny, can import them.
 */
export const IPC_INVOKE_CHANNEL = 'homebody:invoke';
export const IPC_EVENT_CHANNEL = 'homebody:event';

/** Browser mode: the per-launch token travels in this header for API calls. */
export const TOKEN_HEADER = 'x-homebody-token';
export const TOKEN_QUERY = 'token';
export const API_PATH_PREFIX = '/api/';
export const EVENTS_PATH = '/events';

/** The most bytes one API request may carry; a history import (a whole backup) may carry more. */
export const MAX_REQUEST_BYTES = 1 << 20;
export const MAX_IMPORT_BYTES = 512 << 20;
export function maxRequestBytes(method: string): number {
  return method === 'history.import' ? MAX_IMPORT_BYTES : MAX_REQUEST_BYTES;
}

/** The shape the preload exposes as window.homebody. */
export interface HomebodyBridge {
  invoke(method: string, request: unknown): Promise<unknown>;
  onEvent(listener: (event: unknown) => void): () => void;
}
