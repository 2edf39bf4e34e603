import { z } from 'zod';
import { ToolCallSchema } from './tools.js';

export const ChatStatsSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  ttftMs: z.number().nonnegative().nullable(),
  tokensPerSecond: z.number().nonnegative().nullable(),
  /** Of the completion tokens, those the model spent thinking; absent on replies recorded before it was counted. */
  reasoningTokens: z.number().int().nonnegative().optional(),
});
export type ChatStats = z.infer<typeof ChatStatsSchema>;

export const MessageRoleSchema = z.enum(['user', 'assistant']);
export type MessageRole = z.infer<typeof MessageRoleSchema>;

/**
 * streaming: being generated now; complete: finished normally; stopped: the user stopped it;
 * truncated: hit the length cap; interrupted: the app ended while it streamed; failed: an error ended it.
 */
export const MessageStateSchema = z.enum(['streaming', 'complete', 'stopped', 'truncated', 'interrupted', 'failed']);
export type MessageState = z.infer<typeof MessageStateSchema>;

/** Where a reply came from when another computer wrote it. */
export const RemoteMarkSchema = z.object({ url: z.string(), model: z.string(), label: z.string() });
export type RemoteMark = z.infer<typeof RemoteMarkSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  taskId: z.string(),
  seq: z.number().int().nonnegative(),
  role: MessageRoleSchema,
  text: z.string(),
  /** The model's thought segments, kept apart from the reply. */
  reasoning: z.string(),
  state: MessageStateSchema,
  createdAt: z.number().int(),
  stats: ChatStatsSchema.nullable(),
  error: z.string().nullable(),
  /** Set on a reply for which earlier turns of the task were left out to fit the model's context: says so. */
  contextNote: z.string().nullable().optional(),
  /** Set on a reply a model on another computer wrote: which server, which model, and the node's name. */
  remote: RemoteMarkSchema.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

/**
 * A reply that ended by itself (complete, or at the length cap) having thought but written no answer: the chat and
 * `homebody run` say so rather than show nothing. A reply the user stopped, or one that failed, says that instead.
 */
export function onlyThought(message: Pick<Message, 'role' | 'state' | 'text' | 'reasoning'>): boolean {
  return (
    message.role === 'assistant' &&
    (message.state === 'complete' || message.state === 'truncated') &&
    message.text.trim() === '' &&
    message.reasoning.trim() !== ''
  );
}

export const TaskStatusSchema = z.enum(['idle', 'running', 'completed', 'stopped', 'failed']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** Times are milliseconds since the Unix epoch. */
export const TaskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: TaskStatusSchema,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  messageCount: z.number().int().nonnegative(),
  /** Calls of this task waiting for the user: a prompt in the chat or the approval queue ("Waiting for you"). */
  waitingCalls: z.number().int().nonnegative(),
});
export type TaskSummary = z.infer<typeof TaskSummarySchema>;

export const TaskDetailSchema = z.object({
  task: TaskSummarySchema,
  messages: z.array(MessageSchema),
  /** The task's tool calls, oldest first: with the messages, its timeline. */
  toolCalls: z.array(ToolCallSchema),
});
export type TaskDetail = z.infer<typeof TaskDetailSchema>;

/** The shortest start of an id that names one task or one queued call, as a person copies it from a list. */
export const ID_PREFIX_MIN = 4;

/** The longest message the chat takes, in characters; the model's context may allow less (messageTooLong). */
export const MAX_MESSAGE_CHARS = 100_000;

/** What a message too long to send is told, whatever found it too long: the page, the contract or the model. */
export function messageTooLong(detail: string): string {
  return `This message is too long to send: ${detail}. Shorten it or split it into several messages; nothing was saved.`;
}
