import {
  HISTORY_EXPORT_FORMAT,
  HISTORY_EXPORT_VERSION,
  HistoryExportSchema,
  HomebodyError,
  type ExportedTask,
  type HistoryExport,
  type Message,
  type ToolCall,
  type ToolCallState,
} from '../../src-shared/contract/index.js';

export function toJsonExport(tasks: ExportedTask[], exportedAt: number, appVersion: string): HistoryExport {
  return {
    format: HISTORY_EXPORT_FORMAT,
    version: HISTORY_EXPORT_VERSION,
    exportedAt,
    app: { name: 'Homebody', version: appVersion },
    tasks,
  };
}

/** Reads a JSON export, with an error that says what is wrong with the file rather than a parser's message. */
export function parseExport(content: string): HistoryExport {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (error) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `This file is not a Homebody history export: it is not valid JSON (${(error as Error).message}).`,
    );
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== HISTORY_EXPORT_FORMAT) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      'This file is not a Homebody history export (its "format" is not "homebody-history"). Markdown exports cannot be imported; use a JSON export.',
    );
  }
  const version = (raw as { version?: unknown }).version;
  if (typeof version === 'number' && version > HISTORY_EXPORT_VERSION) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `This export was written by a newer version of Homebody (format version ${version}); update Homebody to import it.`,
    );
  }
  const parsed = HistoryExportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the file';
    throw new HomebodyError(
      'INVALID_REQUEST',
      `This history export is damaged: ${where}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const ids = new Set<string>();
  for (const t of parsed.data.tasks) {
    if (ids.has(t.task.id)) {
      throw new HomebodyError('INVALID_REQUEST', `This history export is damaged: task ${t.task.id} appears twice.`);
    }
    ids.add(t.task.id);
  }
  return parsed.data;
}

/** States that mean "not finished": an imported call in one of them must never run, or be offered to run, here. */
const UNFINISHED: ReadonlySet<ToolCallState> = new Set(['pending', 'approved', 'executing', 'interrupted']);

/**
 * An exported task made safe to insert: it belongs to itself (ids of its rows point at it), nothing in it
 * is left running or waiting (an imported call can never be approved and run on this machine), undo records
 * stay behind (they name files on the machine that made them), and message order is renumbered densely.
 */
export function prepareForImport(exported: ExportedTask): ExportedTask {
  const taskId = exported.task.id;
  const messages: Message[] = [...exported.messages]
    .sort((a, b) => a.seq - b.seq)
    .map((m, seq) => ({ ...m, taskId, seq, state: m.state === 'streaming' ? 'interrupted' : m.state }));
  const toolCalls: ToolCall[] = exported.toolCalls.map((c) =>
    UNFINISHED.has(c.state)
      ? // Only the state changes: the searchable text (arguments, result, error) stays as exported, so an
        // import finds exactly what the original found.
        { ...c, taskId, state: 'expired', undo: null }
      : { ...c, taskId, undo: c.undo === 'available' ? null : c.undo },
  );
  return {
    task: { ...exported.task, status: exported.task.status === 'running' ? 'stopped' : exported.task.status },
    messages,
    toolCalls,
    audit: exported.audit.map((e) => ({ ...e, taskId })),
  };
}
