import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPackConfig } from '../../../testing/tools/packFixture.js';
import { ToolExecutor } from '../../sandbox/toolExecutor.js';
import type { UndoRecord } from '../../toolTypes.js';
import { FIXTURES } from '../../../testing/tools/calendarTestFixture.js';
import { bundleToolWorker } from '../../../testing/bundleToolWorker.js';

/**
 * The calendar and contacts tools as the app runs them: in the tool worker bundled to JavaScript, under Node's
 * permission model, with no folder granted to the file tools; the packs' own folders and the trash are all the
 * worker may touch, and undo comes back through the same worker.
 */
const work = realpathSync(mkdtempSync(join(tmpdir(), 'hb-calendar-worker-')));
const packs = testPackConfig(join(work, 'packs'), { timeZone: 'Europe/London' });
const trashDir = join(work, 'trash');
mkdirSync(trashDir);
const options = { roots: [], packs };
let executor: ToolExecutor;

beforeAll(async () => {
  const bundle = await bundleToolWorker(join(work));
  executor = new ToolExecutor({ trashDir, workerPath: bundle });
  expect(executor.permissionWall).toBe(true);
  for (const name of ['apple-holidays.ics', 'outlook-berlin.ics', 'malformed.ics']) {
    copyFileSync(join(FIXTURES, name), join(packs.calendarDir, name));
  }
}, 120_000);
afterAll(async () => {
  await executor.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('calendar and contacts in the bundled worker under the permission wall', () => {
  it('lists, moves and undoes the move', async () => {
    const listed = await executor.run('calendar_events', { from: '2026-12-03' }, options);
    expect(listed.result).toMatchObject({
      events: [
        { title: 'Dentist', start: '2026-12-03T08:00' },
        { title: 'Planning with Ana', start: '2026-12-03T08:00' },
      ],
      unreadable: [{ file: 'malformed.ics' }, { file: 'malformed.ics', uid: 'broken-1' }],
    });
    const before = readFileSync(join(packs.calendarDir, 'apple-holidays.ics'), 'utf8');
    const moved = await executor.run(
      'calendar_move',
      { uid: 'A3C9D7E1-2B4F-4A6C-9E8D-7F6A5B4C3D2E', start: '2026-12-04T10:00' },
      options,
    );
    expect(moved.result).toMatchObject({ moved: { title: 'Dentist', start: '2026-12-04T10:00' } });
    expect(readFileSync(join(packs.calendarDir, 'apple-holidays.ics'), 'utf8')).toContain('20261204T110000');
    await executor.undo(moved.undo as UndoRecord, options);
    expect(readFileSync(join(packs.calendarDir, 'apple-holidays.ics'), 'utf8')).toBe(before);
  });

  it('adds a contact, finds it, and undoes the add', async () => {
    const added = await executor.run('contact_add', { name: 'Ana Souza', email: 'ana@example.org' }, options);
    const found = await executor.run('contact_find', { query: 'ana sousa' }, options);
    expect(found.result).toMatchObject({ contacts: [{ name: 'Ana Souza', emails: ['ana@example.org'] }] });
    await executor.undo(added.undo as UndoRecord, options);
    expect(readdirSync(packs.contactsDir)).toEqual([]);
  });
});
