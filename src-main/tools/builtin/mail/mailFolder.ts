/** The mail pack's own folder: drafts/ and sent/ hold one .eml file (RFC 5322) per message. */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createExclusive, fsError, resolveForCreate } from '../../sandbox/pathGuard.js';
import type { ToolContext } from '../../toolTypes.js';

export type MailFolderName = 'drafts' | 'sent';

/** A name that sorts by time and never collides: 20261130-111500-3f9a1c. */
function newMessageId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * Saves `raw` as a new file in drafts/ or sent/ under the mail folder. The place goes through the path guard with
 * the mail folder as the only root, so a link planted as drafts/ cannot send the write elsewhere.
 */
export async function saveMessage(
  ctx: ToolContext,
  folder: MailFolderName,
  raw: Buffer,
): Promise<{ id: string; path: string }> {
  const roots = [{ path: ctx.packs.mailDir, untrusted: false }];
  const dir = path.join(ctx.packs.mailDir, folder);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw fsError(err, dir);
  }
  const id = newMessageId();
  const { path: file } = await resolveForCreate(roots, path.join(dir, `${id}.eml`));
  try {
    await createExclusive(file, raw);
  } catch (err) {
    throw fsError(err, file);
  }
  return { id, path: file };
}
