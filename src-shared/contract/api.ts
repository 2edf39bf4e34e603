import { z } from 'zod';
import { ToolArgumentsSchema } from './argumentKeys.js';
import { MAX_MESSAGE_CHARS, messageTooLong, TaskDetailSchema, TaskSummarySchema } from './chat.js';
import { deviceApiSchemas } from './device.js';
import { doctorApiSchemas } from './doctor.js';
import { evalApiSchemas } from './eval.js';
import { AppErrorSchema } from './errors.js';
import { historyApiSchemas } from './history.js';
import { packsApiSchemas } from './packs.js';
import { privacyApiSchemas } from './privacy.js';
import { mcpApiSchemas } from './mcp.js';
import { CatalogEntrySchema, ModelStateSchema } from './model.js';
import { modelsApiSchemas } from './models.js';
import { nodesApiSchemas } from './nodes.js';
import { DecisionBasisKindSchema } from './decisions.js';
import {
  AuditEventSchema,
  FolderStateSchema,
  PolicyModeSchema,
  PolicySchema,
  ToolCallOutcomeSchema,
  ToolCallSchema,
  ToolInfoSchema,
} from './tools.js';

const Empty = z.object({}).strict();
const Id = z.string().min(1).max(64);
/**
 * Whether the tasks of the decided calls go on once none of their calls waits in the queue: the model is told each
 * outcome and continues the reply. Default true; false is "approve (or deny) without continuing".
 */
const ContinueTask = z.boolean().optional();
/**
 * The decided calls and, in the same order, what became of each; `continued`: the reply each task that goes on
 * writes now (its message is there at once and streams like any reply).
 */
const DecisionsResponse = z.object({
  calls: z.array(ToolCallSchema),
  outcomes: z.array(ToolCallOutcomeSchema),
  continued: z.array(z.object({ taskId: Id, messageId: Id })),
});

export const AppInfoSchema = z.object({
  name: z.literal('Homebody'),
  version: z.string(),
  /** electron: the desktop shell; browser: `homebody serve`. */
  shell: z.enum(['electron', 'browser']),
  dataDir: z.string(),
  /** Things the user must know from this start, e.g. a damaged history database that was moved aside. */
  notices: z.array(AppErrorSchema),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/**
 * The whole API the renderer may call, one entry per method, each with the
 * schema of its request and of its result. Both transports (Electron IPC and
 * browser mode's HTTP) carry exactly these, validated on arrival.
 */
export const apiSchemas = {
  'app.info': { request: Empty, response: AppInfoSchema },
  'model.state': { request: Empty, response: ModelStateSchema },
  /** Loads a GGUF file, replacing the current model; resolves with the final state (ready or error). */
  'model.open': { request: z.object({ path: z.string().min(1).max(4096) }).strict(), response: ModelStateSchema },
  /** Opens the model this data folder used last (what the app opens at start); NO_MODEL when it used none yet. */
  'model.openLast': { request: Empty, response: ModelStateSchema },
  'model.catalog': { request: Empty, response: z.array(CatalogEntrySchema) },
  /** The desktop shell's native file dialog; browser mode answers with an error and the UI shows a path field. */
  'model.chooseFile': { request: Empty, response: z.object({ path: z.string().nullable() }) },
  /**
   * Adds the user's text to a task (a new one when taskId is null) and starts the reply; tokens arrive as events.
   * The task's first events (task.updated, message.created) may arrive before this call answers.
   * Errors: NO_MODEL, TASK_NOT_FOUND, TASK_BUSY, CONTEXT_OVERFLOW, REMOTE_CONSENT_REQUIRED.
   */
  'chat.send': {
    request: z
      .object({
        taskId: Id.nullable(),
        text: z
          .string()
          .trim()
          .min(1)
          .max(
            MAX_MESSAGE_CHARS,
            messageTooLong(`it has more than ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters`),
          ),
        /**
         * The user agreed that this task's conversation and tool results go to the model on another computer in use
         * now. Without it, and without an earlier agreement for this task and node, a remote model refuses with
         * REMOTE_CONSENT_REQUIRED before anything is saved.
         */
        allowRemote: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ taskId: Id, userMessageId: Id, assistantMessageId: Id }),
  },
  'chat.stop': { request: z.object({ taskId: Id }).strict(), response: z.object({ stopped: z.boolean() }) },
  'tasks.list': {
    request: z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(),
    response: z.object({ tasks: z.array(TaskSummarySchema) }),
  },
  'tasks.get': { request: z.object({ taskId: Id }).strict(), response: TaskDetailSchema },

  'tools.list': {
    request: z
      .object({
        /** Wait until the MCP servers started at launch run or have failed, so their tools are listed too. */
        waitForServers: z.boolean().optional(),
      })
      .strict(),
    response: z.array(ToolInfoSchema),
  },
  /**
   * The command line's `homebody tools call`: one call through the same checks, policy, queue and sandbox as the
   * model's, where no one can be asked (a call that needs a prompt is not run). The arguments are checked against the
   * tool's own schema by the broker, which answers a refusal as the outcome (status rejected), as for the model.
   * Answered only to the CLI's Host: in the app, the assistant proposes calls and the user decides them.
   */
  'tools.call': {
    request: z
      .object({ tool: z.string().min(1).max(200), args: z.unknown(), taskId: Id.nullable().optional() })
      .strict(),
    response: ToolCallOutcomeSchema.extend({ call: ToolCallSchema.nullable() }),
  },
  /** The answer to a permission prompt in the chat. */
  'toolcalls.answer': {
    request: z
      .object({
        id: Id,
        answer: z.enum(['allow-once', 'allow-task', 'always', 'deny']),
        reason: z.string().max(2000).nullable().optional(),
      })
      .strict(),
    response: ToolCallSchema,
  },
  'toolcalls.undo': { request: z.object({ id: Id }).strict(), response: ToolCallSchema },
  'approvals.list': { request: Empty, response: z.object({ calls: z.array(ToolCallSchema) }) },
  /**
   * Approves queued calls, one by one, each at most once; `args` edits a single call's arguments first. Answers each
   * call and, in the same order, what became of it (ran, failed, or refused: interrupted, already decided), and the
   * tasks that go on (`continue`).
   */
  'approvals.approve': {
    request: z
      .object({
        ids: z.array(Id).min(1).max(200),
        args: ToolArgumentsSchema.optional(),
        continue: ContinueTask,
      })
      .strict()
      .refine((r) => r.args === undefined || r.ids.length === 1, 'edited arguments apply to one call at a time'),
    response: DecisionsResponse,
  },
  'approvals.deny': {
    request: z
      .object({
        ids: z.array(Id).min(1).max(200),
        reason: z.string().max(2000).nullable().optional(),
        continue: ContinueTask,
      })
      .strict(),
    response: DecisionsResponse,
  },
  'policy.get': { request: Empty, response: PolicySchema },
  /** Replaces the whole policy (an import); validated like one. */
  /**
   * Replaces the policy (an import). A broad folder in it (the disk, the home folder, a system folder) is refused
   * with CONFIRMATION_REQUIRED, naming what it reaches, unless `confirmBroad` says the user saw that and agreed.
   */
  'policy.set': {
    request: z.object({ policy: z.unknown(), confirmBroad: z.boolean().optional() }).strict(),
    response: PolicySchema,
  },
  'policy.setMode': {
    request: z.object({ tool: z.string().min(1).max(200), mode: PolicyModeSchema }).strict(),
    response: PolicySchema,
  },
  /** Grants a folder; a broad one needs `confirmBroad` after the warning (CONFIRMATION_REQUIRED says it). */
  'policy.grantFolder': {
    request: z
      .object({
        path: z.string().min(1).max(4096),
        untrusted: z.boolean().default(false),
        confirmBroad: z.boolean().optional(),
      })
      .strict(),
    response: PolicySchema,
  },
  /** Each granted folder as it is now: still the folder granted, or changed (and then granting nothing). */
  'policy.folders': { request: Empty, response: z.object({ folders: z.array(FolderStateSchema) }) },
  'policy.revokeFolder': { request: z.object({ path: z.string().min(1).max(4096) }).strict(), response: PolicySchema },
  'audit.list': {
    request: z
      .object({
        beforeId: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        /** Only the events of this task, this call, about this absolute path, or decided on this basis. */
        taskId: z.string().min(1).max(64).optional(),
        callId: z.string().min(1).max(64).optional(),
        path: z.string().min(1).max(4096).optional(),
        basis: DecisionBasisKindSchema.optional(),
      })
      .strict(),
    response: z.object({ events: z.array(AuditEventSchema) }),
  },
  ...historyApiSchemas,
  ...deviceApiSchemas,
  ...packsApiSchemas,
  ...mcpApiSchemas,
  ...modelsApiSchemas,
  ...nodesApiSchemas,
  ...doctorApiSchemas,
  ...privacyApiSchemas,
  ...evalApiSchemas,
} as const;

export type ApiSchemas = typeof apiSchemas;
export type ApiMethod = keyof ApiSchemas;
export type ApiRequest<M extends ApiMethod> = z.input<ApiSchemas[M]['request']>;
export type ApiResponse<M extends ApiMethod> = z.infer<ApiSchemas[M]['response']>;

export const API_METHODS = Object.keys(apiSchemas) as ApiMethod[];

export function isApiMethod(value: unknown): value is ApiMethod {
  return typeof value === 'string' && Object.hasOwn(apiSchemas, value);
}

/** What every call returns on both transports: errors are values, never thrown across a process boundary. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof AppErrorSchema> };

export function apiResultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: AppErrorSchema }),
  ]);
}

/** The typed client both transports present to the renderer. */
export type HomebodyApi = {
  [M in ApiMethod]: (request: ApiRequest<M>) => Promise<ApiResponse<M>>;
};
