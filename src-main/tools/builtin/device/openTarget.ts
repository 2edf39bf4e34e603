/**
 * What device_open may open: a web or mail address, or an existing file inside the granted folders or the packs'
 * folders that is not a program (opening a program or script in its "default app" would run it).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveExisting } from '../../sandbox/pathGuard.js';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { withPackFolders } from '../files/undo.js';

export type OpenTarget =
  { readonly kind: 'url'; readonly url: string } | { readonly kind: 'file'; readonly path: string };

/** Extensions whose default app runs them, on some system. */
const RUNNABLE = new Set([
  '.app',
  '.appimage',
  '.bat',
  '.cmd',
  '.com',
  '.command',
  '.cpl',
  '.desktop',
  '.exe',
  '.hta',
  '.jar',
  '.js',
  '.jse',
  '.lnk',
  '.msc',
  '.msi',
  '.pif',
  '.ps1',
  '.py',
  '.reg',
  '.scr',
  '.sh',
  '.url',
  '.vbe',
  '.vbs',
  '.wsf',
  '.run',
  '.bin',
  '.deb',
  '.rpm',
  '.pkg',
  '.dmg',
]);

/** A URL the shells open: http(s) and mailto only. Throws INVALID_INPUT for anything else. */
export function checkUrl(target: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target) || /^[a-z]:[\\/]/i.test(target)) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ToolError('INVALID_INPUT', `"${target}" is not a valid address.`);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:') return url.href;
  throw new ToolError('INVALID_INPUT', `Homebody opens only http, https and mailto addresses, not ${url.protocol}.`);
}

export async function checkOpenTarget(target: string, ctx: ToolContext): Promise<OpenTarget> {
  const url = checkUrl(target);
  if (url) return { kind: 'url', url };
  const { path: file } = await resolveExisting(withPackFolders(ctx).roots, target);
  if (RUNNABLE.has(path.extname(file).toLowerCase())) {
    throw new ToolError(
      'INVALID_INPUT',
      `${path.basename(file)} is a program or script; Homebody does not open those.`,
    );
  }
  const info = await stat(file);
  if (process.platform !== 'win32' && info.isFile() && (info.mode & 0o111) !== 0) {
    throw new ToolError('INVALID_INPUT', `${path.basename(file)} is executable; Homebody does not open programs.`);
  }
  return { kind: 'file', path: file };
}
