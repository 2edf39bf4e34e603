import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createMessagesRepo } from '../repos/messagesRepo.js';
import { MIGRATIONS } from './index.js';

describe('migration 005 (context note)', () => {
  it('adds an empty note to the replies a database already holds, and keeps a note set later', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 5),
      0,
    );
    db.prepare(`INSERT INTO tasks VALUES ('t', 'Trip', 'completed', 1, 1)`).run();
    db.prepare(
      `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m1', 't', 0, 'assistant', 'hello', 'complete', 1)`,
    ).run();
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 5),
      4,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    // The repository is today's: it reads the latest schema, which the later migrations complete.
    migrate(db, MIGRATIONS, 5);

    const messages = createMessagesRepo(db);
    const before = messages.get('m1');
    expect(before?.text).toBe('hello');
    expect(before).not.toHaveProperty('contextNote');
    messages.setContextNote('m1', '4 earlier messages were left out to fit the model’s context.');
    expect(messages.get('m1')?.contextNote).toBe('4 earlier messages were left out to fit the model’s context.');
    db.close();
  });
});
