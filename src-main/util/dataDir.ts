import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The app's data folder when none is given: HOMEBODY_DATA_DIR, else the same
 * folder Electron's app.getPath('userData') picks for "Homebody", so the
 * desktop app, browser mode and the CLI share one history.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.HOMEBODY_DATA_DIR) return env.HOMEBODY_DATA_DIR;
  return platformDataDir(env, platform);
}

/** The folder Homebody names for itself in the user's configuration folder, whatever HOMEBODY_DATA_DIR says. */
export function platformDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Homebody');
    case 'win32':
      return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Homebody');
    default:
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Homebody');
  }
}

/**
 * Whether `dir` is Homebody's own by its path: the folder it names for itself, which this version or an older one
 * made. Any other folder may be one the user keeps other things in (`--data-dir ~/`), so Homebody never changes
 * its mode unless it created it (see store/dataFolder.ts).
 */
export function isPlatformDataDir(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): boolean {
  return resolve(dir) === resolve(platformDataDir(env, platform));
}
