import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The app's data folder when none is given: HOMEBODY_DATA_DIR, else the same
 * folder Electron's app.getPath('userData') picks for "Homebody", so the
 * desktop app, browser mode and the CLI share one history.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.HOMEBODY_DATA_DIR) return env.HOMEBODY_DATA_DIR;
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
