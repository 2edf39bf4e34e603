import { API_METHODS } from '../../src-shared/contract/index.js';
import type {
  ApiMethod,
  ApiRequest,
  ApiResponse,
  AppError,
  HomebodyApi,
  HostEvent,
} from '../../src-shared/contract/index.js';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export interface HostListeners {
  onEvent(event: HostEvent): void;
  /** A malformed event or a broken connection: shown to the user, never thrown. */
  onError(error: AppError): void;
  /** The event stream came back after a drop: events may have been missed, so state should be refetched. */
  onReconnect(): void;
  onConnectionChange?(state: ConnectionState): void;
}

/** The renderer's one way to the Host, whichever transport carries it. */
export interface HostClient {
  readonly transport: 'ipc' | 'http';
  readonly api: HomebodyApi;
  subscribe(listeners: HostListeners): () => void;
}

export type Invoke = <M extends ApiMethod>(method: M, request: ApiRequest<M>) => Promise<ApiResponse<M>>;

/** Builds the typed client from one generic call, one entry per method of the contract (API_METHODS comes from its schemas). */
export function apiFromInvoke(invoke: Invoke): HomebodyApi {
  return Object.fromEntries(
    API_METHODS.map((method) => [method, (request: ApiRequest<typeof method>) => invoke(method, request)]),
  ) as HomebodyApi;
}
