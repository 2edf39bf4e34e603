import type { z } from 'zod';
import type { ApiMethod, ApiResponse, HostEvent, apiSchemas } from '../../src-shared/contract/index.js';

/** One contract method's handler: its request as the schema parsed it, its answer as the contract types it. */
export type Handler<M extends ApiMethod> = (
  request: z.output<(typeof apiSchemas)[M]['request']>,
) => Promise<ApiResponse<M>>;

/** Every method of the contract, each answered by exactly one service. */
export type Handlers = { [M in ApiMethod]: Handler<M> };

/** The handlers one service answers for. */
export type HandlersOf<M extends ApiMethod> = Pick<Handlers, M>;

/**
 * Who is at the other end of this Host's contract, as the audit log names them: the user at the app (desktop or
 * browser mode), or a `homebody` command, whose Host answers nobody else.
 */
export type Caller = 'user' | 'cli';

/** How a service tells the shells what changed (the Host's one event stream). */
export type Emit = (event: HostEvent) => void;

/** Listens to the Host's event stream; answers the function that stops listening. */
export type Subscribe = (listener: (event: HostEvent) => void) => () => void;
