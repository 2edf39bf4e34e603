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

/** The shape the preload exposes as window.homebody. */
export interface HomebodyBridge {
  invoke(method: string, request: unknown): Promise<unknown>;
  onEvent(listener: (event: unknown) => void): () => void;
}
