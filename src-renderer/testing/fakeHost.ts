import {
  apiSchemas,
  type ApiMethod,
  type ApiRequest,
  type ApiResponse,
  type HomebodyApi,
} from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { apiFromInvoke } from '../bridge/hostClient.js';
import { parseApiResult } from '../bridge/validate.js';

/** One contract call the UI made, as the Host would have received it. */
export type RecordedCall = { [M in ApiMethod]: { method: M; request: ApiRequest<M> } }[ApiMethod];

/** How the fake Host answers a method: a value, or a thrown ApiCallError (the Host's `{ok: false}`). */
export type FakeAnswers = { [M in ApiMethod]?: (request: ApiRequest<M>) => ApiResponse<M> | Promise<ApiResponse<M>> };

export interface FakeHost {
  readonly api: HomebodyApi;
  /** Every call in the order the UI made it, unanswered methods included. */
  readonly calls: RecordedCall[];
  /** The requests of one method, in order. */
  requestsTo<M extends ApiMethod>(method: M): ApiRequest<M>[];
}

/**
 * A Host for component tests, built the way the real transports build theirs (`apiFromInvoke`): it records each
 * call, refuses a request the contract's schema refuses (as the Host does), answers from `answers`, and passes every
 * answer through the bridge's own check (`parseApiResult`). A method it has no answer for fails as the Host's
 * INTERNAL error would, so a stray call shows up both in `calls` and on screen.
 */
export function fakeHost(answers: FakeAnswers = {}): FakeHost {
  const calls: RecordedCall[] = [];
  const api = apiFromInvoke(async (method, request) => {
    calls.push({ method, request } as RecordedCall);
    return parseApiResult(method, await answer(method, request));
  });

  async function answer(method: ApiMethod, request: unknown): Promise<unknown> {
    const checked = apiSchemas[method].request.safeParse(request);
    if (!checked.success) {
      const why = checked.error.issues.map((issue) => issue.message).join('; ');
      return { ok: false, error: { code: 'INVALID_REQUEST', message: `The contract refuses this ${method}: ${why}` } };
    }
    const handler = answers[method] as ((request: unknown) => unknown) | undefined;
    if (!handler)
      return { ok: false, error: { code: 'INTERNAL', message: `The fake Host has no answer for ${method}.` } };
    try {
      return { ok: true, value: await handler(request) };
    } catch (error) {
      if (error instanceof ApiCallError) return { ok: false, error: error.toAppError() };
      throw error;
    }
  }

  return {
    api,
    calls,
    requestsTo: <M extends ApiMethod>(method: M) =>
      calls.filter((call) => call.method === method).map((call) => call.request as ApiRequest<M>),
  };
}
