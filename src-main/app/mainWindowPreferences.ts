import path from 'node:path';
import type { WebPreferences } from 'electron';

/**
 * The main window's webPreferences. Every setting that matters for security is spelled out, even where it is
 * Electron's default, so that a reader (or a future default change) cannot weaken it silently; the unit test checks
 * each key. The page holds untrusted text (model output, mail, web pages) and must never reach Node.
 */
export function mainWindowWebPreferences(preloadPath: string, devTools: boolean): WebPreferences {
  // A relative preload would resolve against the working directory, which anyone launching the app chooses.
  if (!path.isAbsolute(preloadPath)) throw new Error(`The preload path must be absolute: ${preloadPath}`);
  return {
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
    enableWebSQL: false,
    safeDialogs: true,
    // A middle click on a link would otherwise ask for a new window; the window-open handler denies it anyway, but
    // the event never reaching the page is one door fewer.
    disableBlinkFeatures: 'Auxclick',
    // Chromium's spellchecker downloads dictionaries from Google on Windows and Linux: nothing leaves the device.
    spellcheck: false,
    devTools,
  };
}
