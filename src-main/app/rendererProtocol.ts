import fs from 'node:fs';
import { protocol } from 'electron';
import { APP_SCHEME, isAppUrl } from './appOrigin.js';
import { rendererResponseHeaders } from './contentSecurityPolicy.js';
import { contentTypeFor, readRendererFile, resolveRendererFile } from '../util/rendererFiles.js';

/*
 * Why a custom scheme rather than loadFile(): a file:// page has an opaque
 * origin and may read other file:// URLs, so the IPC sender check would have
 * nothing reliable to compare, and a CSP could only come from a <meta> tag.
 * homebody://app/ is a standard, secure origin of its own (Electron security
 * checklist: "Avoid usage of the file:// protocol and prefer custom protocols"),
 * serves nothing but build/renderer, and sends our CSP header with every file.
 */

/** Must run before app 'ready': Chromium fixes its scheme table at startup. */
export function registerAppSchemeAsPrivileged(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // standard: real origin and relative URLs; secure: counts as a secure context;
      // supportFetchAPI and corsEnabled: module scripts load through CORS-mode fetches.
      // No bypassCSP, no service workers, no streaming.
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
    },
  ]);
}

function plainResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: rendererResponseHeaders('text/plain; charset=utf-8') });
}

/** Serves files from `rendererDir` on homebody://app/. Call after app 'ready'. */
export function serveRendererFrom(rendererDir: string): void {
  // The root's own realpath, taken once; every served file must resolve below it.
  const root = fs.realpathSync(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plainResponse(405, 'Method not allowed');
    if (!isAppUrl(request.url)) return plainResponse(404, 'Not found');
    try {
      const file = await resolveRendererFile(root, new URL(request.url).pathname);
      if (file === null) return plainResponse(404, 'Not found');
      const body = request.method === 'HEAD' ? null : new Uint8Array(await readRendererFile(file));
      return new Response(body, { status: 200, headers: rendererResponseHeaders(contentTypeFor(file)) });
    } catch (error) {
      console.error('[homebody] could not serve', request.url, error);
      return plainResponse(500, 'Could not read this file');
    }
  });
}
