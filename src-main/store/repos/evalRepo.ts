import type {
  EvalGate,
  EvalModelResult,
  EvalRun,
  EvalRunStatus,
  EvalRunSummary,
} from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

interface RunRow {
  id: string;
  started_at: number;
  finished_at: number | null;
  status: EvalRunStatus;
  suites: string;
  models: string;
  total: number;
  results: string;
  error: string | null;
}

interface CaseRow {
  id: string;
  created_at: number;
  task_id: string | null;
  body: string;
}

export interface RecordedCaseRow {
  readonly id: string;
  readonly createdAt: number;
  readonly taskId: string | null;
  /** The case as Homebody's case JSON (evaluated against eval/evalCase.ts when read). */
  readonly body: unknown;
}

function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

function toSummary(row: RunRow): EvalRunSummary {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    suites: parseJson(row.suites, []) as string[],
    models: parseJson(row.models, []) as string[],
    total: row.total,
    ...(row.error ? { error: row.error } : {}),
  };
}

/** Evaluation runs, recorded cases and gates. */
export function createEvalRepo(db: Db) {
  const insertRun = db.prepare(
    `INSERT INTO eval_runs (id, started_at, finished_at, status, suites, models, total, results, error)
     VALUES (@id, @startedAt, NULL, 'running', @suites, @models, @total, '[]', NULL)`,
  );
  const saveResults = db.prepare<[string, string]>('UPDATE eval_runs SET results = ? WHERE id = ?');
  const finish = db.prepare<[number, EvalRunStatus, string | null, string]>(
    'UPDATE eval_runs SET finished_at = ?, status = ?, error = ? WHERE id = ?',
  );
  const getRun = db.prepare<[string], RunRow>('SELECT * FROM eval_runs WHERE id = ?');
  const listRuns = db.prepare<[], RunRow>(
    `SELECT id, started_at, finished_at, status, suites, models, total, '[]' AS results, error
     FROM eval_runs ORDER BY started_at DESC, rowid DESC`,
  );
  const deleteRun = db.prepare<[string]>('DELETE FROM eval_runs WHERE id = ?');
  const interrupt = db.prepare<[number]>(
    `UPDATE eval_runs SET status = 'interrupted', finished_at = ?,
       error = 'Homebody stopped while this run was going; the models finished before are kept.'
     WHERE status = 'running'`,
  );
  const finishedFor = db.prepare<[], RunRow>(
    `SELECT * FROM eval_runs WHERE status IN ('done', 'cancelled', 'interrupted') ORDER BY started_at DESC, rowid DESC`,
  );
  const insertCase = db.prepare<[string, number, string | null, string]>(
    'INSERT INTO eval_cases (id, created_at, task_id, body) VALUES (?, ?, ?, ?)',
  );
  const listCases = db.prepare<[], CaseRow>('SELECT * FROM eval_cases ORDER BY created_at, rowid');
  const upsertGate = db.prepare<[string, number]>(
    'INSERT INTO eval_gates (tool, threshold) VALUES (?, ?) ON CONFLICT (tool) DO UPDATE SET threshold = excluded.threshold',
  );
  const deleteGate = db.prepare<[string]>('DELETE FROM eval_gates WHERE tool = ?');
  const listGates = db.prepare<[], EvalGate>('SELECT tool, threshold FROM eval_gates ORDER BY tool');
  return {
    startRun(run: { id: string; startedAt: number; suites: string[]; models: string[]; total: number }): void {
      insertRun.run({ ...run, suites: JSON.stringify(run.suites), models: JSON.stringify(run.models) });
    },
    /** Keeps the models finished so far, so a crash loses only the model that was running. */
    saveResults(id: string, results: readonly EvalModelResult[]): void {
      saveResults.run(JSON.stringify(results), id);
    },
    finishRun(id: string, at: number, status: EvalRunStatus, error?: string): void {
      finish.run(at, status, error ?? null, id);
    },
    run(id: string): EvalRun | undefined {
      const row = getRun.get(id);
      return row ? { ...toSummary(row), results: parseJson(row.results, []) as EvalModelResult[] } : undefined;
    },
    runs(): EvalRunSummary[] {
      return listRuns.all().map(toSummary);
    },
    deleteRun(id: string): boolean {
      return deleteRun.run(id).changes > 0;
    },
    /** At start: a run still marked running was cut short by a crash or a quit. */
    markInterrupted(at: number): number {
      return interrupt.run(at).changes;
    },
    /** Finished runs, newest first, with their results: what the gate reads the latest score from. */
    finishedRuns(): EvalRun[] {
      return finishedFor
        .all()
        .map((row) => ({ ...toSummary(row), results: parseJson(row.results, []) as EvalModelResult[] }));
    },
    addCase(id: string, createdAt: number, taskId: string | null, body: unknown): void {
      insertCase.run(id, createdAt, taskId, JSON.stringify(body));
    },
    cases(): RecordedCaseRow[] {
      return listCases.all().map((row) => ({
        id: row.id,
        createdAt: row.created_at,
        taskId: row.task_id,
        body: parseJson(row.body, null),
      }));
    },
    setGate(tool: string, threshold: number | null): void {
      if (threshold === null) deleteGate.run(tool);
      else upsertGate.run(tool, threshold);
    },
    gates(): EvalGate[] {
      return listGates.all();
    },
  };
}

export type EvalRepo = ReturnType<typeof createEvalRepo>;
