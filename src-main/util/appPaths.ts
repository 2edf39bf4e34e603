import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding package.json and resources/: found by walking up from
 * this module, so it works from the sources (tsx), the compiled build and an
 * unpacked Electron app alike. HOMEBODY_APP_ROOT overrides it.
 */
export function appRoot(): string {
  if (process.env.HOMEBODY_APP_ROOT) return process.env.HOMEBODY_APP_ROOT;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'resources'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the Homebody app folder (package.json beside resources/)');
    dir = parent;
  }
}

export function resourcePath(...segments: string[]): string {
  return resolve(appRoot(), 'resources', ...segments);
}

export function rendererDir(): string {
  return resolve(appRoot(), 'build', 'renderer');
}

export function appVersion(): string {
  const pkg = JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
