import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// A clean install on the Node this repository declares must not warn EBADENGINE: every package the lockfile
// installs supports the oldest Node that `engines` allows. (electron-builder's own @electron/rebuild 4 needs Node
// 22.12; package.json's `overrides` keeps the 3.6 line, whose API electron-builder calls the same way.)
const repoRoot = resolve(import.meta.dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as Record<string, unknown>;

describe('the dependency tree on the Node this repository supports', () => {
  const manifest = readJson('package.json') as { engines: { node: string } };
  const lock = readJson('package-lock.json') as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const oldest = semver.minVersion(manifest.engines.node)!.version;

  it('declares a Node range with a lowest version', () => {
    expect(semver.satisfies(oldest, manifest.engines.node)).toBe(true);
  });

  it('installs no package whose engines exclude that Node', () => {
    const excluding = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        if (!range || !semver.validRange(range)) return [];
        return semver.satisfies(oldest, range, { includePrerelease: true }) ? [] : [`${path} needs node ${range}`];
      });
    expect(excluding).toEqual([]);
  });
});
