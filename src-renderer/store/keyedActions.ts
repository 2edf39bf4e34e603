import type { AppError } from '../../src-shared/contract/index.js';
import { toAppError } from '../bridge/apiError.js';
import type { AppState, Outcome } from './types.js';

type SetState = (partial: (state: AppState) => Partial<AppState>) => void;

/**
 * A page whose rows each have actions in flight and their own last error (the Models page's models, its nodes):
 * which calls run (a set of keys) and which error shows where (a record by key), in the two fields of the state
 * named here, with `act` running one call under a pending key and showing its error in place.
 */
export function keyedActions(
  set: SetState,
  pendingField: 'modelsPending' | 'nodesPending',
  errorsField: 'modelsActionErrors' | 'nodesActionErrors',
) {
  const setPending = (key: string, on: boolean) =>
    set((state) => {
      const pending = new Set(state[pendingField]);
      if (on) pending.add(key);
      else pending.delete(key);
      return { [pendingField]: pending };
    });

  const setActionError = (key: string, error: AppError | null) =>
    set((state) => {
      const { [key]: _previous, ...rest } = state[errorsField];
      return { [errorsField]: error ? { ...rest, [key]: error } : rest };
    });

  /** Runs one call under a pending key; its error is shown in place under `errorKey`. */
  const act = async <T>(pendingKey: string, errorKey: string, call: () => Promise<T>): Promise<Outcome<T>> => {
    setPending(pendingKey, true);
    setActionError(errorKey, null);
    try {
      return { ok: true, value: await call() };
    } catch (error) {
      const appError = toAppError(error);
      setActionError(errorKey, appError);
      return { ok: false, error: appError };
    } finally {
      setPending(pendingKey, false);
    }
  };

  return { setPending, setActionError, act };
}
