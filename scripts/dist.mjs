// Packages the desktop app: `npm run build`, then electron-builder with
// electron-builder.yml; extra arguments go to electron-builder
// (e.g. `npm run dist -- --linux AppImage`).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronAvailability, electronVersion } from './electron.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const shell = process.platform === 'win32';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell });
  return result.status ?? 1;
}

const availability = electronAvailability();
if (!availability.available) {
  console.error(`Cannot package Homebody here: ${availability.reason}.`);
  console.error(
    `electron-builder downloads the same Electron ${electronVersion()} binaries from GitHub, ` +
      'which this machine cannot reach. Package on a machine where `npm install` installs electron.',
  );
  process.exit(1);
}

// tsc -b never removes the output of a source that was moved or deleted, and electron-builder packages what is in
// build/tsc: start from an empty folder so that only today's sources ship (Vite empties build/renderer itself).
rmSync(path.join(root, 'build', 'tsc'), { recursive: true, force: true });
let status = run('npm', ['run', 'build']);
if (status === 0) {
  status = run('npx', ['electron-builder', '--config', 'electron-builder.yml', ...process.argv.slice(2)]);

  // electron-builder's npmRebuild rebuilt node_modules' native addons for Electron in place;
  // the tests and the CLI run on Node, so put better-sqlite3's Node build back.
  console.log('Restoring better-sqlite3 for Node (npm rebuild better-sqlite3)');
  if (run('npm', ['rebuild', 'better-sqlite3']) !== 0) {
    console.error('Could not rebuild better-sqlite3 for Node; run `npm rebuild better-sqlite3` before testing.');
    status ||= 1;
  }
}
console.log(status === 0 ? `Packages are in ${path.join(root, 'dist')}` : 'Packaging failed.');
process.exit(status);
