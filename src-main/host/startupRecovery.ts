import type { AppError } from '../../src-shared/contract/index.js';
import { storageFailure } from '../store/db.js';

/**
 * Runs one crash-recovery step at start. On a full disk the step cannot write, but the app must still open
 * so the user can read the history and free space: the failure becomes a notice and the step runs again at
 * the next start (the rows it would have marked stay as the crash left them). Other errors propagate.
 */
export function recoverOrNotice(what: string, step: () => void, notices: AppError[]): void {
  try {
    step();
  } catch (error) {
    const failure = storageFailure(error);
    if (!failure) throw error;
    notices.push({
      code: failure.code,
      message: `${failure.message} Homebody could not yet mark ${what} left by the last crash; it will at the next start.`,
    });
  }
}
