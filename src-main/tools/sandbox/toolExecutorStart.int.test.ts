import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testPackConfig } from '../../testing/tools/packFixture.js';
import { ToolExecutor } from './toolExecutor.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-exec-start-')));
const packs = testPackConfig(join(work, 'packs'));
const options = { roots: [], packs };
let executor: ToolExecutor | undefined;
afterAll(async () => {
  await executor?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('ToolExecutor with a worker from TypeScript sources', () => {
  it("does not count the worker's slow start against the first call's limit, only the tool's own time", async () => {
    // Stands in for tsx compiling every pack: the event loop is busy for longer than a call's limit.
    const worker = join(work, 'slowStart.ts');
    writeFileSync(
      worker,
      `const until = Date.now() + 1500;
       while (Date.now() < until) {}
       process.on('message', (m: { type: string; id: string; args?: { ms?: number } }) => {
         if (m.type !== 'run') return;
         setTimeout(() => process.send?.({ type: 'result', id: m.id, ok: true, outcome: { result: 'done' } }), m.args?.ms ?? 0);
       });`,
    );
    executor = new ToolExecutor({ trashDir: join(work, 'trash'), workerPath: worker, timeoutMs: 500 });
    expect(executor.permissionWall).toBe(false);
    await expect(executor.run('anything', {}, options)).resolves.toEqual({ result: 'done' });
    // Once it has answered, a tool slower than the limit is stopped as before.
    await expect(executor.run('anything', { ms: 1500 }, options)).rejects.toThrow(/did not finish within/);
  });
});
