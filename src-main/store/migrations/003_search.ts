import type { Migration } from './migration.js';

/** The text a message contributes to search: its reply or question, never its reasoning. */
const MESSAGE_BODY = (m: string) => `${m}.text`;

/**
 * The text a tool call contributes to search: the tool's name, its arguments (keys and values) and the
 * leaf values of its result and error. JSON is flattened in SQL so escapes (\\n, \\") never glue words together.
 */
const TOOL_CALL_BODY = (c: string) => `${c}.tool || char(10) ||
  coalesce((SELECT group_concat(CASE WHEN typeof(key) = 'text' THEN key || ' ' ELSE '' END || coalesce(atom, ''), char(10))
            FROM json_tree(${c}.args_json) WHERE atom IS NOT NULL), '') || char(10) ||
  coalesce(substr((SELECT group_concat(atom, char(10)) FROM json_tree(coalesce(${c}.result_json, 'null'))
                   WHERE atom IS NOT NULL), 1, 20000), '') || char(10) ||
  coalesce(${c}.error, '')`;

const upsertDoc = (kind: 'message' | 'toolCall', row: string, body: string, createdAt: string) => `
  INSERT INTO search_docs (task_id, kind, ref_id, created_at, body)
  VALUES (${row}.task_id, '${kind}', ${row}.id, ${createdAt}, ${body})
  ON CONFLICT (kind, ref_id) DO UPDATE SET body = excluded.body;`;

/**
 * Full-text search over messages and tool calls. `search_docs` holds one row per searchable message or call
 * (its own integer key, so the index never depends on another table's implicit rowid); `search_fts` is an
 * external-content FTS5 index over it. Triggers keep both in step inside the writing transaction, whoever
 * writes. A reply is indexed once it stops streaming, so streamed appends cost no index work.
 *
 * FTS5's secure-delete removes a deleted row's terms from the index itself (by default FTS5 only adds a
 * tombstone and the words stay in the file until a merge): deleting a task must delete its words.
 */
export const migration003: Migration = {
  version: 3,
  name: 'search',
  up: `
    CREATE TABLE search_docs (
      id INTEGER PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('message', 'toolCall')),
      ref_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (kind, ref_id)
    ) STRICT;
    CREATE INDEX search_docs_by_task ON search_docs (task_id);

    CREATE VIRTUAL TABLE search_fts USING fts5 (
      body,
      content = 'search_docs',
      content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    );
    INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);

    CREATE TRIGGER search_docs_after_insert AFTER INSERT ON search_docs BEGIN
      INSERT INTO search_fts (rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER search_docs_after_delete AFTER DELETE ON search_docs BEGIN
      INSERT INTO search_fts (search_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    CREATE TRIGGER search_docs_after_update AFTER UPDATE OF body ON search_docs BEGIN
      INSERT INTO search_fts (search_fts, rowid, body) VALUES ('delete', old.id, old.body);
      INSERT INTO search_fts (rowid, body) VALUES (new.id, new.body);
    END;

    CREATE TRIGGER messages_index_insert AFTER INSERT ON messages WHEN new.state <> 'streaming' BEGIN
      ${upsertDoc('message', 'new', MESSAGE_BODY('new'), 'new.created_at')}
    END;
    CREATE TRIGGER messages_index_update AFTER UPDATE OF text, state ON messages WHEN new.state <> 'streaming' BEGIN
      ${upsertDoc('message', 'new', MESSAGE_BODY('new'), 'new.created_at')}
    END;
    CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN
      DELETE FROM search_docs WHERE kind = 'message' AND ref_id = old.id;
    END;

    CREATE TRIGGER tool_calls_index_insert AFTER INSERT ON tool_calls WHEN new.task_id IS NOT NULL BEGIN
      ${upsertDoc('toolCall', 'new', TOOL_CALL_BODY('new'), 'new.created_at')}
    END;
    CREATE TRIGGER tool_calls_index_update AFTER UPDATE OF args_json, result_json, error ON tool_calls
      WHEN new.task_id IS NOT NULL BEGIN
      ${upsertDoc('toolCall', 'new', TOOL_CALL_BODY('new'), 'new.created_at')}
    END;
    CREATE TRIGGER tool_calls_index_delete AFTER DELETE ON tool_calls BEGIN
      DELETE FROM search_docs WHERE kind = 'toolCall' AND ref_id = old.id;
    END;

    INSERT INTO search_docs (task_id, kind, ref_id, created_at, body)
      SELECT m.task_id, 'message', m.id, m.created_at, ${MESSAGE_BODY('m')} FROM messages m
      WHERE m.state <> 'streaming' ORDER BY m.created_at, m.seq;
    INSERT INTO search_docs (task_id, kind, ref_id, created_at, body)
      SELECT c.task_id, 'toolCall', c.id, c.created_at, ${TOOL_CALL_BODY('c')} FROM tool_calls c
      WHERE c.task_id IS NOT NULL ORDER BY c.created_at;

    -- The history's filters: by tool used, and by calls waiting for a decision.
    CREATE INDEX tool_calls_by_tool ON tool_calls (tool, task_id);
  `,
};
