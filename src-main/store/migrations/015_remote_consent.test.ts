import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createMessagesRepo } from '../repos/messagesRepo.js';
import { createTasksRepo } from '../repos/tasksRepo.js';
import { MIGRATIONS } from './index.js';

function migratedFrom14() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 15),
    0,
  );
  db.prepare(`INSERT INTO tasks VALUES ('t', 'Trip', 'completed', 1, 1)`).run();
  db.prepare(
    `INSERT INTO messages (id, task_id, seq, role, text, state, created_at) VALUES ('m1', 't', 0, 'assistant', 'hello', 'complete', 1)`,
  ).run();
  migrate(db, MIGRATIONS, 14);
  return db;
}

describe('migration 015 (remote consent and marks)', () => {
  it('leaves the replies a database holds unmarked, and no task allowed to use any node', () => {
    const db = migratedFrom14();
    expect(createMessagesRepo(db).get('m1')).not.toHaveProperty('remote');
    expect(createTasksRepo(db).remoteAllowed('t', 'http://192.168.1.20:8080')).toBe(false);
    db.close();
  });

  it("keeps a task's consent per node, and deletes it with the task", () => {
    const db = migratedFrom14();
    const tasks = createTasksRepo(db);
    tasks.allowRemote('t', 'http://192.168.1.20:8080', 5);
    tasks.allowRemote('t', 'http://192.168.1.20:8080', 6); // twice is once
    expect(tasks.remoteAllowed('t', 'http://192.168.1.20:8080')).toBe(true);
    expect(tasks.remoteAllowed('t', 'http://192.168.1.21:8080')).toBe(false);
    db.prepare(`DELETE FROM tasks WHERE id = 't'`).run();
    expect(db.prepare('SELECT count(*) AS n FROM task_remote_consents').get()).toEqual({ n: 0 });
    db.close();
  });

  it('an altered mark reads as none rather than breaking the task', () => {
    const db = migratedFrom14();
    const messages = createMessagesRepo(db);
    messages.setRemote('m1', { url: 'http://h:1', model: 'm', label: 'h' });
    expect(messages.get('m1')?.remote).toEqual({ url: 'http://h:1', model: 'm', label: 'h' });
    db.prepare(`UPDATE messages SET remote_json = '{"url": 5}' WHERE id = 'm1'`).run();
    expect(messages.get('m1')).not.toHaveProperty('remote');
    db.prepare(`UPDATE messages SET remote_json = 'not json' WHERE id = 'm1'`).run();
    expect(messages.get('m1')).not.toHaveProperty('remote');
    db.close();
  });
});
