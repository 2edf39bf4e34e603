import type { ApiMethod, ApiResponse, HostEvent } from '../../src-shared/contract/index.js';
import { apiResultSchema, apiSchemas, HostEventSchema } from '../../src-shared/contract/index.js';
import { ApiCallError } from './apiError.js';

/**
 * Checks a raw ApiResult against the method's schema. Returns the value or
 * throws ApiCallError: the Host's own error for `{ok:false}`, INTERNAL for a
 * payload that does not match the contract.
 */
export function parseApiResult<M extends ApiMethod>(method: M, raw: unknown): ApiResponse<M> {
  const parsed = apiResultSchema(apiSchemas[method].response).safeParse(raw);
  if (!parsed.success) {
    throw new ApiCallError('INTERNAL', `Homebody sent a malformed answer to ${method}.`, { cause: parsed.error });
  }
  if (!parsed.data.ok) throw new ApiCallError(parsed.data.error.code, parsed.data.error.message);
  // The schema above is apiSchemas[method].response, so its output is exactly ApiResponse<M>.
  return parsed.data.value as ApiResponse<M>;
}

export type EventParseResult = { ok: true; event: HostEvent } | { ok: false; error: ApiCallError };

export function parseHostEvent(raw: unknown): EventParseResult {
  const parsed = HostEventSchema.safeParse(raw);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, error: new ApiCallError('INTERNAL', 'Homebody sent a malformed event; it was ignored.') };
}
