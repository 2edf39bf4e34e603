// `npm start`: the desktop app where Electron can run, otherwise browser mode on 127.0.0.1.
// Arguments after `npm start --` go to the app (e.g. --model FILE, --data-dir DIR).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronAvailability, ensureElectronSqlite, launchElectron } from './electron.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  const result = spawnSync(npm, ['run', '-s', script], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`homebody: "npm run ${script}" failed; see above.`);
    process.exit(result.status ?? 1);
  }
}

function startBrowserMode() {
  run('build:renderer');
  const tsx = path.join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
  const child = spawn(tsx, [path.join(ROOT, 'src-main', 'cli', 'main.ts'), 'serve', ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = electronAvailability();
if (!electron.available) {
  console.log(`Electron is unavailable: ${electron.reason}. Starting browser mode instead.`);
  startBrowserMode();
} else {
  run('build');
  let sqliteReady = false;
  try {
    ensureElectronSqlite();
    sqliteReady = true;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.log(
      `Electron is installed, but SQLite could not be built for it (${reason}). Starting browser mode instead.`,
    );
  }
  if (sqliteReady) launchElectron(args);
  else startBrowserMode();
}
