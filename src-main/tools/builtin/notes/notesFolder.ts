/**
 * The notes folder as the note tools see it: Markdown files (`.md`, subfolders included), each with a title (its
 * first `# heading`, else its file name). Reads are bounded so a huge folder or file cannot stall a call.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { READ_OPEN_FLAGS } from '../files/readText.js';
import type { GrantedRoot, ToolContext } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';

export const NOTE_LIMITS = {
  /** Entries looked at in the folder tree. */
  maxVisited: 10_000,
  maxDepth: 8,
  /** A note longer than this is read only up to here. */
  maxBytes: 256 * 1024,
} as const;

export interface NoteFile {
  /** Real path. */
  readonly path: string;
  /** Path relative to the notes folder, with `/`. */
  readonly name: string;
  readonly title: string;
  readonly text: string;
  readonly modified: Date;
}

export function notesRoots(ctx: ToolContext): GrantedRoot[] {
  return [{ path: ctx.packs.notesDir, untrusted: false }];
}

/** The title a note shows: its first Markdown heading, else its file name without `.md`. */
export function titleOf(name: string, text: string): string {
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(text.slice(0, 4096));
  return heading?.[1] ?? path.basename(name).replace(/\.md$/i, '');
}

/** A file name for a new note's title: letters, digits, spaces, dashes and underscores kept; `.md` added. */
export function fileNameFor(title: string): string {
  const cleaned = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  if (cleaned === '') throw new ToolError('INVALID_INPUT', 'The note title needs at least one letter or digit.');
  return `${cleaned}.md`;
}

export async function readNoteText(file: string): Promise<string> {
  const handle = await open(file, READ_OPEN_FLAGS);
  try {
    const buffer = Buffer.alloc(NOTE_LIMITS.maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Every note in the folder, newest first. Links are not followed (a note is a regular file inside the folder). */
export async function listNotes(ctx: ToolContext): Promise<NoteFile[]> {
  const root = ctx.packs.notesDir;
  const found: NoteFile[] = [];
  let visited = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (ctx.signal.aborted || ++visited > NOTE_LIMITS.maxVisited) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.') && depth < NOTE_LIMITS.maxDepth) {
        await walk(full, depth + 1);
      } else if (entry.isFile() && /\.md$/i.test(entry.name)) {
        try {
          const [text, info] = await Promise.all([readNoteText(full), stat(full)]);
          const name = path.relative(root, full).split(path.sep).join('/');
          found.push({ path: full, name, title: titleOf(name, text), text, modified: info.mtime });
        } catch {
          // A note that vanished or cannot be read is left out of the listing, not an error for the others.
        }
      }
    }
  };
  await walk(root, 0);
  return found.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The note a title (or file name) names: an exact title or file name first, any case. */
export async function findNote(ctx: ToolContext, title: string): Promise<NoteFile | undefined> {
  const wanted = title.trim().toLowerCase();
  const notes = await listNotes(ctx);
  return notes.find(
    (n) =>
      n.title.toLowerCase() === wanted ||
      n.name.toLowerCase() === wanted ||
      n.name.toLowerCase() === `${wanted}.md` ||
      path.basename(n.name).toLowerCase() === `${wanted}.md`,
  );
}
