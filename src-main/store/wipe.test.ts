import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.js';

const MARKER = 'zanzibar-otter-7f3c91';

function rawBytes(store: Store): string {
  const files = [store.path, `${store.path}-wal`].filter((f) => existsSync(f));
  return files.map((f) => readFileSync(f).toString('latin1')).join('');
}

function seeded(): Store {
  const store = openStore(mkdtempSync(join(tmpdir(), 'hb-wipe-')));
  for (let t = 0; t < 30; t++) {
    store.tasks.create({ id: `t${t}`, title: `task ${t} ${MARKER}`, now: t });
    for (let m = 0; m < 5; m++) {
      store.messages.insert({
        id: `t${t}m${m}`,
        taskId: `t${t}`,
        role: 'user',
        text: `message ${m} about ${MARKER} `.repeat(20),
        state: 'complete',
        now: t,
      });
    }
  }
  store.toolCalls.insert({
    id: 'c1',
    taskId: 't1',
    tool: 'read_text',
    args: { path: `/home/ana/${MARKER}.txt` },
    description: { title: 'Read', summary: MARKER, details: [] },
    risk: 'read',
    gate: 'none',
    state: 'pending',
    taint: [],
    now: 1,
  });
  store.audit.append({ at: 1, taskId: null, callId: null, kind: 'note', actor: 'user', summary: MARKER, detail: null });
  store.settings.set('packs.secrets', { smtpPassword: MARKER, imapPassword: null });
  store.models.models.insert({
    id: 'model-1',
    path: '/data/models/a.gguf',
    name: 'A',
    sizeBytes: 1,
    source: 'downloaded',
    catalogId: null,
    sha256: null,
    integrity: 'unchecked',
    addedAt: 1,
  });
  store.checkpoint();
  return store;
}

describe('store.wipe', () => {
  it('empties every table but those kept, and no deleted byte stays in the database file or its WAL', () => {
    const store = seeded();
    expect(rawBytes(store)).toContain(MARKER);
    const before = statSync(store.path).size;

    const { tables } = store.wipe(['models']);

    expect(tables).toEqual(expect.arrayContaining(['tasks', 'messages', 'tool_calls', 'audit_events', 'settings']));
    expect(tables).not.toContain('models');
    const after = store.rowCounts();
    for (const [table, n] of Object.entries(after))
      expect({ table, n }).toEqual({ table, n: table === 'models' ? 1 : 0 });
    expect(rawBytes(store)).not.toContain(MARKER);
    expect(statSync(store.path).size).toBeLessThan(before);
    expect(existsSync(`${store.path}-wal`) ? statSync(`${store.path}-wal`).size : 0).toBe(0);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it('leaves a store that works as a new one: search finds new words, deletions stay secure', () => {
    const store = seeded();
    store.wipe();
    expect(store.models.models.list()).toEqual([]);
    store.tasks.create({ id: 'fresh', title: 'fresh', now: 5 });
    store.messages.insert({ id: 'n1', taskId: 'fresh', role: 'user', text: 'lisbon ferry', state: 'complete', now: 5 });
    const db = new Database(store.path, { readonly: true });
    try {
      const hits = db
        .prepare(
          `SELECT d.ref_id AS id FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid WHERE search_fts MATCH 'ferry'`,
        )
        .all();
      expect(hits).toEqual([{ id: 'n1' }]);
      expect(db.prepare(`SELECT v FROM search_fts_config WHERE k = 'secure-delete'`).get()).toEqual({ v: 1 });
      expect(
        db.prepare(`SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?`).get(MARKER.split('-')[0]),
      ).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
    // Audit ids start again from 1, as in a new database.
    store.audit.append({
      at: 9,
      taskId: null,
      callId: null,
      kind: 'note',
      actor: 'system',
      summary: 'after',
      detail: null,
    });
    expect(store.audit.page(Number.MAX_SAFE_INTEGER, 10).map((e) => e.id)).toEqual([1]);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });
});
