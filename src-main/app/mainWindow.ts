import { BrowserWindow } from 'electron';
import { APP_ENTRY_URL } from './appOrigin.js';

export interface MainWindowOptions {
  readonly preloadPath: string;
  /** Devtools only in development; a packaged app has no use for them. */
  readonly devTools: boolean;
}

/**
 * The one Homebody window. Every webPreference that matters for security is
 * spelled out, even where it is Electron's default, so a reader (or a future
 * default change) cannot weaken it silently.
 */
export function createMainWindow({ preloadPath, devTools }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Homebody',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Chromium's spellchecker downloads dictionaries from Google on Windows and Linux: nothing leaves the device.
      spellcheck: false,
      devTools,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    console.error('[homebody] could not load the renderer', error);
  });
  return window;
}
