import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src-shared/contract/index.js';
import { openStore, type Store } from '../store/store.js';
import { DAY, NOW, seedHistory } from '../testing/historyFixture.js';
import { HistoryService, PURGE_PENDING_KEY } from './historyService.js';

function service(store: Store, now = NOW) {
  const events: HostEvent[] = [];
  const history = new HistoryService({ store, emit: (e) => events.push(e), appVersion: '0.0.0-test', now: () => now });
  return { history, events };
}

function seeded(dataDir: string | ':memory:' = ':memory:') {
  const store = openStore(dataDir);
  seedHistory(store);
  return { store, ...service(store) };
}

/** Every byte of every file under `dir`. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, bytes: readFileSync(path) }));
}

const ids = (hits: Array<{ taskId: string }>) => hits.map((h) => h.taskId);

describe('history search', () => {
  it('finds words in messages, tool names, arguments and results, one hit per task', () => {
    const { history } = seeded();
    expect(ids(history.search('cacilhas'))).toEqual(['trip']);
    expect(history.search('cacilhas')[0]?.matches).toBe(2);
    expect(ids(history.search('plumber'))).toEqual(['invoice']);
    expect(history.search('plumber-2026-03')[0]?.target).toEqual({ kind: 'toolCall', id: 'c-list' });
    expect(ids(history.search('delete_permanently'))).toEqual(['invoice']);
    expect(ids(history.search('boarding gate'))).toEqual(['trip']);
    expect(ids(history.search('ferry-times'))).toEqual(['trip']);
    expect(ids(history.search('packing.txt'))).toEqual(['broken']);
  });

  it("quotes a call's snippet from its words for people, not from its arguments' keys and numbers", () => {
    const store = openStore(':memory:');
    store.tasks.create({ id: 'w', title: 'Write hello', now: NOW });
    store.toolCalls.insert({
      id: 'c-write',
      taskId: 'w',
      tool: 'write_text',
      args: { path: '/tmp/docs/hello.txt', content: 'hi there', overwrite: false },
      description: { title: 'Write a text file', summary: 'Write /tmp/docs/hello.txt', details: [] },
      risk: 'write',
      gate: 'none',
      state: 'approved',
      taint: [],
      now: NOW,
    });
    store.toolCalls.start('c-write', NOW);
    store.toolCalls.finish('c-write', {
      state: 'done',
      result: { path: '/tmp/docs/hello.txt', created: true, bytes: 20 },
      summary: 'Created /tmp/docs/hello.txt (20 bytes).',
      now: NOW + 1,
    });
    const { history } = service(store);
    const [hit] = history.search('hello');
    expect(hit?.target).toEqual({ kind: 'toolCall', id: 'c-write' });
    expect(hit?.snippet).toMatch(/Write a text file|Created \/tmp\/docs\/hello\.txt/);
    expect(hit?.snippet).not.toMatch(/overwrite|\b0\b|\b20 1\b|created/);
    // Its summary is searchable too.
    expect(ids(history.search('created'))).toEqual(['w']);
  });

  it('matches the word being typed as a prefix, and needs every word', () => {
    const { history } = seeded();
    expect(ids(history.search('lisb')).sort()).toEqual(['broken', 'trip']);
    expect(ids(history.search('lisbon packing'))).toEqual(['broken']);
    expect(ids(history.search('lisb '))).toEqual([]);
  });

  it('ranks the more recent of two equal matches first', () => {
    const { history } = seeded();
    const hits = history.search('lisbon');
    expect(ids(hits)).toEqual(['broken', 'trip']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('returns a plain snippet with the offsets of every matched word', () => {
    const { history } = seeded();
    const [hit] = history.search('ferry weekend');
    expect(hit?.target).toEqual({ kind: 'message', id: 'trip-m0' });
    const marked = hit!.highlights.map(([a, b]) => hit!.snippet.slice(a, b).toLowerCase());
    expect(marked.sort()).toEqual(['ferry', 'weekend']);
    for (const mark of ['\u0002', '\u0003', '<']) expect(hit!.snippet).not.toContain(mark);
  });

  it('takes any text without a syntax error: operators, quotes and punctuation are words', () => {
    const { history } = seeded();
    for (const query of ['"', 'AND', 'lisbon OR', 'NEAR(a b)', '***', '-ferry', 'col:umn', '"unclosed phrase', '(']) {
      expect(() => history.search(query)).not.toThrow();
    }
    expect(history.search('   ')).toEqual([]);
    expect(ids(history.search('"boarding gate"'))).toEqual(['trip']);
    expect(ids(history.search('"gate boarding"'))).toEqual([]);
  });

  it('applies the same filters as the list', () => {
    const { history } = seeded();
    expect(ids(history.search('lisbon', { statuses: ['completed'] }))).toEqual(['trip']);
    expect(ids(history.search('lisbon', { tool: 'read_text', from: NOW - 7 * DAY }))).toEqual(['broken']);
  });
});

describe('history list', () => {
  it('filters by status (waiting included), by tool and by date, with the total', () => {
    const { history } = seeded();
    const list = (filter: Parameters<HistoryService['list']>[0]) => history.list(filter).entries.map((e) => e.id);
    expect(list({})).toEqual(['broken', 'invoice', 'trip']);
    expect(list({ statuses: ['failed', 'completed'] })).toEqual(['broken', 'trip']);
    expect(list({ statuses: ['waiting'] })).toEqual(['invoice']);
    expect(list({ tool: 'read_text' })).toEqual(['broken', 'trip']);
    expect(list({ from: NOW - 30 * DAY, to: NOW - DAY })).toEqual(['invoice']);
    const invoice = history.list({ statuses: ['waiting'] });
    expect(invoice.total).toBe(1);
    expect(invoice.entries[0]).toMatchObject({
      tools: ['delete_permanently', 'list_folder'],
      waitingCalls: 1,
      deniedCalls: 0,
      failedCalls: 0,
      messageCount: 1,
    });
    // A task says which of its calls failed, whatever its own status.
    expect(history.list({ tool: 'read_text' }).entries.map((e) => [e.id, e.failedCalls, e.deniedCalls])).toEqual([
      ['broken', 1, 0],
      ['trip', 0, 0],
    ]);
  });

  it('pages through every task exactly once, even when many share a time', () => {
    const store = openStore(':memory:');
    for (let i = 0; i < 57; i++)
      store.tasks.create({ id: `t${String(i).padStart(2, '0')}`, title: `${i}`, now: 1000 + (i % 4) });
    const { history } = service(store);
    const seen: string[] = [];
    let page = history.list({}, undefined, 10);
    for (;;) {
      seen.push(...page.entries.map((e) => e.id));
      expect(page.total).toBe(57);
      if (!page.next) break;
      page = history.list({}, page.next, 10);
    }
    expect(seen).toHaveLength(57);
    expect(new Set(seen).size).toBe(57);
  });
});

describe('history export and import', () => {
  it('gives the same search results after a JSON export is imported into an empty data folder', () => {
    const { history } = seeded();
    const exported = history.export(undefined, 'json');
    expect(exported).toMatchObject({ mimeType: 'application/json', tasks: 3 });
    const fresh = service(openStore(':memory:'));
    expect(fresh.history.import(exported.content)).toEqual({ imported: 3, skipped: 0, messages: 4, toolCalls: 4 });
    for (const query of [
      'lisbon',
      'cacilhas',
      'plumber',
      'electrician.pdf',
      'read_text',
      'boarding gate',
      'lisb',
      'pdf',
    ]) {
      const strip = (hits: ReturnType<HistoryService['search']>) => hits.map(({ score: _s, ...rest }) => rest);
      expect(strip(fresh.history.search(query))).toEqual(strip(history.search(query)));
    }
    expect(fresh.events).toContainEqual({ type: 'tasks.imported', count: 3 });
  });

  it('never brings a waiting or running call back to life, and keeps tasks already here', () => {
    const { history } = seeded();
    const content = history.export(['invoice'], 'json').content;
    const target = openStore(':memory:');
    const fresh = service(target);
    fresh.history.import(content);
    expect(target.toolCalls.get('c-del')).toMatchObject({ state: 'expired', undo: null });
    expect(target.toolCalls.queue()).toEqual([]);
    expect(fresh.history.import(content)).toEqual({ imported: 0, skipped: 1, messages: 0, toolCalls: 0 });
  });

  it('refuses a file that is not an export, or a damaged one, and imports none of it', () => {
    const { history } = seeded();
    const target = openStore(':memory:');
    const fresh = service(target);
    expect(() => fresh.history.import('# Homebody history\n')).toThrow(/not valid JSON/);
    expect(() => fresh.history.import('{"tasks": []}')).toThrow(/not a Homebody history export/);
    const good = JSON.parse(history.export(undefined, 'json').content) as { tasks: Array<{ messages: unknown[] }> };
    good.tasks[2]!.messages = [{ id: 'broken message' }];
    expect(() => fresh.history.import(JSON.stringify(good))).toThrow(/damaged: tasks\.2\.messages\.0/);
    const twice = JSON.parse(history.export(['trip'], 'json').content) as { tasks: unknown[] };
    twice.tasks.push(twice.tasks[0]);
    expect(() => fresh.history.import(JSON.stringify(twice))).toThrow(/appears twice/);
    expect(target.history.allIds()).toEqual([]);
  });

  it('writes Markdown with the timeline: messages, then each call with its decision and result', () => {
    const { history } = seeded();
    const { content, fileName } = history.export(['trip'], 'md');
    expect(fileName).toMatch(/^homebody-task-\d{4}-\d{2}-\d{2}\.md$/);
    const order = ['Plan a weekend in Lisbon', 'Here is a plan', 'Tool call: read_text call', 'boarding gate 3'];
    const at = order.map((text) => content.indexOf(text));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(content).toContain('ran by policy by policy');
  });

  it('names missing tasks instead of exporting less than asked', () => {
    const { history } = seeded();
    expect(() => history.export(['trip', 'gone'], 'json')).toThrow(/no task gone/);
  });
});

describe('history deletion', () => {
  it('leaves no trace of a deleted task in any file of the data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-delete-'));
    const { store, history, events } = seeded(dir);
    const phrase = 'xylophonequokka';
    store.tasks.create({ id: 'secret', title: `About ${phrase}`, now: NOW });
    store.messages.insert({
      id: 's1',
      taskId: 'secret',
      role: 'user',
      text: `Remember ${phrase}`,
      state: 'complete',
      now: NOW,
    });
    store.toolCalls.insert({
      id: 's-call',
      taskId: 'secret',
      tool: 'read_text',
      args: { path: `${phrase}.txt` },
      description: { title: `Read ${phrase}.txt`, summary: phrase, details: [] },
      risk: 'read',
      gate: 'none',
      state: 'pending',
      taint: [],
      now: NOW,
    });
    store.audit.append({
      at: NOW,
      taskId: 'secret',
      callId: 's-call',
      kind: 'proposed',
      actor: 'model',
      summary: phrase,
      detail: { phrase },
    });
    store.checkpoint();
    expect(filesUnder(dir).some((f) => f.bytes.includes(phrase))).toBe(true);

    expect(await history.delete(['secret'])).toBe(1);
    for (const file of filesUnder(dir)) expect(file.bytes.includes(phrase), file.path).toBe(false);
    expect(history.search(phrase)).toEqual([]);
    expect(history.export(undefined, 'json').content).not.toContain(phrase);
    expect(store.integrityCheck()).toBe('ok');
    expect(events).toContainEqual({ type: 'tasks.deleted', taskIds: ['secret'], all: false });
    // The audit log records that a deletion happened, never what was deleted.
    expect(store.audit.page(Number.MAX_SAFE_INTEGER, 1)[0]).toMatchObject({
      kind: 'history-deleted',
      detail: { count: 1 },
    });
    store.close();
  });

  it('deletes many tasks in chunks and then purges the index, leaving no trace on disk either', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-bulk-delete-'));
    const { store, history } = seeded(dir);
    const many = Array.from({ length: 45 }, (_, i) => `bulk${i}`);
    for (const id of many) {
      store.tasks.create({ id, title: id, now: NOW });
      store.messages.insert({
        id: `${id}-m`,
        taskId: id,
        role: 'user',
        text: `secret ${id}wombat`,
        state: 'complete',
        now: NOW,
      });
    }
    store.checkpoint();
    expect(filesUnder(dir).some((f) => f.bytes.includes('bulk7wombat'))).toBe(true);
    expect(await history.delete(many)).toBe(45);
    for (const file of filesUnder(dir)) expect(file.bytes.includes('wombat'), file.path).toBe(false);
    expect(history.search('secret')).toEqual([]);
    expect(store.settings.get(PURGE_PENDING_KEY)).toBeUndefined();
    expect(store.integrityCheck()).toBe('ok');
    expect(store.audit.page(Number.MAX_SAFE_INTEGER, 1)[0]).toMatchObject({ detail: { count: 45 } });
    store.close();
  });

  it('finishes a purge that a crash interrupted, at the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-purge-'));
    const { store } = seeded(dir);
    store.transaction(() => {
      store.settings.set(PURGE_PENDING_KEY, true);
      store.history.deleteTasksDeferringPurge(['trip']);
    });
    store.checkpoint();
    // Only tombstones so far: the deleted task's words are still in the index's pages.
    expect(filesUnder(dir).some((f) => f.bytes.includes('cacilhas'))).toBe(true);
    store.close();
    const reopened = openStore(dir);
    expect(service(reopened).history.resumePendingPurge()).toBe(true);
    for (const file of filesUnder(dir)) expect(file.bytes.includes('cacilhas'), file.path).toBe(false);
    expect(service(reopened).history.resumePendingPurge()).toBe(false);
    reopened.close();
  });

  it('deletes everything, and keeps the other tasks when deleting some', async () => {
    const { store, history } = seeded();
    expect(await history.delete(['trip', 'not-there'])).toBe(1);
    expect(store.history.allIds().sort()).toEqual(['broken', 'invoice']);
    expect(store.toolCalls.queue().map((c) => c.id)).toEqual(['c-del']);
    expect(await history.deleteAll()).toBe(2);
    expect(store.history.allIds()).toEqual([]);
    expect(store.toolCalls.queue()).toEqual([]);
    expect(history.search('lisbon')).toEqual([]);
  });

  it('stops a running reply before deleting its task', async () => {
    const store = openStore(':memory:');
    seedHistory(store);
    const stopped: string[] = [];
    const history = new HistoryService({
      store,
      emit: () => {},
      appVersion: 'test',
      isRunning: (id) => id === 'broken',
      stopTask: async (id) => {
        stopped.push(id);
      },
    });
    await history.delete(['broken', 'trip']);
    expect(stopped).toEqual(['broken']);
  });

  it('applies a retention period by last activity, never to a running task', async () => {
    const { store, history } = seeded();
    store.tasks.create({ id: 'old-running', title: 'still going', now: NOW - 500 * DAY });
    store.tasks.setStatus('old-running', 'running', NOW - 500 * DAY);
    expect(history.retention()).toEqual({ days: null });
    expect(await history.applyRetention()).toBe(0);
    expect(await history.setRetention(90)).toEqual({ days: 90, deleted: 1 });
    expect(store.history.allIds().sort()).toEqual(['broken', 'invoice', 'old-running']);
    expect(history.retention()).toEqual({ days: 90 });
    expect(await history.setRetention(null)).toEqual({ days: null, deleted: 0 });
  });
});
