import type { AppError } from '../../src-shared/contract/index.js';
import { SecretStore } from '../privacy/secretStore.js';
import { storageFailure } from '../store/db.js';
import { openStoreMovingDamagedAside, type Store } from '../store/store.js';
import type { HostOptions } from './hostTypes.js';

/**
 * The database and the secret store of the data folder, and what the user must be told of this start: a damaged
 * database moved aside, a secret store that could not use the OS keychain or read its key (their notices).
 */
export function openStores(options: Pick<HostOptions, 'dataDir' | 'sqliteNativeBinding' | 'keychain'>) {
  const { dataDir, keychain } = options;
  const opened = openStoreMovingDamagedAside(
    dataDir,
    options.sqliteNativeBinding ? { nativeBinding: options.sqliteNativeBinding } : {},
  );
  const notices: AppError[] = [...opened.notices];
  const secrets = new SecretStore({
    dataDir,
    ...(keychain ? { keychain } : {}),
    notice: (message) => notices.push({ code: 'SECRET_STORE_ERROR', message }),
  });
  return { store: opened.store, secrets, notices };
}

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

/**
 * Seals the secrets an older version stored in clear, then checkpoints the WAL so no clear copy stays in it (the
 * rows they leave are zeroed by secure_delete). On a full disk they stay as they were until the next start.
 */
export function sealClearSecrets(
  store: Pick<Store, 'checkpoint'>,
  steps: ReadonlyArray<() => boolean>,
  notices: AppError[],
): void {
  try {
    let wrote = false;
    for (const step of steps) wrote = step() || wrote;
    if (wrote) store.checkpoint();
  } catch (error) {
    const failure = storageFailure(error);
    if (!failure) throw error;
    notices.push({
      code: failure.code,
      message: `${failure.message} Homebody could not yet encrypt the passwords an older version kept; it will at the next start.`,
    });
  }
}
