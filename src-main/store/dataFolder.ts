import { join } from 'node:path';
import { isPlatformDataDir } from '../util/dataDir.js';
import { lockDataFolder, type DataFolderOwner, type LockOptions } from './dataFolderLock.js';
import { makePrivate, makePrivateFolder } from './privateModes.js';

/**
 * The data folder, taken by this process: created if missing, locked for its owner, and private.
 *
 * Which folders' modes Homebody changes (POSIX): only its own. A data folder is Homebody's own when Homebody
 * created it (it is made 0700 at once) or when it is the folder Homebody names for itself (…/Homebody in the user's
 * configuration folder, which older versions made 0755: tightened to 0700 at start). Inside its own folder, the
 * folders Homebody makes there (models, trash, notes...) are tightened to 0700 as well. A folder the user pointed
 * Homebody at that already existed (`--data-dir ~/`) may hold other things: neither it nor any folder in it is ever
 * chmodded. Homebody's own files are private wherever they are: the database with its -wal and -shm (store/db.ts),
 * the lock and owner record (dataFolderLock.ts) and the secrets key (privacy/secretStore.ts) are 0600. All of this
 * happens quietly: a mode fixed is not news for the user.
 */
export interface DataFolder {
  readonly dir: string;
  /** Homebody created this folder or names it for itself, so its mode (and its subfolders') are Homebody's to set. */
  readonly ownFolder: boolean;
  /** Tightens the folders Homebody makes in its own data folder, by name, those that exist; nothing elsewhere. */
  makeOwnFoldersPrivate(names: readonly string[]): void;
  /** Lets the folder go (the Host's dispose); the operating system does it if the process ends first. */
  release(): void;
}

export async function takeDataFolder(
  dir: string,
  owner: DataFolderOwner,
  options: LockOptions = {},
): Promise<DataFolder> {
  const created = makePrivateFolder(dir);
  const lock = await lockDataFolder(dir, owner, options);
  // Only as the owner: nothing is changed in a folder another process holds.
  const ownFolder = created || isPlatformDataDir(dir);
  if (ownFolder) makePrivate(dir, 'folder');
  return {
    dir,
    ownFolder,
    makeOwnFoldersPrivate(names) {
      if (!ownFolder) return;
      for (const name of names) makePrivate(join(dir, name), 'folder');
    },
    release: () => lock.release(),
  };
}
