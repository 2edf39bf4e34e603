import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createMessagesRepo } from '../repos/messagesRepo.js';
import { openStore } from '../store.js';
import { MIGRATIONS } from './index.js';

describe('migration 011 (reasoning tokens)', () => {
  it('leaves the count unknown on replies a version 10 database holds, and refuses a negative one', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 11),
      0,
    );
    db.prepare(`INSERT INTO tasks VALUES ('t', 'Trip', 'completed', 1, 1)`).run();
    db.prepare(
      `INSERT INTO messages (id, task_id, seq, role, text, reasoning, state, created_at, prompt_tokens,
         completion_tokens, ttft_ms, tokens_per_second)
       VALUES ('m1', 't', 0, 'assistant', 'hello', 'hmm', 'complete', 1, 30, 12, 80, 25)`,
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 11),
      10,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(11);
    // The repository is today's: it reads the latest schema, which the later migrations complete.
    migrate(db, MIGRATIONS, 11);

    const old = createMessagesRepo(db).get('m1');
    expect(old?.stats).toEqual({ promptTokens: 30, completionTokens: 12, ttftMs: 80, tokensPerSecond: 25 });
    expect(old?.stats).not.toHaveProperty('reasoningTokens');
    expect(() => db.prepare(`UPDATE messages SET reasoning_tokens = -1 WHERE id = 'm1'`).run()).toThrow(/CHECK/);
    db.close();
  });
});

describe('reasoning tokens in the store', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('survive closing and opening the data folder again, a reply with no thought included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'homebody-reasoning-'));
    dirs.push(dir);
    const first = openStore(dir);
    first.tasks.create({ id: 't', title: 'Plan', now: 1 });
    for (const id of ['thought', 'plain', 'old']) {
      first.messages.insert({ id, taskId: 't', role: 'assistant', text: '', state: 'streaming', now: 2 });
    }
    first.messages.append('thought', '', 'Let me see what the calendar says.');
    first.messages.finish(
      'thought',
      'complete',
      { promptTokens: 40, completionTokens: 212, ttftMs: 90, tokensPerSecond: 30, reasoningTokens: 212 },
      null,
    );
    first.messages.append('plain', 'Done.', '');
    first.messages.finish(
      'plain',
      'complete',
      { promptTokens: 40, completionTokens: 3, ttftMs: 90, tokensPerSecond: 30, reasoningTokens: 0 },
      null,
    );
    first.messages.finish(
      'old',
      'complete',
      { promptTokens: 1, completionTokens: 1, ttftMs: null, tokensPerSecond: null },
      null,
    );
    first.close();

    const again = openStore(dir);
    const byId = new Map(again.messages.listForTask('t').map((m) => [m.id, m]));
    expect(byId.get('thought')).toMatchObject({ text: '', reasoning: 'Let me see what the calendar says.' });
    expect(byId.get('thought')?.stats?.reasoningTokens).toBe(212);
    expect(byId.get('plain')?.stats?.reasoningTokens).toBe(0);
    expect(byId.get('old')?.stats).not.toHaveProperty('reasoningTokens');
    again.close();
  });
});
