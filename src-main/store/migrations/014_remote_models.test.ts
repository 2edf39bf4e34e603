import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db.js';
import { createEgressRepo } from '../repos/egressRepo.js';
import { MIGRATIONS } from './index.js';

const EVENT = {
  at: 1,
  source: 'model download: X',
  feature: 'model-download' as const,
  url: 'https://huggingface.co/x.gguf',
  host: 'huggingface.co',
  port: 443,
  allowed: true,
  reason: 'online',
  bytes: 10,
  via: 'guard' as const,
};

describe('migration 014 (remote models)', () => {
  it('keeps the ledger written before it as it was, and counts bytes sent and what a request carried after', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 14),
      0,
    );
    db.prepare(
      `INSERT INTO egress_events (at, source, feature, url, host, port, allowed, reason, bytes, via)
       VALUES (1, 'old', 'web', 'https://a.example/', 'a.example', 443, 1, 'online', 5, 'guard')`,
    ).run();
    migrate(db, MIGRATIONS, 13);
    const ledger = createEgressRepo(db);
    const old = ledger.page({ limit: 10 }).events[0]!;
    expect(old).toMatchObject({ source: 'old', bytes: 5 });
    expect(old).not.toHaveProperty('sent');
    expect(old).not.toHaveProperty('carried');

    const download = ledger.append(EVENT);
    expect(ledger.setBytes(download.id, 20)).not.toHaveProperty('sent');
    const remote = ledger.append({
      ...EVENT,
      source: 'model on the test node',
      feature: 'remote-model',
      url: 'http://127.0.0.1:8080/completion',
      host: '127.0.0.1',
      port: 8080,
      bytes: 0,
      sent: 0,
      carried: 'the conversation, 1 tool result',
    });
    expect(ledger.setBytes(remote.id, 300, 1200)).toMatchObject({ bytes: 300, sent: 1200 });
    // A later update of the bytes received alone keeps the bytes sent.
    expect(ledger.setBytes(remote.id, 400)).toMatchObject({
      bytes: 400,
      sent: 1200,
      carried: 'the conversation, 1 tool result',
    });
  });
});
