import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPackConfig } from '../../testing/tools/packFixture.js';
import { ToolExecutor } from '../sandbox/toolExecutor.js';
import type { DeviceRequest, JsonValue, PackConfig } from '../toolTypes.js';
import { bundleToolWorker } from '../../testing/bundleToolWorker.js';

/**
 * The notes, reminders, utilities and device packs in the worker as it runs in the app: bundled to JavaScript,
 * under Node's permission model (only the packs' folders, the trash and sysfs's battery and network are readable).
 */
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-packs-wall-')));
const asked: DeviceRequest[] = [];
let executor: ToolExecutor;
let packs: PackConfig;

beforeAll(async () => {
  const bundle = await bundleToolWorker(join(work, 'bundle'));
  const trashDir = join(work, 'trash');
  mkdirSync(trashDir);
  packs = testPackConfig(join(work, 'packs'), { timeZone: 'Europe/Lisbon' });
  mkdirSync(join(work, 'packs', 'reminders'));
  executor = new ToolExecutor({
    trashDir,
    workerPath: bundle,
    services: async (request): Promise<JsonValue> => {
      if (request.kind !== 'device') throw new Error('no network here');
      asked.push(request.request);
      return request.request.kind === 'clipboard-read' ? { text: 'copied' } : { done: true };
    },
  });
}, 120_000);
afterAll(async () => {
  await executor?.dispose();
});

const run = (tool: string, args: Record<string, never> | Record<string, string | number | boolean>) =>
  executor.run(tool, args, { roots: [], packs });

describe('the packs under the permission wall', () => {
  it('computes, converts and does date arithmetic', async () => {
    expect(executor.permissionWall).toBe(true);
    expect((await run('calculate', { expression: '2^10 + sqrt(16)' })).result).toMatchObject({ result: '1028' });
    await expect(run('calculate', { expression: 'import({})' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await run('convert_units', { value: 10, from: 'km', to: 'mi' })).result).toMatchObject({ unit: 'mi' });
    expect((await run('date_calc', { operation: 'weekday', date: '2026-12-25' })).result).toEqual({
      date: '2026-12-25',
      weekday: 'Friday',
    });
  });

  it("writes and finds a note, and adds a reminder, in the packs' folders", async () => {
    expect((await run('note_write', { title: 'Ideas', text: 'a garden' })).undo).toMatchObject({
      kind: 'remove-created',
    });
    expect((await run('note_search', { query: 'garden' })).result).toMatchObject({ found: 1 });
    const added = await run('reminder_add', { text: 'Tea', due: 'in 5 minutes' });
    expect(added.undo).toMatchObject({ kind: 'restore-file' });
    expect(readFileSync(packs.remindersFile, 'utf8')).toContain('"Tea"');
  });

  it("asks the shell for the clipboard, and reads this computer's state", async () => {
    expect(await run('clipboard_read', {})).toMatchObject({
      result: { text: 'copied' },
      untrustedSource: 'the clipboard',
    });
    await run('device_notify', { title: 'Hi', body: 'there' });
    expect(asked).toEqual([{ kind: 'clipboard-read' }, { kind: 'notify', title: 'Hi', body: 'there' }]);
    const status = (await run('device_status', {})).result as { disk: { freeBytes: number }; network: unknown[] };
    expect(status.disk.freeBytes).toBeGreaterThan(0);
    // Network links are listed (from sysfs, readable through the wall, or from the OS); nothing is contacted.
    if (process.platform === 'linux') expect(status.network.length).toBeGreaterThan(0);
  });
});
