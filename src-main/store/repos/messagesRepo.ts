import {
  RemoteMarkSchema,
  type ChatStats,
  type Message,
  type MessageRole,
  type MessageState,
  type RemoteMark,
} from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

interface MessageRow {
  id: string;
  task_id: string;
  seq: number;
  role: MessageRole;
  text: string;
  reasoning: string;
  state: MessageState;
  created_at: number;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  ttft_ms: number | null;
  tokens_per_second: number | null;
  reasoning_tokens: number | null;
  error: string | null;
  context_note: string | null;
  remote_json: string | null;
}

/** A reply's remote mark as stored; one that does not parse (an older or altered row) reads as none. */
function remoteMark(json: string | null): RemoteMark | undefined {
  if (json === null) return undefined;
  try {
    const parsed = RemoteMarkSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  taskId: row.task_id,
  seq: row.seq,
  role: row.role,
  text: row.text,
  reasoning: row.reasoning,
  state: row.state,
  createdAt: row.created_at,
  stats:
    row.prompt_tokens === null || row.completion_tokens === null
      ? null
      : {
          promptTokens: row.prompt_tokens,
          completionTokens: row.completion_tokens,
          ttftMs: row.ttft_ms,
          tokensPerSecond: row.tokens_per_second,
          ...(row.reasoning_tokens === null ? {} : { reasoningTokens: row.reasoning_tokens }),
        },
  error: row.error,
  ...(row.context_note === null ? {} : { contextNote: row.context_note }),
  ...withRemote(remoteMark(row.remote_json)),
});

const withRemote = (remote: RemoteMark | undefined) => (remote ? { remote } : {});

export interface NewMessage {
  readonly id: string;
  readonly taskId: string;
  readonly role: MessageRole;
  readonly text: string;
  readonly state: MessageState;
  readonly now: number;
}

export function createMessagesRepo(db: Db) {
  const insert = db.prepare<[string, string, string, MessageRole, string, MessageState, number]>(
    `INSERT INTO messages (id, task_id, seq, role, text, state, created_at)
     VALUES (?, ?, (SELECT coalesce(max(seq) + 1, 0) FROM messages WHERE task_id = ?), ?, ?, ?, ?)`,
  );
  const append = db.prepare<[string, string, string]>(
    'UPDATE messages SET text = text || ?, reasoning = reasoning || ? WHERE id = ?',
  );
  const finish = db.prepare<
    [MessageState, number | null, number | null, number | null, number | null, number | null, string | null, string]
  >(
    `UPDATE messages SET state = ?, prompt_tokens = ?, completion_tokens = ?, ttft_ms = ?, tokens_per_second = ?,
       reasoning_tokens = ?, error = ?
     WHERE id = ?`,
  );
  const setContextNote = db.prepare<[string | null, string]>('UPDATE messages SET context_note = ? WHERE id = ?');
  const setRemote = db.prepare<[string | null, string]>('UPDATE messages SET remote_json = ? WHERE id = ?');
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const forTask = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE task_id = ? ORDER BY seq');
  const interruptStreaming = db.prepare(`UPDATE messages SET state = 'interrupted' WHERE state = 'streaming'`);

  return {
    insert(message: NewMessage): Message {
      insert.run(message.id, message.taskId, message.taskId, message.role, message.text, message.state, message.now);
      const row = byId.get(message.id);
      if (!row) throw new Error(`message ${message.id} vanished after insert`);
      return toMessage(row);
    },
    /** Appends streamed text in place: one small write per batch, never a rewrite of the task. */
    append(id: string, text: string, reasoning: string): void {
      append.run(text, reasoning, id);
    },
    finish(id: string, state: MessageState, stats: ChatStats | null, error: string | null): Message {
      finish.run(
        state,
        stats?.promptTokens ?? null,
        stats?.completionTokens ?? null,
        stats?.ttftMs ?? null,
        stats?.tokensPerSecond ?? null,
        stats?.reasoningTokens ?? null,
        error,
        id,
      );
      const row = byId.get(id);
      if (!row) throw new Error(`message ${id} not found`);
      return toMessage(row);
    },
    /** Says on a reply that earlier turns were left out to fit the model's context. */
    setContextNote(id: string, note: string | null): void {
      setContextNote.run(note, id);
    },
    /** Marks a reply as written by a model on another computer (before it is written, so a failed one says so too). */
    setRemote(id: string, remote: RemoteMark): void {
      setRemote.run(JSON.stringify(remote), id);
    },
    get(id: string): Message | undefined {
      const row = byId.get(id);
      return row ? toMessage(row) : undefined;
    },
    listForTask(taskId: string): Message[] {
      return forTask.all(taskId).map(toMessage);
    },
    /** After a crash: a reply that was streaming is kept, marked interrupted. */
    markStreamingInterrupted(): number {
      return interruptStreaming.run().changes;
    },
  };
}
export type MessagesRepo = ReturnType<typeof createMessagesRepo>;
