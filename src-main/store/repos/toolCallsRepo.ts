import {
  canMove,
  type CallPath,
  type Decision,
  type DecisionBasis,
  type Gate,
  type Risk,
  type ToolCall,
  type ToolCallState,
  type ToolDescriptionView,
} from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

interface ToolCallRow {
  id: string;
  task_id: string | null;
  tool: string;
  args_json: string;
  description_json: string;
  risk: Risk;
  gate: Gate;
  state: ToolCallState;
  decision: Decision | null;
  decided_by: 'policy' | 'user' | 'cli' | null;
  reason: string | null;
  taint_json: string | null;
  paths_json: string | null;
  basis_json: string | null;
  result_json: string | null;
  /** Absent in a row read before migration 12 ran (never, once migrated). */
  result_summary?: string | null;
  error: string | null;
  undo_json: string | null;
  undo_state: 'available' | 'undone' | 'failed' | null;
  created_at: number;
  decided_at: number | null;
  started_at: number | null;
  finished_at: number | null;
}

const parse = <T>(json: string | null, fallback: T): T => (json === null ? fallback : (JSON.parse(json) as T));

const toCall = (row: ToolCallRow): ToolCall => ({
  id: row.id,
  taskId: row.task_id,
  tool: row.tool,
  args: parse<Record<string, unknown>>(row.args_json, {}),
  description: parse<ToolDescriptionView>(row.description_json, { title: row.tool, summary: '', details: [] }),
  risk: row.risk,
  gate: row.gate,
  state: row.state,
  decision: row.decision,
  decidedBy: row.decided_by,
  reason: row.reason,
  taint: parse<string[]>(row.taint_json, []),
  paths: parse<CallPath[]>(row.paths_json, []),
  basis: parse<DecisionBasis | null>(row.basis_json, null),
  result: parse<unknown>(row.result_json, null),
  resultSummary: row.result_summary ?? null,
  error: row.error,
  undo: row.undo_state,
  createdAt: row.created_at,
  decidedAt: row.decided_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

export interface NewToolCall {
  readonly id: string;
  readonly taskId: string | null;
  readonly tool: string;
  readonly args: unknown;
  readonly description: ToolDescriptionView;
  readonly risk: Risk;
  readonly gate: Gate;
  readonly state: ToolCallState;
  readonly taint: readonly string[];
  readonly paths?: readonly CallPath[];
  readonly basis?: DecisionBasis | null;
  /** For a call recorded as rejected: why. */
  readonly error?: string | null;
  readonly now: number;
}

/** A state change the transition table does not allow is a bug in the caller, never something to store. */
function assertMove(from: ToolCallState, to: ToolCallState): void {
  if (!canMove(from, to)) throw new Error(`a tool call cannot go from ${from} to ${to}`);
}

/**
 * Tool calls and their life cycle. Every state change is a compare-and-set on
 * the current state, so two approvals of one call, or an approval racing a
 * crash recovery, can move it only once: an approved call runs at most once.
 */
export function createToolCallsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO tool_calls (id, task_id, tool, args_json, description_json, risk, gate, state, taint_json, paths_json,
       basis_json, error, created_at, finished_at)
     VALUES (@id, @taskId, @tool, @args, @description, @risk, @gate, @state, @taint, @paths, @basis, @error, @now,
       CASE WHEN @state = 'rejected' THEN @now ELSE NULL END)`,
  );
  const byId = db.prepare<[string], ToolCallRow>('SELECT * FROM tool_calls WHERE id = ?');
  const decide = db.prepare(
    `UPDATE tool_calls SET state = @to, decision = @decision, decided_by = @by, reason = @reason, decided_at = @now,
       args_json = coalesce(@args, args_json), description_json = coalesce(@description, description_json),
       paths_json = coalesce(@paths, paths_json), basis_json = coalesce(@basis, basis_json)
     WHERE id = @id AND state = @from`,
  );
  const start = db.prepare(
    `UPDATE tool_calls SET state = 'executing', started_at = ? WHERE id = ? AND state = 'approved'`,
  );
  const finish = db.prepare(
    `UPDATE tool_calls SET state = @state, result_json = @result, result_summary = @summary, error = @error,
       undo_json = @undo,
       undo_state = CASE WHEN @undo IS NULL THEN NULL ELSE 'available' END, finished_at = @now
     WHERE id = @id AND state = 'executing'`,
  );
  const setUndo = db.prepare(`UPDATE tool_calls SET undo_state = ? WHERE id = ? AND undo_state = 'available'`);
  const undoRecord = db.prepare<[string], { undo_json: string | null }>(
    'SELECT undo_json FROM tool_calls WHERE id = ?',
  );
  const pendingQueue = db.prepare<[], ToolCallRow>(
    `SELECT * FROM tool_calls WHERE gate = 'queue' AND state IN ('pending', 'interrupted') ORDER BY created_at, id`,
  );
  const forTask = db.prepare<[string], ToolCallRow>(
    'SELECT * FROM tool_calls WHERE task_id = ? ORDER BY created_at, id',
  );
  const recent = db.prepare<[number], ToolCallRow>('SELECT * FROM tool_calls ORDER BY created_at DESC, id LIMIT ?');
  const executing = db.prepare<[], ToolCallRow>(
    `SELECT * FROM tool_calls WHERE state = 'executing' ORDER BY created_at, id`,
  );
  const interruptExecuting = db.prepare(
    `UPDATE tool_calls SET state = 'interrupted', error = 'Homebody stopped while this ran; it was not run again.',
       finished_at = ? WHERE state = 'executing' RETURNING id`,
  );
  const expirePrompts = db.prepare(
    `UPDATE tool_calls SET state = 'expired', finished_at = ? WHERE gate = 'prompt' AND state IN ('pending', 'approved')
     RETURNING id`,
  );

  return {
    insert(call: NewToolCall): ToolCall {
      insert.run({
        id: call.id,
        taskId: call.taskId,
        tool: call.tool,
        args: JSON.stringify(call.args ?? null),
        description: JSON.stringify(call.description),
        risk: call.risk,
        gate: call.gate,
        state: call.state,
        taint: JSON.stringify(call.taint),
        paths: JSON.stringify(call.paths ?? []),
        basis: call.basis ? JSON.stringify(call.basis) : null,
        error: call.error ?? null,
        now: call.now,
      });
      return this.get(call.id)!;
    },
    get(id: string): ToolCall | undefined {
      const row = byId.get(id);
      return row ? toCall(row) : undefined;
    },
    /** Moves a call from one state to another with the decision that moved it; false if it was not in `from`. */
    decide(
      id: string,
      from: ToolCallState,
      to: ToolCallState,
      decision: {
        decision: Decision;
        by: 'policy' | 'user' | 'cli';
        reason?: string | null;
        now: number;
        basis?: DecisionBasis;
      },
      edited?: { args: unknown; description: ToolDescriptionView; paths: readonly CallPath[] },
    ): boolean {
      assertMove(from, to);
      return (
        decide.run({
          id,
          from,
          to,
          decision: decision.decision,
          by: decision.by,
          reason: decision.reason ?? null,
          now: decision.now,
          args: edited ? JSON.stringify(edited.args) : null,
          description: edited ? JSON.stringify(edited.description) : null,
          paths: edited ? JSON.stringify(edited.paths) : null,
          basis: decision.basis ? JSON.stringify(decision.basis) : null,
        }).changes === 1
      );
    },
    /** approved → executing; false when someone else already started (or finished) it. */
    start(id: string, now: number): boolean {
      return start.run(now, id).changes === 1;
    },
    finish(
      id: string,
      outcome: {
        state: 'done' | 'failed';
        result?: unknown;
        /** The result in one line for people (the tool's `summarize`). */
        summary?: string | null;
        error?: string | null;
        undo?: unknown;
        now: number;
      },
    ): boolean {
      assertMove('executing', outcome.state);
      return (
        finish.run({
          id,
          state: outcome.state,
          result: outcome.result === undefined ? null : JSON.stringify(outcome.result),
          summary: outcome.summary ?? null,
          error: outcome.error ?? null,
          undo: outcome.undo === undefined ? null : JSON.stringify(outcome.undo),
          now: outcome.now,
        }).changes === 1
      );
    },
    undoRecord(id: string): unknown {
      const row = undoRecord.get(id);
      return row?.undo_json ? (JSON.parse(row.undo_json) as unknown) : undefined;
    },
    markUndo(id: string, state: 'undone' | 'failed'): boolean {
      return setUndo.run(state, id).changes === 1;
    },
    /** The approval queue: calls waiting at the queue gate, and interrupted ones awaiting review. */
    queue(): ToolCall[] {
      return pendingQueue.all().map(toCall);
    },
    listForTask(taskId: string): ToolCall[] {
      return forTask.all(taskId).map(toCall);
    },
    recent(limit: number): ToolCall[] {
      return recent.all(limit).map(toCall);
    },
    /** Calls running now: their effect may be happening as we speak. */
    executing(): ToolCall[] {
      return executing.all().map(toCall);
    },
    /** After a crash: calls that were running become interrupted, never re-run; chat prompts lapse. */
    recoverAfterCrash(now: number): { interrupted: string[]; expired: string[] } {
      const interrupted = (interruptExecuting.all(now) as Array<{ id: string }>).map((r) => r.id);
      const expired = (expirePrompts.all(now) as Array<{ id: string }>).map((r) => r.id);
      return { interrupted, expired };
    },
  };
}
export type ToolCallsRepo = ReturnType<typeof createToolCallsRepo>;
