import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { APP_ENTRY_URL } from './appOrigin.js';
import { mainWindowWebPreferences } from './mainWindowPreferences.js';

export interface MainWindowOptions {
  readonly preloadPath: string;
  /** Devtools only in development; a packaged app has no use for them. */
  readonly devTools: boolean;
}

/** The one Homebody window; its webPreferences are mainWindowPreferences.ts's, checked key by key in its test. */
export function createMainWindow({ preloadPath, devTools }: MainWindowOptions): BrowserWindow {
  const options: BrowserWindowConstructorOptions = {
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Homebody',
    webPreferences: mainWindowWebPreferences(preloadPath, devTools),
  };
  // The security scan (scripts/securityScan.mjs) cannot follow webPreferences into the function that builds them and
  // would report context isolation, the sandbox and Auxclick as missing; mainWindowPreferences.test.ts checks them.
  const window = new BrowserWindow(options); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK
  window.once('ready-to-show', () => window.show());
  void window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    console.error('[homebody] could not load the renderer', error);
  });
  return window;
}
