import { z } from 'zod';
import { MessageSchema, TaskSummarySchema } from './chat.js';
import { DeviceRequestEventSchema, ReminderDueEventSchema } from './device.js';
import { DoctorProgressEventSchema } from './doctor.js';
import { McpServerViewSchema } from './mcp.js';
import { ModelStateSchema } from './model.js';
import { DataDeletedEventSchema, EgressRecordedEventSchema } from './privacy.js';
import { EvalFinishedEventSchema, EvalProgressEventSchema } from './eval.js';
import { DownloadProgressEventSchema, ModelsChangedEventSchema } from './models.js';
import { ToolCallSchema } from './tools.js';

/**
 * Everything the Host pushes to the renderer. Token deltas carry only the new
 * text, never the whole message, so a long reply costs the same per token.
 */
export const HostEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('model.state'), state: ModelStateSchema }),
  z.object({ type: z.literal('task.updated'), task: TaskSummarySchema }),
  z.object({ type: z.literal('message.created'), message: MessageSchema }),
  z.object({
    type: z.literal('message.delta'),
    taskId: z.string(),
    messageId: z.string(),
    text: z.string(),
    reasoning: z.string(),
  }),
  z.object({ type: z.literal('message.finished'), message: MessageSchema }),
  /** A tool call was proposed, decided, started, finished or undone. */
  z.object({ type: z.literal('toolcall.updated'), call: ToolCallSchema }),
  /** Tasks were deleted (by the user, or by the retention period); `all` when the whole history went. */
  z.object({ type: z.literal('tasks.deleted'), taskIds: z.array(z.string()), all: z.boolean() }),
  /** Tasks were added by an import. */
  z.object({ type: z.literal('tasks.imported'), count: z.number().int().nonnegative() }),
  /** A download's bytes, speed, time left or state changed (throttled to a few per second while downloading). */
  DownloadProgressEventSchema,
  /** The models listing changed; carries it whole. */
  ModelsChangedEventSchema,
  /** Browser mode: the Host asks the page to use the clipboard, open an address or notify (see device.ts). */
  DeviceRequestEventSchema,
  /** A reminder fell due (also one that fell due while Homebody was closed, once, at the next start). */
  ReminderDueEventSchema,
  /** An MCP server started, stopped, failed, or its tools changed; carries the whole list. */
  z.object({ type: z.literal('mcp.changed'), servers: z.array(McpServerViewSchema) }),
  /** A connection was recorded in the egress ledger (or its bytes changed). */
  EgressRecordedEventSchema,
  /** All data was deleted (Privacy page); the renderer starts over. */
  DataDeletedEventSchema,
  /** An evaluation run finished a case (or began loading a model), with its estimate of time left. */
  EvalProgressEventSchema,
  /** An evaluation run ended: done, cancelled or failed. */
  EvalFinishedEventSchema,
  /** The Doctor's benchmark began its next phase. */
  DoctorProgressEventSchema,
]);
export type HostEvent = z.infer<typeof HostEventSchema>;
export type HostEventType = HostEvent['type'];
export type HostEventOf<T extends HostEventType> = Extract<HostEvent, { type: T }>;
