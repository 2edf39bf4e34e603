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

/**
 * The most bytes one API request may carry. A history import (a whole backup) may carry more, and so may an
 * export or deletion of a selection (up to 100,000 task ids of up to 64 characters each).
 */
export const MAX_REQUEST_BYTES = 1 << 20;
export const MAX_SELECTION_BYTES = 8 << 20;
export const MAX_IMPORT_BYTES = 512 << 20;
export function maxRequestBytes(method: string): number {
  if (method === 'history.import') return MAX_IMPORT_BYTES;
  if (method === 'history.delete' || method === 'history.export') return MAX_SELECTION_BYTES;
  return MAX_REQUEST_BYTES;
}

/** The shape the preload exposes as window.homebody. */
export interface HomebodyBridge {
  invoke(method: string, request: unknown): Promise<unknown>;
  onEvent(listener: (event: unknown) => void): () => void;
}
