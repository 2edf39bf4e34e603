import type { App, Session, WebContents } from 'electron';
import { isPermissionAllowed } from './permissionPolicy.js';

/**
 * Applied to every web contents the app creates (app 'web-contents-created'),
 * so that nothing, including a future window or devtools, escapes them. The
 * renderer is a single page: it never navigates, opens windows or embeds a
 * <webview>; a link in model output must not turn the app into a browser.
 */
export function guardWebContents(contents: WebContents): void {
  // loadURL() and reload do not emit these; any navigation the page starts does.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Guards every web contents from its creation: the main window's, devtools', and any a future change adds. Must be
 * called before the first window opens (main.ts calls it at startup, before 'ready').
 */
export function guardEveryWebContents(app: Pick<App, 'on'>): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}

/** Web permissions are denied unless permissionPolicy.ts lists them; a check and a request agree. */
export function guardSessionPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin),
  );
}
