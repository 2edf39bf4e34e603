import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// electron-builder's own reader, matcher and walker (app-builder-lib is its core, builder-util its file helpers): the
// test selects the app's files as packaging does, ordered include and exclude patterns, the last match winning.
import type { Configuration, PlatformSpecificBuildOptions } from 'app-builder-lib';
import { getFileMatchers } from 'app-builder-lib/out/fileMatcher.js';
import { getConfig } from 'app-builder-lib/out/util/config/config.js';
import { walk, type Filter, type FilterStats } from 'builder-util';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from './appPaths.js';

/**
 * What the desktop app would contain, from electron-builder.yml's `files` applied to the build output in this
 * repository (`npx tsc -b`; `npm test` runs it before the tests). The production node_modules electron-builder adds
 * are not walked: a devDependency is never among them, so a packaged module that imports one is what is checked.
 * electron-builder adds exclusions of its own on top (its config, lock files, `.d.ts`), which only leave out more.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PLATFORMS = ['linux', 'mac', 'win'] as const;
type Platform = (typeof PLATFORMS)[number];

interface PackageJson {
  main: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The files the app starts from, checked so that packaging nothing cannot pass this test. */
const ENTRY_POINTS = [
  'package.json',
  pkg.main,
  // toolExecutor.ts starts the worker module beside itself.
  'build/tsc/src-main/tools/sandbox/toolWorker.js',
  path.relative(ROOT, appPaths(ROOT).preloadPath),
  path.join(path.relative(ROOT, appPaths(ROOT).rendererDir), 'index.html'),
  'resources/models/catalog.json',
  'resources/eval/default-suite.json',
].map(toPosix);

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}

/** The main matcher's filters for one platform, `${os}` and `${arch}` expanded as electron-builder does. */
function filtersFor(config: Configuration, platform: Platform): Array<{ from: string; filter: Filter }> {
  const expand = (pattern: string) =>
    pattern.replace(/\$\{(\w+)\}/g, (macro, name: string) => {
      if (name === 'os') return platform;
      if (name === 'arch') return 'x64';
      throw new Error(`electron-builder.yml uses ${macro} in files; packagedFiles.int.test.ts must expand it too.`);
    });
  const platformOptions: PlatformSpecificBuildOptions = config[platform] ?? {};
  const matchers = getFileMatchers(config, 'files', path.join(ROOT, 'app'), {
    macroExpander: expand,
    customBuildOptions: platformOptions,
    globalOutDir: path.join(ROOT, config.directories?.output ?? 'dist'),
    defaultSrc: ROOT,
  });
  if (matchers == null) throw new Error('electron-builder.yml has no files patterns.');
  return matchers.map((matcher) => ({ from: matcher.from, filter: matcher.createFilter() }));
}

/**
 * A compiled file that `tsc -b` would not write today, its source moved or deleted: tsc never removes such outputs,
 * and scripts/dist.mjs empties build/tsc before it builds, so they never reach a package.
 */
function staleOutput(file: string): boolean {
  const match = /^build\/tsc\/(.+?)(\.d\.ts|\.js\.map|\.js)$/.exec(file);
  if (!match?.[1]) return false;
  const source = path.join(ROOT, match[1]);
  return !['.ts', '.tsx', '.mts'].some((ext) => existsSync(source + ext));
}

async function packagedFiles(config: Configuration, platform: Platform): Promise<string[]> {
  const files: string[] = [];
  for (const { from, filter } of filtersFor(config, platform)) {
    for (const file of await walk(from, filter)) files.push(toPosix(path.relative(ROOT, file)));
  }
  return files.filter((file) => !staleOutput(file)).sort();
}

/**
 * Whether the patterns take `file`, a path from the repository root, built or not yet (the renderer and the preload
 * are built after the tests): each folder on its way must pass the filter too, as in the walk.
 */
function wouldPackage(config: Configuration, platform: Platform, file: string): boolean {
  const abs = path.join(ROOT, file);
  const statOf = (target: string, directory: boolean) =>
    (existsSync(target) ? lstatSync(target) : { isDirectory: () => directory }) as FilterStats;
  return filtersFor(config, platform).some(({ from, filter }) => {
    const parts = path.relative(from, abs).split(path.sep);
    if (parts[0] === '..') return false;
    return parts.every((_, i) => {
      const target = path.join(from, ...parts.slice(0, i + 1));
      return filter(target, statOf(target, i < parts.length - 1));
    });
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

const BUILTINS = new Set(builtinModules);
const SHIPPED = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
const DEV = new Set(Object.keys(pkg.devDependencies ?? {}));

/** Why each import of a packaged module would fail in the app: a package it does not ship, or a file left out. */
function brokenImports(files: readonly string[]): string[] {
  const packaged = new Set(files);
  const problems: string[] = [];
  for (const file of files.filter((f) => /\.[cm]?js$/.test(f))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.')) {
        const target = toPosix(path.join(path.dirname(file), specifier));
        if (!packaged.has(target)) problems.push(`${file} imports ${target}, which is not packaged`);
      } else if (specifier.startsWith('node:') || BUILTINS.has(specifier)) {
        continue;
      } else if (!SHIPPED.has(packageName(specifier))) {
        const kind = DEV.has(packageName(specifier)) ? 'a devDependency, never packaged' : 'not a dependency';
        problems.push(`${file} imports ${specifier} (${kind})`);
      }
    }
  }
  return problems;
}

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(ROOT, path.join(ROOT, 'electron-builder.yml'), null);
  const missing = ['src-main/app/main.ts', 'src-main/app/packagedFiles.int.test.ts']
    .map((source) => `build/tsc/${source.replace(/\.ts$/, '.js')}`)
    .filter((output) => !existsSync(path.join(ROOT, output)));
  if (missing.length > 0) {
    throw new Error(`The compiled output is missing (${missing.join(', ')}): run \`npx tsc -b\` first.`);
  }
});

describe.each(PLATFORMS)('the files packaged for %s', (platform) => {
  let files: string[];
  beforeAll(async () => {
    files = await packagedFiles(config, platform);
  });

  it('include every entry point of the app', () => {
    const left = ENTRY_POINTS.filter((entry) => !wouldPackage(config, platform, entry));
    expect(left, 'entry points electron-builder.yml leaves out').toEqual([]);
    for (const entry of ENTRY_POINTS.filter((e) => existsSync(path.join(ROOT, e)))) expect(files).toContain(entry);
    expect(files).toContain(pkg.main);
  });

  it('hold no test helper: nothing under testing/, no test server or fixture module', () => {
    // The build has them, so the patterns are what leaves them out.
    expect(existsSync(path.join(ROOT, 'build/tsc/src-main/testing/tools/webTestServer.js'))).toBe(true);
    expect(files.filter((file) => /(^|\/)testing\//.test(file))).toEqual([]);
    expect(files.filter((file) => /(Fixtures?|TestServers?|TestRequest|TestContext)\.[cm]?js$/.test(file))).toEqual([]);
  });

  it('hold no test file', () => {
    // This very test is compiled beside the code, as every test is.
    expect(existsSync(path.join(ROOT, 'build/tsc/src-main/app/packagedFiles.int.test.js'))).toBe(true);
    expect(files.filter((file) => /\.test\./.test(file))).toEqual([]);
  });

  it('import only packaged files and shipped packages: no devDependency, no test helper', () => {
    expect(brokenImports(files)).toEqual([]);
  });
});
