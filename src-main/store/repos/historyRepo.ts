import type {
  HistoryCursor,
  HistoryEntry,
  HistoryFilter,
  Message,
  TaskStatus,
  ToolCall,
} from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';
import { SNIPPET_MARKS, parseSnippet } from '../searchQuery.js';
import { toTask, type TaskRow } from './tasksRepo.js';

interface EntryRow extends TaskRow {
  tools: string | null;
  denied: number;
  failed: number;
}

interface CandidateRow {
  doc: number;
  rank: number;
  task_id: string;
  kind: 'message' | 'toolCall';
  ref_id: string;
  created_at: number;
}

interface HitTaskRow {
  id: string;
  title: string;
  status: TaskStatus;
  updated_at: number;
}

export interface RankedHit {
  taskId: string;
  title: string;
  status: TaskStatus;
  updatedAt: number;
  snippet: string;
  highlights: Array<[number, number]>;
  score: number;
  target: { kind: 'message' | 'toolCall'; id: string };
  matches: number;
}

/** Most matching messages and calls ranked per search, newest first: bounds the cost of a very common word. */
export const SEARCH_CANDIDATES = 2000;
/** A match loses half its recency weight every this many days, and never more than half in all. */
export const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 86_400_000;
const TOOL_SEPARATOR = '\u001f';

/** Relevance (bm25, more negative is better) weighted by age: a match from today counts in full, an old one half. */
export function scoreOf(bm25: number, createdAt: number, now: number): number {
  const ageDays = Math.max(0, now - createdAt) / DAY_MS;
  return -bm25 * (0.5 + 0.5 * 2 ** (-ageDays / RECENCY_HALF_LIFE_DAYS));
}

/** The WHERE terms (on tasks `t`) for a filter, with their parameters appended to `params`. */
function filterTerms(filter: HistoryFilter, params: unknown[]): string[] {
  const terms: string[] = [];
  if (filter.statuses?.length) {
    const own = filter.statuses.filter((s) => s !== 'waiting');
    const either: string[] = [];
    if (own.length) {
      either.push(`t.status IN (${own.map(() => '?').join(', ')})`);
      params.push(...own);
    }
    if (filter.statuses.includes('waiting')) {
      either.push(`EXISTS (SELECT 1 FROM tool_calls w WHERE w.task_id = t.id AND w.state = 'pending')`);
    }
    terms.push(`(${either.join(' OR ')})`);
  }
  if (filter.tool !== undefined) {
    terms.push('EXISTS (SELECT 1 FROM tool_calls u WHERE u.tool = ? AND u.task_id = t.id)');
    params.push(filter.tool);
  }
  if (filter.from !== undefined) {
    terms.push('t.updated_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    terms.push('t.updated_at < ?');
    params.push(filter.to);
  }
  return terms;
}

const where = (terms: string[]) => (terms.length ? `WHERE ${terms.join(' AND ')}` : '');

const toEntry = (row: EntryRow): HistoryEntry => ({
  ...toTask(row),
  tools: row.tools ? row.tools.split(TOOL_SEPARATOR) : [],
  deniedCalls: row.denied,
  failedCalls: row.failed,
});

/**
 * The history as a whole: filtered pages of tasks, full-text search, and the raw writes of an import and a
 * deletion. Filters change the SQL's shape, so statements are prepared once per shape and kept.
 */
export function createHistoryRepo(db: Db) {
  type Query = { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  const statements = new Map<string, Query>();
  const prepared = (sql: string): Query => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  const toolNames = db.prepare<[], { tool: string }>(
    'SELECT DISTINCT tool FROM tool_calls WHERE task_id IS NOT NULL ORDER BY tool',
  );
  const deleteTasks = db.prepare<[string]>('DELETE FROM tasks WHERE id IN (SELECT value FROM json_each(?))');
  const olderThan = db.prepare<[number], { id: string }>(
    `SELECT id FROM tasks WHERE updated_at < ? AND status <> 'running' ORDER BY updated_at`,
  );
  const allIds = db.prepare<[], { id: string }>('SELECT id FROM tasks ORDER BY created_at, id');
  const taskExists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM tasks WHERE id = ?');
  const insertTask = db.prepare(
    `INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES (@id, @title, @status, @createdAt, @updatedAt)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, task_id, seq, role, text, reasoning, state, created_at, prompt_tokens,
       completion_tokens, ttft_ms, tokens_per_second, reasoning_tokens, error, context_note, remote_json)
     VALUES (@id, @taskId, @seq, @role, @text, @reasoning, @state, @createdAt, @promptTokens, @completionTokens,
       @ttftMs, @tokensPerSecond, @reasoningTokens, @error, @contextNote, @remote)`,
  );
  const insertCall = db.prepare(
    `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, decision, decided_by,
       reason, taint_json, result_json, result_summary, error, undo_json, undo_state, created_at, decided_at, started_at,
       finished_at)
     VALUES (@id, @taskId, @tool, @args, @description, @risk, @gate, @state, @decision, @decidedBy, @reason, @taint,
       @result, @resultSummary, @error, NULL, @undo, @createdAt, @decidedAt, @startedAt, @finishedAt)`,
  );
  const insertAudit = db.prepare(
    `INSERT INTO audit_events (at, task_id, call_id, kind, actor, summary, detail_json)
     VALUES (@at, @taskId, @callId, @kind, @actor, @summary, @detail)`,
  );
  const hitTasks = db.prepare<[string], HitTaskRow>(
    'SELECT id, title, status, updated_at FROM tasks WHERE id IN (SELECT value FROM json_each(?))',
  );
  // One pass over the match, bounded by the hits' rowids, keeping only the hits: the unary + stops the planner
  // from turning `rowid IN (...)` into one FTS5 lookup per hit, each of which would set the whole query up
  // again (for a prefix without a prefix index, "please" *, that means merging every matching doclist).
  const snippets = db.prepare<[string, number, number, string], { doc: number; snippet: string }>(
    `SELECT rowid AS doc, snippet(search_fts, 0, '${SNIPPET_MARKS.open}', '${SNIPPET_MARKS.close}', '…', 20) AS snippet
     FROM search_fts WHERE search_fts MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (SELECT value FROM json_each(?))`,
  );

  return {
    /** One page, newest first (by last activity, then id), and how many tasks match the filter in all. */
    list(filter: HistoryFilter, after: HistoryCursor | undefined, limit: number) {
      const params: unknown[] = [];
      const terms = filterTerms(filter, params);
      const total = (prepared(`SELECT count(*) AS n FROM tasks t ${where(terms)}`).get(...params) as { n: number }).n;
      const pageParams = [...params];
      const pageTerms = [...terms];
      if (after) {
        pageTerms.push('(t.updated_at < ? OR (t.updated_at = ? AND t.id > ?))');
        pageParams.push(after.updatedAt, after.updatedAt, after.id);
      }
      const rows = prepared(
        `SELECT t.id, t.title, t.status, t.created_at, t.updated_at,
           (SELECT count(*) FROM messages m WHERE m.task_id = t.id) AS message_count,
           (SELECT group_concat(tool, '${TOOL_SEPARATOR}') FROM
              (SELECT DISTINCT c.tool FROM tool_calls c WHERE c.task_id = t.id ORDER BY c.tool)) AS tools,
           (SELECT count(*) FROM tool_calls p WHERE p.task_id = t.id AND p.state = 'pending') AS waiting_calls,
           (SELECT count(*) FROM tool_calls d WHERE d.task_id = t.id AND d.state IN ('denied', 'rejected', 'expired'))
             AS denied,
           (SELECT count(*) FROM tool_calls f WHERE f.task_id = t.id AND f.state IN ('failed', 'interrupted')) AS failed
         FROM tasks t ${where(pageTerms)} ORDER BY t.updated_at DESC, t.id LIMIT ?`,
      ).all(...pageParams, limit + 1) as EntryRow[];
      const entries = rows.slice(0, limit).map(toEntry);
      const lastEntry = entries.at(-1);
      const next = rows.length > limit && lastEntry ? { updatedAt: lastEntry.updatedAt, id: lastEntry.id } : null;
      return { entries, total, next };
    },

    /**
     * Ranks the newest SEARCH_CANDIDATES matching messages and calls by bm25 weighted by recency, keeps each
     * task's best match, and returns the best `limit` tasks with a snippet of that match.
     */
    search(ftsQuery: string, filter: HistoryFilter, limit: number, now: number): RankedHit[] {
      const params: unknown[] = [ftsQuery];
      const filters = filterTerms(filter, params);
      // Tasks are joined only to filter: a lookup by text id for each of up to SEARCH_CANDIDATES rows cost
      // more than the full-text match itself, so titles and times are read below for the few tasks that can
      // make the page. (Every search_docs row has its task: the foreign key deletes it with the task.)
      const candidates = prepared(
        `SELECT search_fts.rowid AS doc, bm25(search_fts) AS rank, d.task_id, d.kind, d.ref_id, d.created_at
         FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
         ${filters.length ? 'JOIN tasks t ON t.id = d.task_id' : ''}
         ${where(['search_fts MATCH ?', ...filters])} ORDER BY search_fts.rowid DESC LIMIT ${SEARCH_CANDIDATES}`,
      ).all(...params) as CandidateRow[];

      const best = new Map<string, { row: CandidateRow; score: number; matches: number }>();
      for (const row of candidates) {
        const score = scoreOf(row.rank, row.created_at, now);
        const seen = best.get(row.task_id);
        if (!seen) best.set(row.task_id, { row, score, matches: 1 });
        else {
          seen.matches++;
          if (score > seen.score) {
            seen.row = row;
            seen.score = score;
          }
        }
      }
      // Best score first, ties broken by the task's last activity: every task scoring at least the
      // limit-th best score is a contender, and only those are looked up.
      const ranked = [...best.values()].sort((a, b) => b.score - a.score);
      const last = ranked[limit - 1]?.score ?? -Infinity;
      const contenders = ranked.filter((e) => e.score >= last);
      const tasks = new Map(
        hitTasks.all(JSON.stringify(contenders.map((e) => e.row.task_id))).map((task) => [task.id, task]),
      );
      const top = contenders
        .flatMap((e) => {
          const task = tasks.get(e.row.task_id);
          return task ? [{ ...e, task }] : [];
        })
        .sort((a, b) => b.score - a.score || b.task.updated_at - a.task.updated_at)
        .slice(0, limit);
      const docs = top.map((t) => t.row.doc);
      const marked = new Map(
        docs.length === 0
          ? []
          : snippets
              .all(ftsQuery, Math.min(...docs), Math.max(...docs), JSON.stringify(docs))
              .map((r) => [r.doc, r.snippet]),
      );
      return top.map(({ row, task, score, matches }) => {
        const { text, highlights } = parseSnippet(marked.get(row.doc) ?? '');
        return {
          taskId: row.task_id,
          title: task.title,
          status: task.status,
          updatedAt: task.updated_at,
          snippet: text,
          highlights,
          score,
          target: { kind: row.kind, id: row.ref_id },
          matches,
        };
      });
    },

    toolNames(): string[] {
      return toolNames.all().map((r) => r.tool);
    },

    /** Deletes tasks and, by cascade and triggers, everything they own, search index entries included. */
    deleteTasks(ids: readonly string[]): number {
      return deleteTasks.run(JSON.stringify(ids)).changes;
    },
    /**
     * Deletes tasks leaving only tombstones in the search index (FTS5's secure-delete costs ~40 ms a task;
     * this, well under 1 ms): their words stay in the index's pages until `purgeIndex`. Run it inside the
     * caller's transaction; the setting is transactional too, so a crash cannot leave it off.
     */
    deleteTasksDeferringPurge(ids: readonly string[]): number {
      db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 0)`);
      const n = deleteTasks.run(JSON.stringify(ids)).changes;
      db.exec(`INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1)`);
      return n;
    },
    /** Rewrites the search index into one segment without deleted entries (~1 s for 100,000 messages). */
    purgeIndex(): void {
      db.exec(`INSERT INTO search_fts (search_fts) VALUES ('optimize')`);
    },
    /** Tasks whose last activity is before `cutoff`, oldest first; a running task is never one. */
    idsOlderThan(cutoff: number): string[] {
      return olderThan.all(cutoff).map((r) => r.id);
    },

    /** Every task id, oldest first. */
    allIds(): string[] {
      return allIds.all().map((r) => r.id);
    },
    hasTask(id: string): boolean {
      return (taskExists.get(id)?.n ?? 0) > 0;
    },
    /** Raw inserts for an import: rows arrive as exported, already made safe by the caller. */
    insertTask(task: { id: string; title: string; status: TaskStatus; createdAt: number; updatedAt: number }): void {
      insertTask.run(task);
    },
    insertMessage(message: Message): void {
      insertMessage.run({
        id: message.id,
        taskId: message.taskId,
        seq: message.seq,
        role: message.role,
        text: message.text,
        reasoning: message.reasoning,
        state: message.state,
        createdAt: message.createdAt,
        promptTokens: message.stats?.promptTokens ?? null,
        completionTokens: message.stats?.completionTokens ?? null,
        ttftMs: message.stats?.ttftMs ?? null,
        tokensPerSecond: message.stats?.tokensPerSecond ?? null,
        reasoningTokens: message.stats?.reasoningTokens ?? null,
        error: message.error,
        contextNote: message.contextNote ?? null,
        remote: message.remote ? JSON.stringify(message.remote) : null,
      });
    },
    insertToolCall(call: ToolCall): void {
      insertCall.run({
        id: call.id,
        taskId: call.taskId,
        tool: call.tool,
        args: JSON.stringify(call.args),
        description: JSON.stringify(call.description),
        risk: call.risk,
        gate: call.gate,
        state: call.state,
        decision: call.decision,
        decidedBy: call.decidedBy,
        reason: call.reason,
        taint: JSON.stringify(call.taint),
        result: call.result === null || call.result === undefined ? null : JSON.stringify(call.result),
        resultSummary: call.resultSummary ?? null,
        error: call.error,
        undo: call.undo,
        createdAt: call.createdAt,
        decidedAt: call.decidedAt,
        startedAt: call.startedAt,
        finishedAt: call.finishedAt,
      });
    },
    insertAudit(event: {
      at: number;
      taskId: string | null;
      callId: string | null;
      kind: string;
      actor: string;
      summary: string;
      detail: unknown;
    }): void {
      insertAudit.run({ ...event, detail: event.detail === null ? null : JSON.stringify(event.detail) });
    },
  };
}
export type HistoryRepo = ReturnType<typeof createHistoryRepo>;
