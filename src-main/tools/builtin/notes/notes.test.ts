import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyUndo } from '../files/undo.js';
import { makePackContext, type PackTestContext } from '../../../testing/tools/packTestContext.js';
import type { UndoRecord } from '../../toolTypes.js';
import { NOTE_TOOLS } from './index.js';
import { noteRead } from './noteRead.js';
import { noteSearch } from './noteSearch.js';
import { noteWrite } from './noteWrite.js';

let fx: PackTestContext;
beforeEach(() => {
  fx = makePackContext();
});
afterEach(() => fx.cleanup());
const notes = () => fx.ctx.packs.notesDir;

describe('note tools', () => {
  it('are three: search and read (read risk), write (write risk)', () => {
    expect(NOTE_TOOLS.map((t) => [t.name, t.risk])).toEqual([
      ['note_search', 'read'],
      ['note_read', 'read'],
      ['note_write', 'write'],
    ]);
  });

  it('creates a Markdown note with its title as heading, and undo moves it to the trash', async () => {
    const out = await noteWrite.run({ title: 'Shopping list', text: 'milk\neggs' }, fx.ctx);
    expect(out.result).toMatchObject({ created: true, file: 'Shopping list.md' });
    const file = path.join(notes(), 'Shopping list.md');
    expect(readFileSync(file, 'utf8')).toBe('# Shopping list\n\nmilk\neggs\n');
    await applyUndo(out.undo as UndoRecord, fx.ctx);
    expect(readdirSync(notes())).toEqual([]);
  });

  it('appends to the note with that title (found by its heading), and undo restores the earlier text', async () => {
    writeFileSync(path.join(notes(), 'groceries.md'), '# Shopping list\n\nbread\n');
    const out = await noteWrite.run({ title: 'shopping LIST', text: 'butter' }, fx.ctx);
    expect(out.result).toMatchObject({ appended: true, file: 'groceries.md', title: 'Shopping list' });
    expect(readFileSync(path.join(notes(), 'groceries.md'), 'utf8')).toBe('# Shopping list\n\nbread\n\nbutter\n');
    await applyUndo(out.undo as UndoRecord, fx.ctx);
    expect(readFileSync(path.join(notes(), 'groceries.md'), 'utf8')).toBe('# Shopping list\n\nbread\n');
  });

  it('never replaces a file whose name a new title maps to: it adds to it', async () => {
    writeFileSync(path.join(notes(), 'Ideas.md'), 'no heading here\n');
    const out = await noteWrite.run({ title: 'Ideas', text: 'second' }, fx.ctx);
    expect(out.result).toMatchObject({ appended: true });
    expect(readFileSync(path.join(notes(), 'Ideas.md'), 'utf8')).toBe('no heading here\n\nsecond\n');
  });

  it('keeps a title with slashes or dots inside the notes folder', async () => {
    const out = await noteWrite.run({ title: '../../etc/passwd', text: 'x' }, fx.ctx);
    expect(out.result).toMatchObject({ created: true, file: 'etc passwd.md' });
    expect(readdirSync(notes())).toEqual(['etc passwd.md']);
    await expect(noteWrite.run({ title: '///', text: 'x' }, fx.ctx)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('finds notes by all words in title or body, any case, and reads one by title', async () => {
    writeFileSync(path.join(notes(), 'dentist.md'), '# Dentist\n\nDr. Lee, phone 555-0100\n');
    writeFileSync(path.join(notes(), 'trip.md'), '# Trip to Porto\n\nBook the train.\n');
    const hit = await noteSearch.run({ query: 'PHONE dentist' }, fx.ctx);
    expect(hit.result).toMatchObject({ found: 1, notes: [{ title: 'Dentist', file: 'dentist.md' }] });
    const none = await noteSearch.run({ query: 'phone porto' }, fx.ctx);
    expect(none.result).toMatchObject({ found: 0 });
    const all = await noteSearch.run({}, fx.ctx);
    expect(all.result).toMatchObject({ found: 2 });
    const read = await noteRead.run({ title: 'trip to porto' }, fx.ctx);
    expect(read.result).toMatchObject({ title: 'Trip to Porto', text: '# Trip to Porto\n\nBook the train.\n' });
    await expect(noteRead.run({ title: 'nothing' }, fx.ctx)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
