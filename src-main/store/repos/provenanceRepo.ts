import type { Db } from '../db.js';

/**
 * Untrusted labels on content that outlives a task: a file, or a pack's item (a note, an event, a reminder), by key
 * (`file:` + absolute path, `note:` + file name, ...). See migration 009.
 */
export function createProvenanceRepo(db: Db) {
  const add = db.prepare<[string, string, string | null, string | null, number]>(
    'INSERT OR IGNORE INTO provenance_labels (key, source, task_id, call_id, at) VALUES (?, ?, ?, ?, ?)',
  );
  const sources = db.prepare<[string], { source: string }>(
    `SELECT DISTINCT source FROM provenance_labels WHERE key IN (SELECT value FROM json_each(?)) ORDER BY source`,
  );
  return {
    /** Labels `key` with each source (once each). */
    label(key: string, labels: readonly string[], taskId: string | null, callId: string | null, now: number): void {
      for (const source of labels) add.run(key, source, taskId, callId, now);
    },
    /** The sources labelling any of `keys` (an item and the folders holding it). */
    sourcesOf(keys: readonly string[]): string[] {
      if (keys.length === 0) return [];
      return sources.all(JSON.stringify(keys)).map((r) => r.source);
    },
  };
}
export type ProvenanceRepo = ReturnType<typeof createProvenanceRepo>;
