import { readdirSync, realpathSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { StorageItem, StorageReport } from '../../../src-shared/contract/index.js';
import { LOCK_FILE, OWNER_FILE } from '../../store/dataFolderLock.js';

/**
 * What "delete all my data" does with a place: empty it in place (the database, which stays open), remove it,
 * remove it only when downloaded models go too, or leave it (a folder of the user's own outside the data folder).
 */
export type OnDelete = 'wipe' | 'remove' | 'remove-with-models' | 'keep';

/** One place Homebody keeps data, with every path whose bytes are its own. */
export interface StoragePlace {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  /** The path shown to the user. */
  readonly path: string;
  /** What counts for its size (the database file with its -wal and -shm). */
  readonly paths: readonly string[];
  readonly onDelete: OnDelete;
}

/** A tool pack's folder as the settings resolve it: the one the user chose, or the default in the data folder. */
export interface PackFolder {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly path: string;
  /** Where it is when the user chose none (in the data folder). */
  readonly defaultPath: string;
}

export interface DataLayout {
  readonly dataDir: string;
  /** The SQLite file; its -wal and -shm beside it. */
  readonly databaseFile: string;
  readonly packFolders: readonly PackFolder[];
  /** The secret store's key file (browser mode and the CLI). */
  readonly keyFile: string;
}

/**
 * The folders Homebody itself makes in the data folder, by name. Kept here, beside what the Privacy page says of
 * each, so a new one shows up in "other files" (and in this module's test) until it is described.
 */
const OWN_FOLDERS: ReadonlyArray<{ name: string; id: string; label: string; description: string; onDelete: OnDelete }> =
  [
    {
      name: 'models',
      id: 'models',
      label: 'Downloaded models',
      description:
        'Model files downloaded from the catalog, and partial downloads. Deleted with your data only when you ask.',
      onDelete: 'remove-with-models',
    },
    {
      name: 'prefix-cache',
      id: 'prefix-cache',
      label: 'Saved prompt evaluations',
      description:
        "The model's evaluation of the system prompt and tool list, saved so a restart does not compute it again.",
      onDelete: 'remove',
    },
    {
      name: 'cache',
      id: 'benchmark-cache',
      label: 'Benchmark model',
      description: 'The small generated model the Doctor measures this machine with.',
      onDelete: 'remove',
    },
    {
      name: 'trash',
      id: 'trash',
      label: 'Undo copies',
      description: 'Old versions of files that tools changed, moved or deleted, kept so each change can be undone.',
      onDelete: 'remove',
    },
    {
      name: 'reminders',
      id: 'reminders',
      label: 'Reminders',
      description: 'Your reminders, in one file.',
      onDelete: 'remove',
    },
    {
      name: 'logs',
      id: 'logs',
      label: 'Logs',
      description: 'Log files.',
      onDelete: 'remove',
    },
  ];

/** The names of the folders Homebody makes in the data folder (made private when the data folder is its own). */
export const OWN_FOLDER_NAMES: readonly string[] = OWN_FOLDERS.map((folder) => folder.name);

/** The prefix of a damaged database Homebody moved aside (see store/moveAside.ts). */
const DAMAGED_INFIX = '.damaged-';

/** Whether `path` is the folder `root` itself or inside it, after following links where the path exists. */
export function isInside(root: string, path: string): boolean {
  const realRoot = realOrResolved(root);
  const real = realOrResolved(path);
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Every place Homebody keeps data, in the order the Privacy page lists them. Places that may not exist (logs, the
 * key file, damaged databases) are listed only when they do; the database and the folders always are.
 */
export function storagePlaces(layout: DataLayout): StoragePlace[] {
  const { dataDir, databaseFile } = layout;
  const names = new Set(entries(dataDir));
  const places: StoragePlace[] = [
    {
      id: 'database',
      label: 'History database',
      description:
        'Your tasks and messages, tool calls and their approvals, the audit log, the connection ledger, settings ' +
        '(passwords and tokens sealed), MCP servers and the list of models.',
      path: databaseFile,
      paths: [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`],
      onDelete: 'wipe',
    },
  ];
  for (const folder of OWN_FOLDERS) {
    if (folder.id === 'logs' && !names.has(folder.name)) continue;
    const path = join(dataDir, folder.name);
    places.push({ ...withoutName(folder), path, paths: [path] });
  }
  for (const folder of layout.packFolders) {
    const inside = isInside(dataDir, folder.path);
    places.push({
      id: folder.id,
      label: folder.label,
      description: inside
        ? folder.description
        : `${folder.description} Your own folder, chosen in Settings: listed here, never deleted by Homebody.`,
      path: folder.path,
      paths: [folder.path],
      onDelete: inside ? 'remove' : 'keep',
    });
    // The default folder left behind when the user chose another may still hold what the tools wrote there.
    if (resolve(folder.defaultPath) !== resolve(folder.path) && names.has(basename(folder.defaultPath))) {
      places.push({
        id: `${folder.id}-default`,
        label: `${folder.label} (the default one, no longer used)`,
        description: `${folder.description} Left in the data folder when another folder was chosen in Settings.`,
        path: folder.defaultPath,
        paths: [folder.defaultPath],
        onDelete: 'remove',
      });
    }
  }
  if (names.has(basename(layout.keyFile)) && isInside(dataDir, layout.keyFile)) {
    places.push({
      id: 'secret-key',
      label: 'Secret key',
      description: 'The key that encrypts your mail passwords and MCP server tokens (only your user may read it).',
      path: layout.keyFile,
      paths: [layout.keyFile],
      onDelete: 'remove',
    });
  }
  if (names.has(LOCK_FILE)) {
    places.push({
      id: 'lock',
      label: 'Folder lock',
      description:
        'Which Homebody process uses this folder now (its process number, command and start time), so that no ' +
        'second one changes its data. Holds nothing of yours; kept while Homebody runs.',
      path: join(dataDir, LOCK_FILE),
      paths: [join(dataDir, LOCK_FILE), join(dataDir, OWNER_FILE)],
      onDelete: 'keep',
    });
  }
  const damaged = [...names]
    .filter((name) => name.startsWith(basename(databaseFile) + DAMAGED_INFIX))
    .map((name) => join(dataDir, name));
  if (damaged.length > 0) {
    places.push({
      id: 'damaged-databases',
      label: 'Damaged databases moved aside',
      description: 'Earlier history databases Homebody could not open, kept untouched for you to recover from.',
      path: damaged.length === 1 ? damaged[0]! : join(dataDir, `${basename(databaseFile)}${DAMAGED_INFIX}*`),
      paths: damaged,
      onDelete: 'remove',
    });
  }
  const other = otherEntries(dataDir, places);
  if (other.length > 0) {
    places.push({
      id: 'other',
      label: 'Other files in the data folder',
      description:
        "Files Homebody does not write itself: in the desktop app, the window's own storage (caches, preferences). " +
        'Not deleted with your data.',
      path: dataDir,
      paths: other,
      onDelete: 'keep',
    });
  }
  return places;
}

function withoutName<T extends { name: string }>(folder: T): Omit<T, 'name'> {
  const { name: _name, ...rest } = folder;
  return rest;
}

/** What lies directly in the data folder and belongs to no listed place. */
function otherEntries(dataDir: string, places: readonly StoragePlace[]): string[] {
  const known = new Set(places.flatMap((p) => p.paths).map((p) => resolve(p)));
  const root = resolve(dataDir);
  return entries(dataDir)
    .map((name) => join(root, name))
    .filter((path) => !known.has(path) && ![...known].some((k) => isStrictlyUnder(k, path)));
}

/** A listed place lies under `path` (a pack folder the user chose inside a subfolder of the data folder). */
function isStrictlyUnder(place: string, path: string): boolean {
  return place.startsWith(path + sep);
}

/**
 * Bytes on disk of a file, or of a folder and everything in it, without following links (a link counts as
 * itself, so a folder that links elsewhere is not measured twice or outside what it holds). 0 when missing.
 */
export async function bytesOf(path: string): Promise<number> {
  let stats;
  try {
    stats = await lstat(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.isFile() ? stats.size : 0;
  let names: string[];
  try {
    names = await readdir(path);
  } catch {
    return 0;
  }
  let total = 0;
  for (const name of names) total += await bytesOf(join(path, name));
  return total;
}

export async function placeBytes(place: StoragePlace): Promise<number> {
  let total = 0;
  for (const path of place.paths) total += await bytesOf(path);
  return total;
}

/**
 * The Privacy page's "Stored on this computer": each place with its size now, and how secrets are kept (the
 * sandbox that keeps the tools away from it is added by privacyStorage.ts).
 */
export async function storageReport(
  dataDir: string,
  places: readonly StoragePlace[],
  secrets: StorageReport['secrets'],
): Promise<Omit<StorageReport, 'sandbox'>> {
  const items: StorageItem[] = [];
  for (const place of places) {
    items.push({
      id: place.id,
      label: place.label,
      path: place.path,
      bytes: await placeBytes(place),
      description: place.description,
      deletedWithData: place.onDelete === 'wipe' || place.onDelete === 'remove',
    });
  }
  return { dataDir, items, totalBytes: items.reduce((sum, item) => sum + item.bytes, 0), secrets };
}
