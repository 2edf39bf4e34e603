import path from 'node:path';

/**
 * better-sqlite3 is a native addon, and Electron's Node has its own ABI
 * (NODE_MODULE_VERSION), so the build in node_modules (made for plain Node and
 * used by the tests) cannot be loaded here. The Host passes this path to
 * better-sqlite3's `nativeBinding` option:
 *
 * - `npm start` builds the addon for Electron into build/electron-native/
 *   (scripts/electron.mjs) and sets HOMEBODY_SQLITE_BINDING to it;
 * - a packaged app has node_modules rebuilt for Electron by electron-builder
 *   (npmRebuild) and unpacked from the asar (asarUnpack), under
 *   resources/app.asar.unpacked/.
 *
 * Undefined means better-sqlite3 looks for its addon itself.
 */
export interface SqliteBindingContext {
  readonly env: NodeJS.ProcessEnv;
  readonly isPackaged: boolean;
  /** Electron's process.resourcesPath; undefined outside Electron. */
  readonly resourcesPath: string | undefined;
  readonly exists: (file: string) => boolean;
}

export const PACKAGED_SQLITE_BINDING = path.join(
  'app.asar.unpacked',
  'node_modules',
  'better-sqlite3',
  'build',
  'Release',
  'better_sqlite3.node',
);

export function sqliteNativeBinding(context: SqliteBindingContext): string | undefined {
  const fromEnv = context.env.HOMEBODY_SQLITE_BINDING?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  if (context.isPackaged && context.resourcesPath !== undefined) {
    const unpacked = path.join(context.resourcesPath, PACKAGED_SQLITE_BINDING);
    if (context.exists(unpacked)) return unpacked;
  }
  return undefined;
}
