/**
 * What device_open may open: a web address (http or https), or an existing file inside the granted folders or the packs'
 * folders that is not a program (opening a program or script in its "default app" would run it).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveExisting } from '../../sandbox/pathGuard.js';
import type { ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { withPackFolders } from '../files/undo.js';
import { externalUrlOrThrow, looksLikeUrl } from './externalUrl.js';

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

/** A URL the shells open (externalUrl.ts: http and https only), or undefined when `target` is written as a path. */
export function checkUrl(target: string): string | undefined {
  return looksLikeUrl(target) ? externalUrlOrThrow(target) : undefined;
}

/** Refuses a program or script: its "default app" would run it. `file` is already resolved. */
export async function refuseProgram(file: string): Promise<void> {
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
}

export async function checkOpenTarget(target: string, ctx: ToolContext): Promise<OpenTarget> {
  const url = checkUrl(target);
  if (url) return { kind: 'url', url };
  const { path: file } = await resolveExisting(withPackFolders(ctx).roots, target);
  await refuseProgram(file);
  return { kind: 'file', path: file };
}
