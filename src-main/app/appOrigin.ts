/**
 * The renderer is served from a custom scheme rather than file:// (see
 * rendererProtocol.ts): it gives the page a real origin to check IPC senders
 * against, and lets every response carry our CSP header.
 */
export const APP_SCHEME = 'homebody';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True only for URLs on our scheme and host, without credentials or port. */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.port === ''
  );
}
