/**
 * Every file tool, and undo, while another program swaps a folder on the path (or the file itself) with a symlink to
 * an outside folder, millions of times a second (renameat2 RENAME_EXCHANGE; src-main/testing/symlinkFlipper.ts).
 * Whatever each call answers, no outside content may come back, and nothing outside may be created, changed or
 * deleted. Each race runs for a fixed number of calls, not for a time.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSymlinkFlipper, stopAllFlippers } from '../../../testing/symlinkFlipper.js';
import type { JsonValue, ToolOutcome, UndoRecord } from '../../toolTypes.js';
import { copy } from './copy.js';
import { deletePermanently } from './deletePermanently.js';
import { listFolder } from './listFolder.js';
import { move } from './move.js';
import { moveToTrash } from './moveToTrash.js';
import { readText } from './readText.js';
import { searchFiles } from './searchFiles.js';
import type { Fixture } from '../../../testing/tools/filesFixture.js';
import { makeFixture } from '../../../testing/tools/filesFixture.js';
import { applyUndo } from './undo.js';
import { writeText } from './writeText.js';

const CALLS = 20;
const SECRET = 'OUTSIDE SECRET';

let fx: Fixture;
let before: Map<string, string>;
/** Reports/a/b/c, the folders on the path; the outside holds the same names with the secret in every file. */
let deep: string;
let mirror: string;

beforeEach(() => {
  fx = makeFixture();
  deep = path.join(fx.reports, 'a', 'b', 'c');
  mirror = path.join(fx.outside, 'mirror');
  mkdirSync(deep, { recursive: true });
  mkdirSync(path.join(mirror, 'a', 'b', 'c', 'sub'), { recursive: true });
  mkdirSync(path.join(deep, 'sub'));
  for (const dir of [path.join(fx.reports, 'a'), path.join(fx.reports, 'a', 'b'), deep, path.join(deep, 'sub')]) {
    writeFileSync(path.join(dir, 'file.txt'), 'inside file');
    const twin = path.join(mirror, path.relative(fx.reports, dir));
    writeFileSync(path.join(twin, 'file.txt'), SECRET);
    writeFileSync(path.join(twin, 'outside-only.txt'), SECRET);
  }
  mkdirSync(path.join(fx.reports, 'park'));
  before = fx.snapshot();
});

afterEach(async () => {
  await stopAllFlippers();
  // Nothing outside the granted folders was created, changed or deleted, whatever the race did.
  expect(fx.snapshot()).toEqual(before);
  fx.cleanup();
});

/** The places that get swapped: the root's child, a deeper folder, the file's own folder, and the file itself. */
const POSITIONS = ['a', 'a/b', 'a/b/c', 'a/b/c/file.txt'] as const;
type Position = (typeof POSITIONS)[number];

interface Outcome {
  readonly ok: boolean;
  readonly outcome?: ToolOutcome;
  readonly code?: string;
}

/** Runs `call` CALLS times while `position` flips; answers every outcome. */
async function race(position: Position, call: (i: number) => Promise<ToolOutcome>): Promise<Outcome[]> {
  const target = path.join(fx.reports, position);
  const flipper = await startSymlinkFlipper(target, path.join(mirror, position));
  const outcomes: Outcome[] = [];
  let seen = flipper.attempts();
  for (let i = 0; i < CALLS; i += 1) {
    seen = await flipper.ranSince(seen); // every call follows a turn of the loop, however loaded the machine
    try {
      outcomes.push({ ok: true, outcome: await call(i) });
    } catch (err) {
      // A refusal is fine; a crash (anything but a ToolError) is not.
      expect(err, String(err)).toMatchObject({ name: 'ToolError' });
      outcomes.push({ ok: false, code: (err as { code: string }).code });
    }
  }
  const flips = await flipper.stop();
  expect(flips).toBeGreaterThan(CALLS);
  return outcomes;
}

function json(value: JsonValue | undefined): string {
  return JSON.stringify(value ?? null);
}

/** Every file's content under `dir` (links not followed), for "no secret was copied in". */
function contents(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out; // the trash, before anything went there
  for (const dirent of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, dirent.name);
    if (dirent.isDirectory()) out.push(...contents(p));
    else if (dirent.isFile()) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

const inDeep = (...parts: string[]): string => path.join(deep, ...parts);

/** The undo record of a call made while nothing flips. */
async function undoOf(call: Promise<ToolOutcome>): Promise<UndoRecord> {
  const { undo } = await call;
  expect(undo).toBeDefined();
  return undo as UndoRecord;
}

describe.each(POSITIONS)('while %s flips to a link outside', (position) => {
  it('read_text never returns outside content', async () => {
    const outcomes = await race(position, () => readText.run({ path: inDeep('file.txt') }, fx.ctx));
    for (const { outcome } of outcomes) expect(json(outcome?.result)).not.toContain(SECRET);
    // Relative paths go through the same walk.
    const relative = await race(position, () => readText.run({ path: 'a/b/c/file.txt' }, fx.ctx));
    for (const { outcome } of relative) expect(json(outcome?.result)).not.toContain(SECRET);
  });

  it('list_folder and search_files never show outside names or content', async () => {
    const listed = await race(position, () => listFolder.run({ path: deep }, fx.ctx));
    for (const { outcome } of listed) expect(json(outcome?.result)).not.toContain('outside-only');
    const found = await race(position, () =>
      searchFiles.run({ folder: path.join(fx.reports, 'a'), contains: 'secret' }, fx.ctx),
    );
    for (const { outcome } of found) {
      expect(json(outcome?.result)).not.toContain(SECRET);
      expect((outcome?.result as { matches?: unknown[] } | undefined)?.matches ?? []).toEqual([]);
    }
    const named = await race(position, () => searchFiles.run({ folder: fx.reports, name: 'outside-only' }, fx.ctx));
    for (const { outcome } of named) expect(json(outcome?.result)).not.toContain('outside-only');
  });

  it('write_text creates and overwrites only inside, and undo stays inside', async () => {
    const created = await race(position, (i) =>
      writeText.run({ path: inDeep(`new-${i}.txt`), content: `new ${i}`, overwrite: false }, fx.ctx),
    );
    created.forEach(({ ok }, i) => {
      if (ok) expect(readFileSync(inDeep(`new-${i}.txt`), 'utf8')).toBe(`new ${i}`);
    });
    const replaced = await race(position, (i) =>
      writeText.run({ path: inDeep('file.txt'), content: `version ${i}`, overwrite: true }, fx.ctx),
    );
    // The backups kept in the trash are inside versions only.
    expect(contents(fx.trash).join('\n')).not.toContain(SECRET);
    // Undo records made while nothing flips, and those the race made, replayed while it flips.
    const undos = [...created, ...replaced].flatMap(({ outcome }) => (outcome?.undo ? [outcome.undo] : []));
    for (let i = 0; i < CALLS / 2; i += 1) {
      undos.push(await undoOf(writeText.run({ path: inDeep(`u-${i}.txt`), content: 'u', overwrite: false }, fx.ctx)));
      undos.push(await undoOf(writeText.run({ path: inDeep('file.txt'), content: `u${i}`, overwrite: true }, fx.ctx)));
    }
    await race(position, (i) => applyUndo(undos[i % undos.length] as UndoRecord, fx.ctx));
    expect(contents(fx.reports).join('\n')).not.toContain(SECRET);
  });

  it('copy reads only inside files and creates copies only inside', async () => {
    mkdirSync(path.join(fx.reports, 'copies'));
    const files = await race(position, (i) =>
      copy.run({ from: inDeep('file.txt'), to: path.join(fx.reports, 'copies', `file-${i}.txt`) }, fx.ctx),
    );
    const folders = await race(position, (i) =>
      copy.run({ from: path.join(fx.reports, 'a', 'b'), to: path.join(fx.reports, 'copies', `tree-${i}`) }, fx.ctx),
    );
    writeFileSync(path.join(fx.reports, 'top.txt'), 'top');
    const into = await race(position, (i) =>
      copy.run({ from: path.join(fx.reports, 'top.txt'), to: inDeep(`copied-${i}.txt`) }, fx.ctx),
    );
    expect(contents(path.join(fx.reports, 'copies')).join('\n')).not.toContain(SECRET);
    for (const { outcome } of [...files, ...folders, ...into]) expect(json(outcome?.result)).not.toContain(SECRET);
    // Once nothing flips, the same copy works: the refusals above came from the race, not from a broken tool. (How
    // many calls win during a race depends on the scheduler, so it is not asserted.)
    await expect(
      copy.run({ from: inDeep('file.txt'), to: path.join(fx.reports, 'copies', 'after.txt') }, fx.ctx),
    ).resolves.toMatchObject({ result: { copied: true } });
    expect(readFileSync(path.join(fx.reports, 'copies', 'after.txt'), 'utf8')).toBe('inside file');
  });

  it('move moves only inside entries between inside folders, and undo stays inside', async () => {
    const park = path.join(fx.reports, 'park');
    for (let i = 0; i < CALLS; i += 1) writeFileSync(inDeep(`m-${i}.txt`), `m ${i}`);
    const out = await race(position, (i) => move.run({ from: inDeep(`m-${i}.txt`), to: park }, fx.ctx));
    const back = await race(position, (i) =>
      move.run({ from: path.join(park, `m-${i}.txt`), to: inDeep(`back-${i}.txt`) }, fx.ctx),
    );
    const undos = [...out, ...back].flatMap(({ outcome }) => (outcome?.undo ? [outcome.undo] : []));
    for (let i = 0; i < CALLS; i += 1) writeFileSync(inDeep(`u-${i}.txt`), `u ${i}`);
    for (let i = 0; i < CALLS; i += 1) {
      undos.push(await undoOf(move.run({ from: inDeep(`u-${i}.txt`), to: park }, fx.ctx)));
    }
    await race(position, (i) => applyUndo(undos[i % undos.length] as UndoRecord, fx.ctx));
    // The moved entry itself flips too (at the last position): a move links the entry, never a link's target in.
    const twins = POSITIONS.map((p) => path.join(mirror, p, p.endsWith('.txt') ? '' : 'file.txt'));
    const links = twins.map((twin) => statSync(twin).nlink);
    await race(position, (i) =>
      i % 2 === 0
        ? move.run({ from: inDeep('file.txt'), to: path.join(park, 'file.txt') }, fx.ctx)
        : move.run({ from: path.join(park, 'file.txt'), to: inDeep('file.txt') }, fx.ctx),
    );
    expect(twins.map((twin) => statSync(twin).nlink)).toEqual(links);
    // Every file is still somewhere inside, once, with its own content.
    const all = contents(fx.reports);
    for (let i = 0; i < CALLS; i += 1) expect(all.filter((c) => c === `m ${i}`)).toHaveLength(1);
    expect(all.join('\n')).not.toContain(SECRET);
  });

  it('trash and untrash move only inside entries', async () => {
    for (let i = 0; i < CALLS; i += 1) writeFileSync(inDeep(`t-${i}.txt`), `t ${i}`);
    const trashed = await race(position, (i) => moveToTrash.run({ path: inDeep(`t-${i}.txt`) }, fx.ctx));
    expect(contents(fx.trash).join('\n')).not.toContain(SECRET);
    const undos = trashed.flatMap(({ outcome }) => (outcome?.undo ? [outcome.undo] : []));
    for (let i = 0; i < CALLS; i += 1) {
      writeFileSync(inDeep(`u-${i}.txt`), `u ${i}`);
      undos.push(await undoOf(moveToTrash.run({ path: inDeep(`u-${i}.txt`) }, fx.ctx)));
    }
    await race(position, (i) => applyUndo(undos[i % undos.length] as UndoRecord, fx.ctx));
    const all = [...contents(fx.reports), ...contents(fx.trash)];
    for (let i = 0; i < CALLS; i += 1) {
      expect(all.filter((c) => c === `t ${i}`)).toHaveLength(1);
      expect(all.filter((c) => c === `u ${i}`)).toHaveLength(1);
    }
  });

  it('delete_permanently deletes only inside entries', async () => {
    for (let i = 0; i < CALLS; i += 1) writeFileSync(inDeep(`d-${i}.txt`), `d ${i}`);
    await race(position, (i) => deletePermanently.run({ path: inDeep(`d-${i}.txt`) }, fx.ctx));
    // The outside twins (the afterEach snapshot) survive; so does the inside file nobody asked to delete.
    expect(readFileSync(inDeep('file.txt'), 'utf8')).toMatch(/inside|version/);
  });
});

describe('a recursive delete while a subfolder of the tree flips to a link outside', () => {
  it('removes the tree and never anything the link leads to', async () => {
    for (let round = 0; round < 6; round += 1) {
      const tree = path.join(fx.reports, `tree-${round}`);
      const sub = path.join(tree, 'sub');
      mkdirSync(path.join(sub, 'deeper'), { recursive: true });
      for (let i = 0; i < 20; i += 1) writeFileSync(path.join(sub, `f-${i}.txt`), 'inside');
      writeFileSync(path.join(sub, 'deeper', 'x.txt'), 'inside');
      const flipper = await startSymlinkFlipper(sub, path.join(mirror, 'a'));
      try {
        await deletePermanently.run({ path: tree, recursive: true }, fx.ctx);
      } catch (err) {
        expect(err).toMatchObject({ name: 'ToolError' });
      }
      expect(await flipper.stop()).toBeGreaterThan(0);
    }
    // The afterEach snapshot proves the outside tree (mirror/a with its files) survived every round.
    expect(statSync(path.join(mirror, 'a', 'file.txt')).isFile()).toBe(true);
  });

  it('a delete of a folder whose own entry flips deletes at most the link', async () => {
    const tree = path.join(fx.reports, 'gone');
    mkdirSync(tree);
    writeFileSync(path.join(tree, 'x.txt'), 'inside');
    const flipper = await startSymlinkFlipper(tree, path.join(mirror, 'a'));
    let seen = flipper.attempts();
    for (let i = 0; i < CALLS; i += 1) {
      seen = await flipper.ranSince(seen);
      await deletePermanently.run({ path: tree, recursive: true }, fx.ctx).catch(() => undefined);
    }
    await flipper.stop().catch(() => 0);
    expect(existsSync(path.join(mirror, 'a', 'file.txt'))).toBe(true);
  });
});
