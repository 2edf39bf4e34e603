/**
 * The symlink races of races.int.test.ts through the ToolExecutor and the compiled worker, as the packaged app runs
 * it: bundled JavaScript under Node's permission model, which must let the path checks reach /proc/self/fd. The OS
 * sandbox is off in the first block, so the path checks alone must hold; the second block runs the same inside it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleToolWorker } from '../../../testing/bundleToolWorker.js';
import { startSymlinkFlipper, stopAllFlippers } from '../../../testing/symlinkFlipper.js';
import { ToolExecutor } from '../../sandbox/toolExecutor.js';
import type { JsonValue, ToolOutcome } from '../../toolTypes.js';
import type { Fixture } from '../../../testing/tools/filesFixture.js';
import { makeFixture } from '../../../testing/tools/filesFixture.js';

const CALLS = 20;
const SECRET = 'OUTSIDE SECRET';

let fx: Fixture;
let bundle: string;
let before: Map<string, string>;
const executors: ToolExecutor[] = [];

beforeAll(async () => {
  fx = makeFixture();
  bundle = await bundleToolWorker(path.join(fx.base, 'appdata', 'bundle'));
}, 120_000);
afterAll(async () => {
  await stopAllFlippers();
  await Promise.all(executors.map((e) => e.dispose()));
  fx.cleanup();
});

const deep = (): string => path.join(fx.reports, 'a', 'b', 'c');
const mirror = (): string => path.join(fx.outside, 'mirror');

beforeEach(() => {
  mkdirSync(deep(), { recursive: true });
  mkdirSync(path.join(mirror(), 'a', 'b', 'c'), { recursive: true });
  writeFileSync(path.join(deep(), 'file.txt'), 'inside file');
  writeFileSync(path.join(mirror(), 'a', 'b', 'c', 'file.txt'), SECRET);
  before = fx.snapshot();
});

function executor(osSandbox: 'off' | 'auto'): ToolExecutor {
  const e = new ToolExecutor({ trashDir: fx.trash, workerPath: bundle, osSandbox });
  executors.push(e);
  return e;
}

async function race(
  position: string,
  call: (i: number) => Promise<ToolOutcome>,
): Promise<Array<ToolOutcome | undefined>> {
  const flipper = await startSymlinkFlipper(path.join(fx.reports, position), path.join(mirror(), position));
  const outcomes: Array<ToolOutcome | undefined> = [];
  let seen = flipper.attempts();
  for (let i = 0; i < CALLS; i += 1) {
    seen = await flipper.ranSince(seen); // every call follows a turn of the loop, however loaded the machine
    outcomes.push(
      await call(i).catch((err: unknown) => {
        expect(err, String(err)).toMatchObject({ name: 'ToolError' });
        return undefined;
      }),
    );
  }
  expect(await flipper.stop()).toBeGreaterThan(CALLS);
  return outcomes;
}

const text = (value: JsonValue | undefined): string => JSON.stringify(value ?? null);

describe.each(['off', 'auto'] as const)('the compiled worker (OS sandbox %s)', (osSandbox) => {
  it.each(['a', 'a/b/c', 'a/b/c/file.txt'])(
    'reads, writes, trashes and deletes only inside while %s flips',
    async (position) => {
      const e = executor(osSandbox);
      expect(e.permissionWall).toBe(true);
      const options = { roots: fx.roots, packs: fx.ctx.packs };
      const file = path.join(deep(), 'file.txt');
      // Each tool works before the race: the wall lets the path checks (and the trash) through.
      expect(text((await e.run('read_text', { path: file }, options)).result)).toContain('inside file');
      const baseline = path.join(deep(), `baseline-${osSandbox}-${position.length}.txt`);
      await e.run('write_text', { path: baseline, content: 'b', overwrite: false }, options);
      const replaced = await e.run('write_text', { path: baseline, content: 'b2', overwrite: true }, options);
      await e.undo(replaced.undo!, options);
      await e.run('copy', { from: baseline, to: `${baseline}.copy` }, options);
      await e.run('delete_permanently', { path: `${baseline}.copy` }, options);
      const trashed = await e.run('trash', { path: baseline }, options);
      await e.undo(trashed.undo!, options);
      expect(readFileSync(baseline, 'utf8')).toBe('b');

      for (const outcome of await race(position, () => e.run('read_text', { path: file }, options))) {
        expect(text(outcome?.result)).not.toContain(SECRET);
      }
      const created = await race(position, (i) =>
        e.run('write_text', { path: path.join(deep(), `new-${i}.txt`), content: `n${i}`, overwrite: false }, options),
      );
      created.forEach((outcome, i) => {
        if (outcome !== undefined) expect(readFileSync(path.join(deep(), `new-${i}.txt`), 'utf8')).toBe(`n${i}`);
      });
      await race(position, (i) => e.run('write_text', { path: file, content: `v${i}`, overwrite: true }, options));
      await race(position, (i) => e.run('trash', { path: path.join(deep(), `new-${i}.txt`) }, options));
      for (let i = 0; i < CALLS; i += 1) writeFileSync(path.join(deep(), `d-${i}.txt`), 'd');
      await race(position, (i) => e.run('delete_permanently', { path: path.join(deep(), `d-${i}.txt`) }, options));
      await race(position, (i) =>
        e.run('copy', { from: file, to: path.join(fx.reports, `copy-${position.length}-${i}.txt`) }, options),
      );
      for (let i = 0; i < CALLS; i += 1) {
        const copied = path.join(fx.reports, `copy-${position.length}-${i}.txt`);
        if (existsSync(copied)) expect(readFileSync(copied, 'utf8')).not.toContain(SECRET);
      }
      // Nothing outside was created, changed or deleted.
      expect(fx.snapshot()).toEqual(before);
    },
  );
});
