import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src-shared/contract/index.js';
import { openStore, type Store } from '../../store/store.js';
import { DataWipe } from './dataWipe.js';
import { storagePlaces, storageReport, type DataLayout } from './storageReport.js';

const PACKS = ['calendar', 'contacts', 'notes', 'mail'] as const;

let stores: Store[] = [];
afterEach(() => {
  for (const store of stores) store.close();
  stores = [];
});

/** A data folder as a session leaves it, with the user's own notes folder outside it. */
function setUp(options: { notesLinkedOutside?: boolean } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hb-wipe-host-')));
  const dataDir = join(root, 'data');
  const ownNotes = join(root, 'My notes');
  mkdirSync(ownNotes);
  writeFileSync(join(ownNotes, 'diary.md'), 'mine');
  const store = openStore(dataDir);
  stores.push(store);
  store.tasks.create({ id: 't', title: 'a task', now: 1 });
  for (const name of ['calendar', 'contacts', 'mail', 'trash', 'reminders', 'prefix-cache']) {
    mkdirSync(join(dataDir, name));
    writeFileSync(join(dataDir, name, 'f'), 'x');
  }
  if (options.notesLinkedOutside) symlinkSync(ownNotes, join(dataDir, 'notes'));
  else mkdirSync(join(dataDir, 'notes'));
  writeFileSync(join(dataDir, 'homebody.db.damaged-2026-01-01T00-00-00Z'), 'old history');
  mkdirSync(join(dataDir, 'Local Storage'));
  writeFileSync(join(dataDir, 'Local Storage', 'leveldb'), 'window storage');
  const layout = (notesPath = join(dataDir, 'notes')): DataLayout => ({
    dataDir,
    databaseFile: store.path,
    keyFile: join(dataDir, 'secret.key'),
    packFolders: PACKS.map((id) => ({
      id,
      label: id,
      description: id,
      path: id === 'notes' ? notesPath : join(dataDir, id),
      defaultPath: join(dataDir, id),
    })),
  });
  return { root, dataDir, ownNotes, store, layout };
}

function wipeOf(store: Store, dataDir: string, layout: () => DataLayout, replying = () => false) {
  const events: HostEvent[] = [];
  let stops = 0;
  const wipe = new DataWipe({
    dataDir,
    store,
    places: () => storagePlaces(layout()),
    stopActivity: async () => {
      stops++;
    },
    replying,
    reset: () => undefined,
    emit: (event) => events.push(event),
  });
  return { wipe, events, stops: () => stops };
}

describe('storagePlaces and DataWipe', () => {
  it('lists a damaged database and the window storage, removes the first and keeps the second', async () => {
    const { dataDir, store, layout } = setUp();
    const report = await storageReport(dataDir, storagePlaces(layout()), { protection: 'key-file', description: '' });
    expect(report.items.find((i) => i.id === 'damaged-databases')).toMatchObject({ bytes: 11, deletedWithData: true });
    expect(report.items.find((i) => i.id === 'other')).toMatchObject({ bytes: 14, deletedWithData: false });

    const { wipe, events } = wipeOf(store, dataDir, layout);
    const result = await wipe.deleteAll(false);
    expect(result.removed).toContain('Damaged databases moved aside');
    // The database stays, emptied (with its WAL and shared memory while it is open).
    expect(readdirSync(dataDir).sort()).toEqual(['Local Storage', 'homebody.db', 'homebody.db-shm', 'homebody.db-wal']);
    expect(events).toEqual([{ type: 'privacy.dataDeleted' }]);
  });

  it('never removes what lies outside the data folder, even through a link in it', async () => {
    const { dataDir, ownNotes, store, layout } = setUp({ notesLinkedOutside: true });
    expect(storagePlaces(layout()).find((p) => p.id === 'notes')).toMatchObject({ onDelete: 'keep' });
    const chosenOutside = storagePlaces(layout(ownNotes)).find((p) => p.id === 'notes');
    expect(chosenOutside).toMatchObject({ path: ownNotes, onDelete: 'keep' });

    await wipeOf(store, dataDir, layout).wipe.deleteAll(true);
    expect(readdirSync(ownNotes)).toEqual(['diary.md']);
    await wipeOf(store, dataDir, () => layout(ownNotes)).wipe.deleteAll(true);
    expect(readdirSync(ownNotes)).toEqual(['diary.md']);
  });

  it('refuses when replies keep starting, after stopping them a few times, and deletes nothing', async () => {
    const { dataDir, store, layout } = setUp();
    const { wipe, stops } = wipeOf(store, dataDir, layout, () => true);
    await expect(wipe.deleteAll(false)).rejects.toMatchObject({ code: 'TASK_BUSY' });
    expect(stops()).toBe(3);
    expect(store.tasks.get('t')).toBeDefined();
    expect(existsSync(join(dataDir, 'trash', 'f'))).toBe(true);
  });

  it('refuses a second deletion while one runs', async () => {
    const { dataDir, store, layout } = setUp();
    const { wipe } = wipeOf(store, dataDir, layout);
    const first = wipe.deleteAll(false);
    await expect(wipe.deleteAll(false)).rejects.toMatchObject({ code: 'TASK_BUSY' });
    await first;
    expect(store.tasks.get('t')).toBeUndefined();
  });
});
