// Helpers for the start script (scripts/start.mjs) and scripts/dist.mjs:
// whether Electron can run here, better-sqlite3 built for Electron's ABI, and
// launching the built app.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const require = createRequire(import.meta.url);

/** better-sqlite3 built for Electron lives here, apart from node_modules' Node build that the tests load. */
export const ELECTRON_NATIVE_DIR = path.join(ROOT, 'build', 'electron-native');

const BUILT_APP_FILES = [
  path.join('build', 'tsc', 'src-main', 'app', 'main.js'),
  path.join('build', 'renderer', 'index.html'),
  path.join('build', 'preload', 'preload.cjs'),
];

function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}

/**
 * Whether the Electron binary can be started here. The electron package's
 * main module returns the binary's path, and throws when its postinstall
 * download never wrote one.
 * @returns {{ available: true, binary: string } | { available: false, reason: string }}
 */
export function electronAvailability() {
  let entry;
  try {
    entry = require.resolve('electron');
  } catch {
    return {
      available: false,
      reason:
        'the electron package is not installed (npm skips this optional dependency when its binary download fails)',
    };
  }
  let binary;
  try {
    binary = require(entry);
  } catch (error) {
    return {
      available: false,
      reason: `the electron package is installed but its binary is missing: ${firstLine(error)}`,
    };
  }
  if (typeof binary !== 'string' || !fs.existsSync(binary)) {
    return {
      available: false,
      reason: `the electron package is installed but its binary is missing (expected at ${String(binary)})`,
    };
  }
  return { available: true, binary };
}

/** The installed Electron's version, else the one package.json asks for (electron-builder packages that one). */
export function electronVersion() {
  try {
    return require('electron/package.json').version;
  } catch {
    const declared = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).optionalDependencies
      ?.electron;
    if (typeof declared !== 'string') throw new Error('package.json names no electron version');
    return declared.replace(/^[\^~=v]+/, '');
  }
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, npm_config_build_from_source: undefined },
    // npm and npx are .cmd files on Windows, which only a shell runs.
    shell: process.platform === 'win32' && !path.isAbsolute(command),
  });
  return result.status === 0;
}

/** A package's own bin, run with this Node; npx would not find it from a folder outside the project. */
function localBin(packageName, binPath) {
  try {
    return path.join(path.dirname(require.resolve(`${packageName}/package.json`)), binPath);
  } catch {
    return null;
  }
}

/**
 * Builds better-sqlite3 for Electron's ABI into build/electron-native/ and
 * returns the .node file's path (the start script passes it to the app as
 * HOMEBODY_SQLITE_BINDING). node_modules/better-sqlite3 is copied, never
 * rebuilt in place: its Node build is what the tests load. Skipped when the
 * addon was already built for this Electron, architecture and better-sqlite3.
 * @param {{ version?: string, arch?: string }} [options]
 * @returns {string}
 */
export function ensureElectronSqlite({ version = electronVersion(), arch = process.arch } = {}) {
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const sqliteVersion = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).version;
  const target = path.join(ELECTRON_NATIVE_DIR, 'better-sqlite3');
  const addon = path.join(target, 'build', 'Release', 'better_sqlite3.node');
  const stampFile = path.join(ELECTRON_NATIVE_DIR, 'better-sqlite3.stamp.json');
  const stamp = JSON.stringify({ electron: version, arch, betterSqlite3: sqliteVersion });

  if (fs.existsSync(addon) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return addon;

  console.log(`Building better-sqlite3 ${sqliteVersion} for Electron ${version} (${arch}) in ${target}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.rmSync(stampFile, { force: true });
  fs.mkdirSync(ELECTRON_NATIVE_DIR, { recursive: true });
  // Everything but the Node build: a stale addon must never pass for an Electron one.
  const ownBuild = path.join(source, 'build');
  fs.cpSync(source, target, {
    recursive: true,
    filter: (file) => file !== ownBuild && !file.startsWith(ownBuild + path.sep),
  });

  const prebuildInstall = localBin('prebuild-install', 'bin.js');
  const prebuildArgs = ['--runtime', 'electron', '--target', version, '--arch', arch];
  const downloaded = prebuildInstall
    ? run(process.execPath, [prebuildInstall, ...prebuildArgs], target)
    : run('npx', ['prebuild-install', ...prebuildArgs], target);

  if (!downloaded || !fs.existsSync(addon)) {
    console.log('No prebuilt better-sqlite3 for this Electron; compiling it with node-gyp.');
    const nodeGyp = localBin('node-gyp', path.join('bin', 'node-gyp.js'));
    const gypArgs = [
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${version}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
    ];
    const compiled = nodeGyp
      ? run(process.execPath, [nodeGyp, ...gypArgs], target)
      : run('npx', ['node-gyp', ...gypArgs], target);
    if (!compiled || !fs.existsSync(addon)) {
      throw new Error(
        `Could not build better-sqlite3 for Electron ${version}: prebuild-install and node-gyp both failed (see above).`,
      );
    }
  }
  fs.writeFileSync(stampFile, stamp);
  return addon;
}

/**
 * Starts the built app (`npm run build` first) with the Electron binary,
 * stdio inherited, and exits with its code. `args` reach main.ts, e.g.
 * ['--data-dir', dir, '--model', file].
 * @param {string[]} [args]
 */
export function launchElectron(args = []) {
  const availability = electronAvailability();
  if (!availability.available) {
    console.error(`Cannot start the desktop app: ${availability.reason}.`);
    console.error('Browser mode (`homebody serve`) runs the same app without Electron.');
    process.exit(1);
  }
  const missing = BUILT_APP_FILES.filter((file) => !fs.existsSync(path.join(ROOT, file)));
  if (missing.length > 0) {
    console.error(`Not built yet (missing ${missing.join(', ')}); run \`npm run build\` first.`);
    process.exit(1);
  }
  const binding = ensureElectronSqlite();

  const env = { ...process.env, HOMEBODY_SQLITE_BINDING: binding };
  // Set, it would make the binary behave as plain Node instead of starting the app.
  delete env.ELECTRON_RUN_AS_NODE;
  // The project folder, not main.js: Electron then reads package.json (name, version, main).
  const child = spawn(availability.binary, [ROOT, ...args], { stdio: 'inherit', env });

  const forward = (signal) => {
    if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('error', (error) => {
    console.error(`Could not start Electron: ${firstLine(error)}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
