import { z } from 'zod';
import { CallPathSchema, DecisionBasisSchema } from './decisions.js';

export const RiskSchema = z.enum(['read', 'write', 'irreversible']);
export type Risk = z.infer<typeof RiskSchema>;

/** The user's written boundary per tool: run alone, ask each time, queue for approval, or never offer. */
export const PolicyModeSchema = z.enum(['auto', 'ask', 'queue', 'off']);
export type PolicyMode = z.infer<typeof PolicyModeSchema>;

/** A folder's device and inode when it was granted (decimal strings): the grant is this folder, not its path. */
export const FolderIdentitySchema = z.object({
  dev: z.string().regex(/^\d{1,24}$/),
  ino: z.string().regex(/^\d{1,24}$/),
});
export type FolderIdentity = z.infer<typeof FolderIdentitySchema>;

export const GrantedFolderSchema = z.object({
  path: z.string().min(1).max(4096),
  /** Content from here did not come from the user (e.g. Downloads): reading it taints the task. */
  untrusted: z.boolean().default(false),
  /** Recorded by the Host when the folder is granted; never taken from a request. */
  identity: FolderIdentitySchema.optional(),
});
export type GrantedFolder = z.infer<typeof GrantedFolderSchema>;

/** A granted folder as it is now: `ok`, or why it grants nothing until the user grants it again. */
export const FolderStateSchema = z.object({
  path: z.string(),
  untrusted: z.boolean(),
  state: z.enum(['ok', 'missing', 'replaced', 'link', 'not-a-folder']),
  /** What the user is told when the state is not ok. */
  message: z.string().nullable(),
});
export type FolderState = z.infer<typeof FolderStateSchema>;

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

/**
 * The one table of how a call's state may change. A call is recorded as pending (it waits for someone), approved
 * (it runs now) or rejected (never valid); every later change is one of these, made as a compare-and-set on the
 * state it leaves. An interrupted call may only be dismissed (denied): it may have run, so it never runs again.
 */
export const CALL_TRANSITIONS = {
  pending: ['approved', 'denied', 'expired'],
  approved: ['executing', 'expired'],
  executing: ['done', 'failed', 'interrupted'],
  interrupted: ['denied'],
  done: [],
  failed: [],
  denied: [],
  rejected: [],
  expired: [],
} as const satisfies Record<ToolCallState, readonly ToolCallState[]>;

export function canMove(from: ToolCallState, to: ToolCallState): boolean {
  return (CALL_TRANSITIONS[from] as readonly ToolCallState[]).includes(to);
}

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
  /** Its path arguments as the tool will touch them, each with the granted folder it lies in. */
  paths: z.array(CallPathSchema).default([]),
  /** Why it waits, ran or was refused (the latest decision); null for calls recorded before bases were kept. */
  basis: DecisionBasisSchema.nullable().default(null),
  result: z.unknown().nullable(),
  /** The result in one line for people ("Created /tmp/docs/hello.txt (20 bytes)."); null when the tool cannot say. */
  resultSummary: z.string().nullable().default(null),
  error: z.string().nullable(),
  undo: z.enum(['available', 'undone', 'failed']).nullable(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  startedAt: z.number().int().nullable(),
  finishedAt: z.number().int().nullable(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** What became of a call, as whoever proposed or decided it is told: it ran, failed, waits, or was refused. */
export const ToolCallOutcomeSchema = z.object({
  status: z.enum(['done', 'failed', 'needs-permission', 'queued', 'denied', 'rejected']),
  /** What it answered, when it ran (status done). */
  result: z.unknown().optional(),
  /** Why it failed or was refused (status failed, denied, rejected). */
  error: z.string().optional(),
});
export type ToolCallOutcome = z.infer<typeof ToolCallOutcomeSchema>;

export const AuditEventSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  taskId: z.string().nullable(),
  callId: z.string().nullable(),
  kind: z.string(),
  actor: z.enum(['model', 'user', 'policy', 'cli', 'system']),
  summary: z.string(),
  detail: z.unknown().nullable(),
  /** The decision's basis, for events that decided something (kind decided, queued, rejected, expired...). */
  basis: DecisionBasisSchema.nullable().default(null),
  /** The files the event concerns, absolute, with their granted folders. */
  paths: z.array(CallPathSchema).default([]),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/**
 * What a tool acts on, so that its badge can say "Changes your calendar" rather than only its risk class: `device`
 * is what only the app shell does (the clipboard, opening an address or a file, a notification, the computer's
 * state); `nothing` is a tool that only works something out (a calculation, a date).
 */
export const ToolTouchesSchema = z.enum([
  'files',
  'calendar',
  'contacts',
  'notes',
  'mail',
  'reminders',
  'device',
  'web',
  'nothing',
]);
export type ToolTouches = z.infer<typeof ToolTouchesSchema>;

export const ToolInfoSchema = z.object({
  name: z.string(),
  /** What the model is told: its instructions, not words for people. */
  description: z.string(),
  risk: RiskSchema,
  parameters: z.record(z.string(), z.unknown()),
  /** Asked every time (e.g. device_open): its mode can be ask, queue or off, never auto. */
  alwaysAsk: z.boolean().optional(),
  /** Its name for people, e.g. "Copy to the clipboard". */
  title: z.string(),
  /** One sentence for people: what it does for them. */
  text: z.string(),
  /** What it acts on; null where that is not known (a tool of an MCP server). */
  touches: ToolTouchesSchema.nullable(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;
