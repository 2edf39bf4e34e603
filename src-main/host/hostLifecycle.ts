import type { DataFolder } from '../store/dataFolder.js';
import type { Store } from '../store/store.js';
import type { Host } from './hostTypes.js';

/** Something the Host stops when it is disposed. */
export interface Disposable {
  dispose(): unknown;
}

export interface HostParts extends Omit<Host, 'dispose'> {
  /** Stopped in this order, then the store is closed and the data folder let go. */
  readonly shutdown: readonly Disposable[];
  readonly store: Store;
  readonly folder: DataFolder;
}

/** The Host as its shells see it: the contract, the events, and a dispose that runs once, in order. */
export function hostOf(parts: HostParts): Host {
  const { invoke, call, subscribe, recordConnection, shutdown, store, folder } = parts;
  let disposed = false;
  return {
    invoke,
    call,
    subscribe,
    recordConnection,
    async dispose() {
      if (disposed) return;
      disposed = true;
      for (const part of shutdown) await part.dispose();
      store.close();
      folder.release();
    },
  };
}
