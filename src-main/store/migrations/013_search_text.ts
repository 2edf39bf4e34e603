import type { Migration } from './migration.js';

/**
 * The text a tool call gives search, in words a person reads: what it was (its description's title and summary),
 * what it did (its line for people, migration 012), then the text values of its arguments, result and error, with no
 * keys and no numbers or booleans. Migration 003 indexed keys and every leaf, so a snippet read
 * "overwrite 0 /tmp/docs/hello.txt 1 20"; now it reads "Write a text file · Write /tmp/docs/hello.txt · Created …".
 */
const TOOL_CALL_TEXT = (
  c: string,
) => `coalesce(json_extract(${c}.description_json, '$.title'), ${c}.tool) || char(10) ||
  coalesce(json_extract(${c}.description_json, '$.summary'), '') || char(10) ||
  coalesce(${c}.result_summary, '') || char(10) ||
  ${c}.tool || char(10) ||
  coalesce((SELECT group_concat(atom, char(10)) FROM json_tree(${c}.args_json) WHERE type = 'text'), '') || char(10) ||
  coalesce(substr((SELECT group_concat(atom, char(10)) FROM json_tree(coalesce(${c}.result_json, 'null'))
                   WHERE type = 'text'), 1, 20000), '') || char(10) ||
  coalesce(${c}.error, '')`;

const UPSERT = `INSERT INTO search_docs (task_id, kind, ref_id, created_at, body)
  VALUES (new.task_id, 'toolCall', new.id, new.created_at, ${TOOL_CALL_TEXT('new')})
  ON CONFLICT (kind, ref_id) DO UPDATE SET body = excluded.body;`;

export const migration013: Migration = {
  version: 13,
  name: 'search_text',
  up: `
    DROP TRIGGER tool_calls_index_insert;
    DROP TRIGGER tool_calls_index_update;
    CREATE TRIGGER tool_calls_index_insert AFTER INSERT ON tool_calls WHEN new.task_id IS NOT NULL BEGIN
      ${UPSERT}
    END;
    CREATE TRIGGER tool_calls_index_update
      AFTER UPDATE OF args_json, description_json, result_json, result_summary, error ON tool_calls
      WHEN new.task_id IS NOT NULL BEGIN
      ${UPSERT}
    END;
    -- Every call indexed before, in the new words (search_docs' own trigger updates the FTS index).
    UPDATE search_docs SET body = (SELECT ${TOOL_CALL_TEXT('c')} FROM tool_calls c WHERE c.id = search_docs.ref_id)
      WHERE kind = 'toolCall' AND EXISTS (SELECT 1 FROM tool_calls c WHERE c.id = search_docs.ref_id);
  `,
};
