import { existsSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';

/** ipull's name for a partial file: `<file>.ipull`, the file's bytes at their offsets, then its progress as JSON. */
export const partialPathOf = (path: string) => `${path}.ipull`;

const COMPLETE = 2;
const MAX_PROGRESS_JSON = 16 << 20;

/**
 * The bytes of a partial download that are really on disk: the chunks its progress record marks complete, each
 * counted at its true size (ipull's own count takes the last, short chunk as a whole one, and adds bytes still in
 * memory). Null when there is no readable progress record (the download then starts over).
 */
export async function partialBytesOnDisk(partialPath: string, totalBytes: number | null): Promise<number | null> {
  if (totalBytes === null || totalBytes <= 0 || !existsSync(partialPath)) return null;
  try {
    const { size } = await stat(partialPath);
    const length = size - totalBytes;
    if (length <= 0 || length > MAX_PROGRESS_JSON) return null;
    const handle = await open(partialPath, 'r');
    try {
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, totalBytes);
      const progress = JSON.parse(buffer.toString('utf8')) as { chunks?: unknown; chunkSize?: unknown; part?: unknown };
      const { chunks, chunkSize } = progress;
      if (!Array.isArray(chunks) || typeof chunkSize !== 'number' || chunkSize <= 0 || progress.part !== 0) return null;
      let bytes = 0;
      chunks.forEach((status, index) => {
        if (status === COMPLETE) bytes += Math.max(0, Math.min(chunkSize, totalBytes - index * chunkSize));
      });
      return Math.min(bytes, totalBytes);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/**
 * Puts an unfinished download's file back where a resume looks for it. ipull renames its partial file to the final
 * name when it is closed while its count says 100% (which its count of a short last chunk can say too early), so
 * after a stop a "final" file that is not exactly the expected size is a partial one: it goes back to `.ipull`.
 * Answers whether the file at `path` is complete.
 */
export async function settlePartialFile(path: string, totalBytes: number | null): Promise<boolean> {
  if (!existsSync(path)) return false;
  const { size } = await stat(path);
  if (totalBytes !== null && size === totalBytes) {
    // Complete; a stale partial file beside it is of no use.
    await rm(partialPathOf(path), { force: true });
    return true;
  }
  if (totalBytes === null && !existsSync(partialPathOf(path))) return true;
  if (existsSync(partialPathOf(path))) await rm(path, { force: true });
  else await rename(path, partialPathOf(path));
  return false;
}
