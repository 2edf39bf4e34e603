/*
 * Electron's main process: the desktop shell around the Host. It sets up the
 * security boundary (sandbox, our own scheme, guards on every web contents,
 * permission handlers), starts the Host, connects it to the window over IPC,
 * and disposes it on quit. The Host itself knows nothing of Electron.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, Notification, safeStorage, session, shell } from 'electron';
import { createDesktopDeviceBridge } from './desktopDeviceBridge.js';
import { createHost } from '../host/createHost.js';
import type { Host } from '../host/hostTypes.js';
import { registerIpc } from '../ipc/registerIpc.js';
import { isAppUrl } from './appOrigin.js';
import { appPaths } from './appPaths.js';
import { disposeWithTimeout } from './disposeWithTimeout.js';
import { parseLaunchArgs, resolveDataDir } from './launchOptions.js';
import { createMainWindow } from './mainWindow.js';
import { createDesktopCommandConfirmer } from './mcpCommandDialog.js';
import { chooseModelFile } from './modelFileDialog.js';
import { guardRendererNetwork } from './rendererNetworkGuard.js';
import { registerAppSchemeAsPrivileged, serveRendererFrom } from './rendererProtocol.js';
import { osKeychainFrom } from './safeStorageKeychain.js';
import { sqliteNativeBinding } from './sqliteBinding.js';
import { guardEveryWebContents, guardSessionPermissions } from './webContentsGuards.js';

// This file is build/tsc/src-main/app/main.js once built; the project root (or app.asar) is four levels up.
const APP_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const { rendererDir: RENDERER_DIR, preloadPath: PRELOAD_PATH } = appPaths(APP_ROOT);
/** Long enough to finish a token and close SQLite; short enough that quitting never looks hung. */
const DISPOSE_TIMEOUT_MS = 10_000;

// Every renderer sandboxed, whatever a window's own options say.
app.enableSandbox();
registerAppSchemeAsPrivileged();

const launchArgs = parseLaunchArgs(process.argv);
const dataDir = resolveDataDir(launchArgs, process.env, app.getPath('userData'));
// Chromium's profile lives with our data, and the single-instance lock is keyed on userData:
// one instance per data folder, so tests with separate folders can run side by side. Made private (0700), as the
// Host makes a data folder it creates; the Host's own lock on the folder also keeps `homebody serve` and the
// command line out of it while the app runs.
fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
app.setPath('userData', dataDir);

let host: Host | null = null;
let mainWindow: BrowserWindow | null = null;
let disconnectIpc: (() => void) | null = null;
let quitState: 'running' | 'disposing' | 'disposed' = 'running';

function electronResourcesPath(): string | undefined {
  // Electron adds process.resourcesPath; Node's typings do not know it.
  const value: unknown = Reflect.get(process, 'resourcesPath');
  return typeof value === 'string' ? value : undefined;
}

function openMainWindow(): void {
  const window = createMainWindow({ preloadPath: PRELOAD_PATH, devTools: !app.isPackaged });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
}

function focusMainWindow(): void {
  if (mainWindow === null || mainWindow.isDestroyed()) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function start(): Promise<void> {
  await app.whenReady();
  guardSessionPermissions(session.defaultSession);

  const nativeBinding = sqliteNativeBinding({
    env: process.env,
    isPackaged: app.isPackaged,
    resourcesPath: electronResourcesPath(),
    exists: (file) => fs.existsSync(file),
  });
  if (nativeBinding === undefined && !app.isPackaged) {
    console.warn(
      '[homebody] HOMEBODY_SQLITE_BINDING is not set: better-sqlite3 will try its Node build, ' +
        'which Electron cannot load. Start the app with `npm start`.',
    );
  }

  try {
    serveRendererFrom(RENDERER_DIR);
    const started = await createHost({
      dataDir,
      shell: 'electron',
      command: 'the Homebody desktop app',
      modelPath: launchArgs.modelPath,
      chooseModelFile: () => chooseModelFile(mainWindow),
      // A stdio MCP server's command runs only after the user clicked "Run it" in this native dialog.
      confirmMcpCommand: createDesktopCommandConfirmer((options) =>
        mainWindow !== null && !mainWindow.isDestroyed()
          ? dialog.showMessageBox(mainWindow, { ...options })
          : dialog.showMessageBox({ ...options }),
      ),
      sqliteNativeBinding: nativeBinding,
      version: app.getVersion(),
      // After 'ready': before it, Linux has not chosen its keyring yet.
      keychain: osKeychainFrom(safeStorage),
      device: createDesktopDeviceBridge({
        clipboard,
        shell,
        notify: (title, body) => {
          if (!Notification.isSupported()) return false;
          new Notification({ title, body }).show();
          return true;
        },
      }),
    });
    host = started;
    // Before the window opens: whatever it asks of the network, other than its own files, is cancelled and lands in
    // the egress ledger.
    guardRendererNetwork(session.defaultSession, (observed) => started.recordConnection(observed));
  } catch (error) {
    console.error('[homebody] could not start', error);
    dialog.showErrorBox(
      'Homebody could not start',
      `${describeError(error)}\n\nData folder: ${dataDir}\nApp files: ${APP_ROOT}`,
    );
    app.exit(1);
    return;
  }

  disconnectIpc = registerIpc({ host, getWindow: () => mainWindow, isAllowedUrl: isAppUrl });
  openMainWindow();
}

// Before any window exists, so that every web contents, devtools included, is guarded.
guardEveryWebContents(app);

app.on('second-instance', () => focusMainWindow());

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (host !== null && quitState === 'running' && BrowserWindow.getAllWindows().length === 0) openMainWindow();
});

// Quitting waits for the Host to stop the model and close the database, then quits for real.
app.on('will-quit', (event) => {
  const running = host;
  if (running === null || quitState === 'disposed') return;
  event.preventDefault();
  if (quitState === 'disposing') return;
  quitState = 'disposing';
  disconnectIpc?.();
  disconnectIpc = null;
  void disposeWithTimeout(() => running.dispose(), DISPOSE_TIMEOUT_MS).then((outcome) => {
    if (outcome !== 'disposed') console.warn(`[homebody] host dispose ${outcome}; quitting anyway`);
    quitState = 'disposed';
    app.quit();
  });
});

if (app.requestSingleInstanceLock()) {
  start().catch((error: unknown) => {
    console.error('[homebody] startup failed', error);
    app.exit(1);
  });
} else {
  // Another Homebody already uses this data folder; it was told via 'second-instance' and comes to the front.
  app.quit();
}
