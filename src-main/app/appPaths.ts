import path from 'node:path';

/** Where the built app keeps what the main process loads, below the project root (or app.asar once packaged). */
export interface AppPaths {
  readonly rendererDir: string;
  readonly preloadPath: string;
}

export function appPaths(appRoot: string): AppPaths {
  if (!path.isAbsolute(appRoot)) throw new Error(`The app root must be absolute: ${appRoot}`);
  return {
    rendererDir: path.join(appRoot, 'build', 'renderer'),
    preloadPath: path.join(appRoot, 'build', 'preload', 'preload.cjs'),
  };
}
