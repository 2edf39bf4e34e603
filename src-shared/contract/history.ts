import { z } from 'zod';
import { MessageSchema, TaskStatusSchema, TaskSummarySchema } from './chat.js';
import { AuditEventSchema, ToolCallSchema } from './tools.js';
import { MAX_IMPORT_BYTES } from './transport.js';

const Id = z.string().min(1).max(64);

/** A task's status as the history filters it: its own status, or `waiting` while a call of it awaits a decision. */
export const HistoryStatusSchema = z.enum(['idle', 'running', 'completed', 'stopped', 'failed', 'waiting']);
export type HistoryStatus = z.infer<typeof HistoryStatusSchema>;

/** Narrows the history; every field is optional and they combine with AND. Times are ms since the epoch. */
export const HistoryFilterSchema = z
  .object({
    /** Any of these statuses. */
    statuses: z.array(HistoryStatusSchema).min(1).max(6).optional(),
    /** Tasks that called this tool. */
    tool: z.string().min(1).max(200).optional(),
    /** Last activity at or after `from` and before `to`. */
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
  })
  .strict();
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

export const HistoryEntrySchema = TaskSummarySchema.extend({
  /** The tools the task called, by name, sorted. */
  tools: z.array(z.string()),
  /** Calls of this task that did not run: denied by the user, refused before anyone was asked, or left unanswered. */
  deniedCalls: z.number().int().nonnegative(),
  /** Calls of this task that failed, or were cut short by a crash. */
  failedCalls: z.number().int().nonnegative(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Where the next page of the history list starts (newest first: by last activity, then id). */
export const HistoryCursorSchema = z.object({ updatedAt: z.number().int(), id: Id }).strict();
export type HistoryCursor = z.infer<typeof HistoryCursorSchema>;

/** [start, end) offsets of a matched word inside a snippet. */
export const HighlightSchema = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);

export const SearchHitSchema = z.object({
  taskId: z.string(),
  title: z.string(),
  status: TaskStatusSchema,
  updatedAt: z.number().int(),
  /** Plain text around the best match in the task; `highlights` mark the matched words in it. */
  snippet: z.string(),
  highlights: z.array(HighlightSchema),
  /** Relevance (bm25) weighted by recency; higher is better. Only comparable within one search. */
  score: z.number(),
  /** The message or tool call the snippet comes from: opening the hit jumps to it. */
  target: z.object({ kind: z.enum(['message', 'toolCall']), id: z.string() }),
  /** How many of the task's messages and tool calls matched (among the candidates ranked). */
  matches: z.number().int().positive(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const ExportFormatSchema = z.enum(['json', 'md']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** One task as exported: everything needed to show it again, and to find it again by search. */
export const ExportedTaskSchema = z.object({
  task: TaskSummarySchema.omit({ messageCount: true, waitingCalls: true }),
  messages: z.array(MessageSchema),
  toolCalls: z.array(ToolCallSchema),
  audit: z.array(AuditEventSchema.omit({ id: true })),
});
export type ExportedTask = z.infer<typeof ExportedTaskSchema>;

export const HISTORY_EXPORT_FORMAT = 'homebody-history';
export const HISTORY_EXPORT_VERSION = 1;

/** A JSON export, and what `history.import` accepts. */
export const HistoryExportSchema = z.object({
  format: z.literal(HISTORY_EXPORT_FORMAT),
  version: z.literal(HISTORY_EXPORT_VERSION),
  exportedAt: z.number().int(),
  app: z.object({ name: z.literal('Homebody'), version: z.string() }),
  tasks: z.array(ExportedTaskSchema),
});
export type HistoryExport = z.infer<typeof HistoryExportSchema>;

export const ImportReportSchema = z.object({
  imported: z.number().int().nonnegative(),
  /** Tasks already present (same id) are kept as they are, never overwritten. */
  skipped: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** Delete tasks older than this many days (by last activity); null keeps everything. */
export const RetentionSchema = z.object({ days: z.number().int().min(1).max(36_500).nullable() }).strict();
export type Retention = z.infer<typeof RetentionSchema>;

export const HistoryIdsSchema = z.array(Id).min(1).max(100_000);

/** The history's part of the API (merged into `apiSchemas`). */
export const historyApiSchemas = {
  /** One page of the history, newest first, with the total that matches the filter. */
  'history.list': {
    request: HistoryFilterSchema.extend({
      after: HistoryCursorSchema.optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }).strict(),
    response: z.object({
      entries: z.array(HistoryEntrySchema),
      total: z.number().int().nonnegative(),
      next: HistoryCursorSchema.nullable(),
    }),
  },
  /** Full-text search over messages, tool names, arguments and results; one hit per task, best first. */
  'history.search': {
    request: z
      .object({
        query: z.string().max(500),
        filter: HistoryFilterSchema.optional(),
        limit: z.number().int().min(1).max(200).optional(),
      })
      .strict(),
    response: z.object({ hits: z.array(SearchHitSchema) }),
  },
  /** The tool names that appear in the history, for the filter. */
  'history.tools': { request: z.object({}).strict(), response: z.object({ tools: z.array(z.string()) }) },
  /** Exports the given tasks (all when `taskIds` is absent) as JSON or Markdown text. */
  'history.export': {
    request: z.object({ taskIds: HistoryIdsSchema.optional(), format: ExportFormatSchema }).strict(),
    response: z.object({
      fileName: z.string(),
      mimeType: z.string(),
      content: z.string(),
      tasks: z.number().int().nonnegative(),
    }),
  },
  /** Imports a JSON export; tasks already present are skipped. */
  'history.import': {
    request: z.object({ content: z.string().min(1).max(MAX_IMPORT_BYTES) }).strict(),
    response: ImportReportSchema,
  },
  /** Deletes tasks for real: their messages, tool calls, audit events and search index entries. */
  'history.delete': {
    request: z.object({ taskIds: HistoryIdsSchema }).strict(),
    response: z.object({ deleted: z.number().int().nonnegative() }),
  },
  /** Deletes every task; the confirmation text guards against a stray call. */
  'history.deleteAll': {
    request: z.object({ confirm: z.literal('delete all history') }).strict(),
    response: z.object({ deleted: z.number().int().nonnegative() }),
  },
  'history.retention': { request: z.object({}).strict(), response: RetentionSchema },
  /** Sets the retention period and applies it at once. */
  'history.setRetention': {
    request: RetentionSchema,
    response: RetentionSchema.extend({ deleted: z.number().int().nonnegative() }),
  },
} as const;
