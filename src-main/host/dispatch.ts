import { EventEmitter } from 'node:events';
import {
  API_METHODS,
  HomebodyError,
  apiSchemas,
  isApiMethod,
  type ApiMethod,
  type ApiResponse,
  type ApiResult,
  type HostEvent,
} from '../../src-shared/contract/index.js';
import type { Handlers } from '../services/handlers.js';
import { storageFailure } from '../store/db.js';
import { describeIssues } from './requestIssues.js';

/** The methods some group of handlers answers. */
type Answered<G> = G extends unknown ? keyof G : never;

/** Compiles only when every contract method is answered; otherwise the error names the first ones missing. */
type EveryMethod<G> = [Exclude<ApiMethod, Answered<G>>] extends [never]
  ? unknown
  : { readonly missingHandlers: Exclude<ApiMethod, Answered<G>> };

/**
 * One map from every contract method to the one service that answers it. A method no service answers is a type
 * error here; one that two services would answer (or one the contract lacks) is refused at start, naming it.
 */
export function registerHandlers<G extends Partial<Handlers>>(groups: ReadonlyArray<G> & EveryMethod<G>): Handlers {
  const handlers = new Map<string, unknown>();
  for (const group of groups) {
    for (const [method, handler] of Object.entries(group)) {
      if (handlers.has(method)) throw new Error(`Two services answer the contract method ${method}.`);
      handlers.set(method, handler);
    }
  }
  const missing = API_METHODS.filter((method) => !handlers.has(method));
  if (missing.length) throw new Error(`No service answers the contract methods ${missing.join(', ')}.`);
  const unknown = [...handlers.keys()].filter((method) => !isApiMethod(method));
  if (unknown.length) throw new Error(`Services answer methods the contract lacks: ${unknown.join(', ')}.`);
  return Object.fromEntries(handlers) as Handlers;
}

/**
 * The Host's two entry points over the handlers: `invoke` for in-process callers (the CLI), typed, throwing
 * HomebodyError; `call` for the transports, which takes any method name and answers a result value, never throwing.
 * Both validate the request against the contract's schema on arrival, whichever transport brought it.
 */
export function createDispatch(handlers: Handlers, onHandled?: (method: ApiMethod) => void) {
  async function invoke<M extends ApiMethod>(method: M, raw: unknown): Promise<ApiResponse<M>> {
    const parsed = apiSchemas[method].request.safeParse(raw ?? {});
    if (!parsed.success) {
      throw new HomebodyError('INVALID_REQUEST', `Invalid ${method} request: ${describeIssues(parsed.error)}`);
    }
    const handler = handlers[method] as (request: unknown) => Promise<ApiResponse<M>>;
    const response = await handler(parsed.data);
    onHandled?.(method);
    return response;
  }

  async function call(method: string, request: unknown): Promise<ApiResult<unknown>> {
    if (!isApiMethod(method)) {
      return {
        ok: false,
        error: { code: 'UNKNOWN_METHOD', message: `Homebody has no method "${String(method).slice(0, 80)}".` },
      };
    }
    try {
      return { ok: true, value: await invoke(method, request) };
    } catch (error) {
      if (error instanceof HomebodyError) return { ok: false, error: error.toJSON() };
      const storage = storageFailure(error);
      if (storage) {
        console.error(`[host] ${method} could not write the database:`, (error as Error).message);
        return { ok: false, error: storage.toJSON() };
      }
      console.error(`[host] ${method} failed:`, error);
      return { ok: false, error: { code: 'INTERNAL', message: `${method} failed: ${(error as Error).message}` } };
    }
  }

  return { invoke, call };
}

/** The Host's one event stream: every service emits into it, every shell and the services that react listen. */
export function createEventHub() {
  const events = new EventEmitter<{ event: [HostEvent] }>();
  events.setMaxListeners(0);
  return {
    emit: (event: HostEvent): void => void events.emit('event', event),
    subscribe(listener: (event: HostEvent) => void): () => void {
      events.on('event', listener);
      return () => events.off('event', listener);
    },
  };
}
