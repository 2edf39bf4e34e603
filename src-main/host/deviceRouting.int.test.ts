import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent, HostEventOf } from '../../src-shared/contract/index.js';
import { createHost, type HostInternals } from './createHost.js';
import { PageDeviceBridge } from '../services/packs/pageDeviceBridge.js';
import { COMPILED_TOOL_WORKER } from '../testing/compiledApp.js';

/**
 * The whole route of a device request in browser mode, with the real tool worker: the tool asks the Host, the
 * Host's page bridge sends a device.request event, the "page" (this test) answers through the device.answer method,
 * and the tool's result comes back. And reminders: a reminder tool call makes the scheduler read the file again.
 */
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-device-int-')));
const TASK = 'device-task';
const bridge = new PageDeviceBridge();
let host: HostInternals;
const events: HostEvent[] = [];
/** The page's clipboard. */
let clipboard = 'before';

function nextEvent<T extends HostEvent['type']>(type: T): Promise<HostEventOf<T>> {
  return new Promise((resolve) => {
    const stop = host.subscribe((event) => {
      if (event.type !== type) return;
      stop();
      resolve(event as HostEventOf<T>);
    });
  });
}

beforeAll(async () => {
  host = await createHost({
    toolWorker: COMPILED_TOOL_WORKER,
    dataDir: join(work, 'data'),
    shell: 'browser',
    loadModelOnStart: false,
    device: bridge,
  });
  for (const tool of ['clipboard_read', 'clipboard_write', 'reminder_add', 'device_notify']) {
    await host.invoke('policy.setMode', { tool, mode: 'auto' });
  }
  host.store.tasks.create({ id: TASK, title: 'Device things', now: Date.now() });
  host.store.tasks.create({ id: 'reads', title: 'What did I copy?', now: Date.now() });
  // The page: carries out each request and answers through the contract method, as the renderer does.
  host.subscribe((event) => {
    events.push(event);
    if (event.type !== 'device.request') return;
    const { id, request } = event;
    const answer =
      request.kind === 'clipboard-read'
        ? { id, ok: true as const, text: clipboard }
        : request.kind === 'clipboard-write'
          ? ((clipboard = request.text), { id, ok: true as const })
          : { id, ok: true as const, shown: 'page' as const };
    void host.call('device.answer', answer);
  });
});
afterAll(async () => {
  bridge.dispose();
  await host?.dispose();
});

const call = (tool: string, args: Record<string, unknown>, taskId = TASK) =>
  host.tools.propose({ taskId, tool, args, actor: 'cli', interactive: false });

describe('device requests through the Host in browser mode', () => {
  it('without a page, a device tool fails with a clear sentence', async () => {
    const outcome = await call('clipboard_read', {});
    expect(outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('No Homebody page is open') });
  });

  it('with a page, the clipboard is read and written through it; reading taints the task', async () => {
    bridge.setConnectedPages(1);
    const write = await call('clipboard_write', { text: 'Room 4' });
    expect(write.status).toBe('done');
    expect(clipboard).toBe('Room 4');
    const read = await call('clipboard_read', {}, 'reads');
    expect(read).toMatchObject({ status: 'done', result: { text: 'Room 4' } });
    // What was copied may come from anywhere: after reading it, a write in that task asks first, even on auto.
    expect(host.store.taskSafety.taintSources('reads')).toContain('the clipboard');
    expect((await call('clipboard_write', { text: 'x' }, 'reads')).status).toBe('needs-permission');
    // A late or foreign answer is not accepted.
    expect(await host.call('device.answer', { id: 'nobody-asked', ok: true })).toEqual({
      ok: true,
      value: { accepted: false },
    });
  });

  it('a reminder set for now is shown at once through the page, marked in the file, and the add is undoable', async () => {
    const due = nextEvent('reminder.due');
    const added = await call('reminder_add', { text: 'Stretch', due: 'in 0 minutes' });
    expect(added.status).toBe('done');
    expect((await due).reminder).toMatchObject({ text: 'Stretch' });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'device.request',
        request: { kind: 'notify', title: 'Reminder', body: 'Stretch' },
      }),
    );
    const file = host.packs.config().remindersFile;
    await expect
      .poll(() => (JSON.parse(readFileSync(file, 'utf8')) as { reminders: Array<{ notified: boolean }> }).reminders)
      .toMatchObject([{ notified: true }]);

    const undone = await host.tools.undo(added.call!.id);
    expect(undone.undo).toBe('undone');
    expect((JSON.parse(readFileSync(file, 'utf8')) as { reminders: unknown[] }).reminders).toEqual([]);
  });
});
