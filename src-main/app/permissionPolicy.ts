import { isAppUrl } from './appOrigin.js';

/**
 * Permissions the renderer may have. Everything else (camera, microphone,
 * geolocation, notifications, openExternal, HID, serial, ...) is denied:
 * Homebody's tools run in the main process under the permission broker, never
 * through web permissions. Writing text to the clipboard is kept so that a
 * "copy" button works; reading it is not.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** `origin` is the requesting URL or origin as Electron reports it; only our own page may ask. */
export function isPermissionAllowed(permission: string, origin: string | undefined): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && origin !== undefined && isAppUrl(origin);
}
