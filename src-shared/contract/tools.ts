import { z } from 'zod';

export const RiskSchema = z.enum(['read', 'write', 'irreversible']);
export type Risk = z.infer<typeof RiskSchema>;

/** The user's written boundary per tool: run alone, ask each time, queue for approval, or never offer. */
export const PolicyModeSchema = z.enum(['auto', 'ask', 'queue', 'off']);
export type PolicyMode = z.infer<typeof PolicyModeSchema>;

export const GrantedFolderSchema = z.object({
  path: z.string().min(1).max(4096),
  /** Content from here did not come from the user (e.g. Downloads): reading it taints the task. */
  untrusted: z.boolean().default(false),
});
export type GrantedFolder = z.infer<typeof GrantedFolderSchema>;

export const PolicySchema = z.object({
  version: z.literal(1),
  tools: z.record(z.string(), PolicyModeSchema),
  folders: z.array(GrantedFolderSchema),
});
export type Policy = z.infer<typeof PolicySchema>;

/**
 * pending: waiting for the user (a prompt in the chat, or the approval queue); approved: allowed, about to run;
 * executing: running now; done/failed: ran; denied: the user or the policy refused; rejected: never valid
 * (unknown tool, bad arguments); expired: its task ended before anyone decided; interrupted: the app died
 * while it ran, so it is never re-run by itself.
 */
export const ToolCallStateSchema = z.enum([
  'pending',
  'approved',
  'executing',
  'done',
  'failed',
  'denied',
  'rejected',
  'expired',
  'interrupted',
]);
export type ToolCallState = z.infer<typeof ToolCallStateSchema>;

/** Where a call waits: none (runs by policy), prompt (asked in the chat), queue (the approval queue). */
export const GateSchema = z.enum(['none', 'prompt', 'queue']);
export type Gate = z.infer<typeof GateSchema>;

export const DecisionSchema = z.enum(['auto', 'allow-once', 'allow-task', 'always', 'approve', 'deny']);
export type Decision = z.infer<typeof DecisionSchema>;

export const ToolDescriptionSchema = z.object({
  title: z.string(),
  summary: z.string(),
  details: z.array(z.object({ label: z.string(), value: z.string() })),
});
export type ToolDescriptionView = z.infer<typeof ToolDescriptionSchema>;

export const ToolCallSchema = z.object({
  id: z.string(),
  taskId: z.string().nullable(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  description: ToolDescriptionSchema,
  risk: RiskSchema,
  gate: GateSchema,
  state: ToolCallStateSchema,
  decision: DecisionSchema.nullable(),
  decidedBy: z.enum(['policy', 'user', 'cli']).nullable(),
  reason: z.string().nullable(),
  /** Untrusted content the task had read before this call, by name. */
  taint: z.array(z.string()),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
  undo: z.enum(['available', 'undone', 'failed']).nullable(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  startedAt: z.number().int().nullable(),
  finishedAt: z.number().int().nullable(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AuditEventSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  taskId: z.string().nullable(),
  callId: z.string().nullable(),
  kind: z.string(),
  actor: z.enum(['model', 'user', 'policy', 'cli', 'system']),
  summary: z.string(),
  detail: z.unknown().nullable(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const ToolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  risk: RiskSchema,
  parameters: z.record(z.string(), z.unknown()),
  /** Asked every time (e.g. device_open): its mode can be ask, queue or off, never auto. */
  alwaysAsk: z.boolean().optional(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;
