import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testPackConfig } from '../../testing/tools/packFixture.js';
import { ToolExecutor } from './toolExecutor.js';
import { bundleToolWorker } from '../../testing/bundleToolWorker.js';

const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-exec-')));
const root = join(work, 'Reports');
const outside = join(work, 'private');
mkdirSync(root);
mkdirSync(outside);
writeFileSync(join(root, 'draft.txt'), 'quarterly draft');
writeFileSync(join(outside, 'secret.txt'), 'do not read');
const roots = [{ path: root, untrusted: false }];
const packs = testPackConfig(join(work, 'packs'));
const trashDir = join(work, 'trash');
mkdirSync(trashDir);

const executors: ToolExecutor[] = [];
afterAll(() => Promise.all(executors.map((e) => e.dispose())));
function executor(options: Partial<ConstructorParameters<typeof ToolExecutor>[0]> = {}): ToolExecutor {
  const e = new ToolExecutor({ trashDir, ...options });
  executors.push(e);
  return e;
}

/** A stand-in worker script for the failure modes: it hangs, floods, crashes, or reads past its permissions. */
function fakeWorker(name: string, body: string): string {
  const path = join(work, `${name}.mjs`);
  writeFileSync(path, body);
  return path;
}

describe('ToolExecutor (real child process)', () => {
  it('runs the built-in tools in a child process and undoes them', async () => {
    const e = executor();
    const listing = await e.run('list_folder', { path: root }, { roots, packs });
    expect(JSON.stringify(listing.result)).toContain('draft.txt');
    const moved = await e.run('move', { from: join(root, 'draft.txt'), to: join(root, 'final.txt') }, { roots, packs });
    expect(readFileSync(join(root, 'final.txt'), 'utf8')).toBe('quarterly draft');
    expect(moved.undo).toMatchObject({ kind: 'move-back' });
    await e.undo(moved.undo!, { roots, packs });
    expect(readFileSync(join(root, 'draft.txt'), 'utf8')).toBe('quarterly draft');
  });

  it("passes the tools' own refusals back as clear errors", async () => {
    await expect(
      executor().run('read_text', { path: join(outside, 'secret.txt') }, { roots, packs }),
    ).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
  });

  it('stops a call past its time limit by killing the worker, and recovers for the next call', async () => {
    const e = executor({ timeoutMs: 300, workerPath: fakeWorker('hang', `process.on('message', () => {});`) });
    await expect(e.run('list_folder', { path: root }, { roots, packs })).rejects.toThrow(/did not finish within/);
    await expect(e.run('list_folder', { path: root }, { roots, packs })).rejects.toThrow(/did not finish within/);
  });

  it('refuses an output larger than the cap', async () => {
    const flood = fakeWorker(
      'flood',
      `process.on('message', (m) => process.send({ type: 'result', id: m.id, ok: true, outcome: { result: 'x'.repeat(600 * 1024) } }));`,
    );
    await expect(
      executor({ workerPath: flood }).run('list_folder', { path: root }, { roots, packs }),
    ).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
  });

  it('reports a worker that crashes instead of hanging', async () => {
    const crash = fakeWorker('crash', `process.on('message', () => { console.error('boom'); process.exit(3); });`);
    await expect(executor({ workerPath: crash }).run('list_folder', { path: root }, { roots, packs })).rejects.toThrow(
      /tool worker stopped \(exit 3\).*boom/,
    );
  });

  it('cancels a call when its signal aborts', async () => {
    const slow = fakeWorker(
      'slow',
      `const timers = new Map();
       process.on('message', (m) => {
         if (m.type === 'cancel') { clearTimeout(timers.get(m.id)); process.send({ type: 'result', id: m.id, ok: false, error: { code: 'IO_ERROR', message: 'cancelled' } }); return; }
         timers.set(m.id, setTimeout(() => process.send({ type: 'result', id: m.id, ok: true, outcome: { result: 'late' } }), 10000));
       });`,
    );
    const controller = new AbortController();
    const running = executor({ workerPath: slow }).run(
      'list_folder',
      { path: root },
      { roots, packs, signal: controller.signal },
    );
    controller.abort();
    await expect(running).rejects.toThrow(/cancelled/);
  });

  it("answers a running call's service requests through the Host, and refuses when there is no handler", async () => {
    const asker = fakeWorker(
      'asker',
      `const waiting = new Map();
       process.on('message', (m) => {
         if (m.type === 'service-result') { const id = waiting.get(m.serviceId); process.send({ type: 'result', id, ok: true, outcome: { result: m } }); return; }
         waiting.set('s-' + m.id, m.id);
         process.send({ type: 'service', id: m.id, serviceId: 's-' + m.id, request: { kind: 'egress', url: m.args.url, feature: 'web', purpose: 'test' } });
       });`,
    );
    const asked: unknown[] = [];
    const withHandler = executor({
      workerPath: asker,
      services: async (request, call) => {
        asked.push({ ...request, tool: call.tool });
        if (request.kind === 'egress' && request.url.includes('blocked'))
          throw Object.assign(new Error('Offline mode is on.'), { code: 'NETWORK_BLOCKED' });
        return 'ok';
      },
    });
    const allowed = await withHandler.run('web', { url: 'http://127.0.0.1/a' }, { roots, packs });
    expect(allowed.result).toMatchObject({ ok: true, value: 'ok' });
    const blocked = await withHandler.run('web', { url: 'http://blocked/' }, { roots, packs });
    expect(blocked.result).toMatchObject({
      ok: false,
      error: { code: 'NETWORK_BLOCKED', message: 'Offline mode is on.' },
    });
    expect(asked).toEqual([
      { kind: 'egress', url: 'http://127.0.0.1/a', feature: 'web', purpose: 'test', tool: 'web' },
      { kind: 'egress', url: 'http://blocked/', feature: 'web', purpose: 'test', tool: 'web' },
    ]);
    const without = await executor({ workerPath: asker }).run('web', { url: 'http://x/' }, { roots, packs });
    expect(without.result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it("runs a compiled worker under Node's permission model: granted folders only", async () => {
    const probe = fakeWorker(
      'probe',
      `import { readFileSync } from 'node:fs';
       process.on('message', (m) => {
         const read = (p) => { try { return readFileSync(p, 'utf8'); } catch (e) { return e.code; } };
         process.send({ type: 'result', id: m.id, ok: true, outcome: { result: { inside: read(${JSON.stringify(join(root, 'draft.txt'))}), outside: read(${JSON.stringify(join(outside, 'secret.txt'))}) } } });
       });`,
    );
    const e = executor({ workerPath: probe });
    expect(e.permissionWall).toBe(true);
    const { result } = await e.run('list_folder', { path: root }, { roots, packs });
    expect(result).toEqual({ inside: 'quarterly draft', outside: 'ERR_ACCESS_DENIED' });
  });

  it('runs the real worker bundled to JavaScript under that model', async () => {
    const bundle = await bundleToolWorker(join(work));
    const e = executor({ workerPath: bundle });
    const { result } = await e.run('read_text', { path: join(root, 'draft.txt') }, { roots, packs });
    expect(JSON.stringify(result)).toContain('quarterly draft');
    await expect(e.run('read_text', { path: join(outside, 'secret.txt') }, { roots, packs })).rejects.toMatchObject({
      code: 'OUTSIDE_GRANTED_FOLDERS',
    });
  });
});
