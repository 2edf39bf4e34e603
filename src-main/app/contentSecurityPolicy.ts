/**
 * The renderer's Content Security Policy, sent as a response header on every
 * file the app scheme serves (a header, unlike a <meta> tag, also covers
 * frame-ancestors and cannot be removed by the page). Scripts and styles come
 * only from the bundle; no inline script, no eval, no network: the renderer
 * talks to the Host through the preload, never through fetch.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function rendererResponseHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': RENDERER_CSP,
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  };
}
