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

/** Builds the typed client from one generic call; listing every method keeps it exhaustive against the contract. */
export function apiFromInvoke(invoke: Invoke): HomebodyApi {
  return {
    'app.info': (request) => invoke('app.info', request),
    'model.state': (request) => invoke('model.state', request),
    'model.open': (request) => invoke('model.open', request),
    'model.catalog': (request) => invoke('model.catalog', request),
    'model.chooseFile': (request) => invoke('model.chooseFile', request),
    'chat.send': (request) => invoke('chat.send', request),
    'chat.stop': (request) => invoke('chat.stop', request),
    'tasks.list': (request) => invoke('tasks.list', request),
    'tasks.get': (request) => invoke('tasks.get', request),
  };
}
