import type { AppError, ErrorCode } from '../../src-shared/contract/index.js';
import { ErrorCodeSchema } from '../../src-shared/contract/index.js';

/** What a failed call throws into the renderer: the Host's code and sentence, kept intact for display. */
export class ApiCallError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiCallError';
    this.code = code;
  }
  toAppError(): AppError {
    return { code: this.code, message: this.message };
  }
}

/** Turns anything caught into an AppError the UI can show; unknown failures become INTERNAL. */
export function toAppError(error: unknown): AppError {
  if (error instanceof ApiCallError) return error.toAppError();
  if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) {
    const code = ErrorCodeSchema.safeParse((error as { code: unknown }).code);
    const message = (error as { message: unknown }).message;
    if (code.success && typeof message === 'string') return { code: code.data, message };
  }
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message || 'Something went wrong.' };
  return { code: 'INTERNAL', message: 'Something went wrong.' };
}
