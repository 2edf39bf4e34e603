import fs from 'node:fs';
import path from 'node:path';

/*
 * Maps a request path on the app scheme to a file inside build/renderer, and
 * nothing outside it. Follows the MCP filesystem server's order: refuse NUL
 * bytes, resolve, compare against `root + sep`, then realpath and compare
 * again so that a symlink cannot lead out.
 *
 * fs is used through its default export and callback API on purpose: in a
 * packaged app build/renderer lives inside app.asar, and Electron's asar
 * support patches those functions on the fs module object itself.
 */

/** True when `candidate` is strictly below `root`; both must be absolute and normalised. */
export function isInsideRoot(root: string, candidate: string): boolean {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix) && candidate.length > prefix.length;
}

/**
 * The file a URL pathname names under `root`, by string rules only, or null
 * when it would leave the root or is malformed. `/` names index.html.
 */
export function lexicalRendererPath(root: string, urlPathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPathname);
  } catch {
    return null;
  }
  // Backslashes are separators on Windows only; refusing them keeps one meaning on every platform.
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded.replace(/^\/+/, '');
  const resolved = path.resolve(root, relative === '' ? 'index.html' : relative);
  return isInsideRoot(root, resolved) ? resolved : null;
}

function realpathOf(file: string): Promise<string | null> {
  return new Promise((resolve) => fs.realpath(file, (error, real) => resolve(error ? null : real)));
}

function isRegularFile(file: string): Promise<boolean> {
  return new Promise((resolve) => fs.stat(file, (error, info) => resolve(!error && info.isFile())));
}

/**
 * The real path of the regular file a URL pathname names inside `rootRealPath`
 * (which must itself be a realpath), or null: outside the root, through a
 * symlink that leaves it, missing, or not a regular file.
 */
export async function resolveRendererFile(rootRealPath: string, urlPathname: string): Promise<string | null> {
  const lexical = lexicalRendererPath(rootRealPath, urlPathname);
  if (lexical === null) return null;
  const real = await realpathOf(lexical);
  if (real === null || !isInsideRoot(rootRealPath, real)) return null;
  return (await isRegularFile(real)) ? real : null;
}

export function readRendererFile(file: string): Promise<Buffer> {
  return new Promise((resolve, reject) => fs.readFile(file, (error, data) => (error ? reject(error) : resolve(data))));
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Module scripts are refused by Chromium unless served with a JavaScript MIME type, so this must be exact. */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}
