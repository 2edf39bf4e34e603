import { z } from 'zod';

/** Every failure that crosses the contract carries one of these codes and a sentence a user can act on. */
export const ErrorCodeSchema = z.enum([
  'MODEL_NOT_FOUND',
  'MODEL_UNREADABLE',
  'MODEL_NOT_GGUF',
  'MODEL_TRUNCATED',
  'MODEL_UNSUPPORTED',
  'MODEL_LOAD_FAILED',
  'NO_MODEL',
  /** models.*: no catalog entry has that id. */
  'UNKNOWN_CATALOG_ENTRY',
  /** models.download / models.add: that model is already on disk (the message names it). */
  'MODEL_ALREADY_PRESENT',
  /** models.pause/resume/cancel: no download has that id. */
  'DOWNLOAD_NOT_FOUND',
  /** A download could not complete (not found on the server, no connection, disk full...); the message says why. */
  'DOWNLOAD_FAILED',
  /** A downloaded or verified file's size or sha256 is not the expected one; the message names both. */
  'CHECKSUM_MISMATCH',
  /** The egress guard refused a connection (offline mode, or a URL that is not http/https). */
  'NETWORK_BLOCKED',
  'TASK_NOT_FOUND',
  'TASK_BUSY',
  'CONTEXT_OVERFLOW',
  'INVALID_REQUEST',
  'UNKNOWN_METHOD',
  'STORE_ERROR',
  'STORAGE_FULL',
  /**
   * A stored secret (a mail password, an MCP token) could not be sealed or opened: the key file is unsafe or
   * unreadable, or the value was altered or sealed with a key that is gone. The message says which.
   */
  'SECRET_STORE_ERROR',
  /** eval.start: an evaluation is already running (one at a time). */
  'EVAL_BUSY',
  /** eval.*: no run has that id. */
  'EVAL_RUN_NOT_FOUND',
  /** An evaluation suite cannot be read or is not valid; the message names the file and the problem. */
  'SUITE_INVALID',
  /**
   * The request would do something wide-reaching (granting the whole disk, the home folder, a system folder): it is
   * done only when sent again with the explicit confirmation the message asks for, after the user saw the warning.
   */
  'CONFIRMATION_REQUIRED',
  /** A model on another computer could not be reached: nothing listens there, or the name does not resolve. */
  'REMOTE_UNREACHABLE',
  /** A model on another computer did not answer in time (the message says at which step). */
  'REMOTE_TIMEOUT',
  /** The connection to a model on another computer ended in the middle of a reply. */
  'REMOTE_DROPPED',
  /** A model on another computer answered something that is not its API's answer (the message quotes it). */
  'REMOTE_BAD_REPLY',
  /** The server refused the request (an API key it does not take, an error of its own); the message has its words. */
  'REMOTE_REFUSED',
  /** The server serves another model than the one configured. */
  'REMOTE_WRONG_MODEL',
  /** The server's TLS certificate is not the one pinned when it was added. */
  'REMOTE_CERTIFICATE_CHANGED',
  /**
   * The model in use runs on another computer and this task has not been allowed to send its conversation there:
   * chat.send again with `allowRemote: true` once the user agreed (the message names the node).
   */
  'REMOTE_CONSENT_REQUIRED',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const AppErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
});
export type AppError = z.infer<typeof AppErrorSchema>;

/** An error thrown inside the Host that is meant to reach the caller as it is. */
export class HomebodyError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HomebodyError';
    this.code = code;
  }
  toJSON(): AppError {
    return { code: this.code, message: this.message };
  }
}

export function isHomebodyError(value: unknown): value is HomebodyError {
  return value instanceof HomebodyError;
}
