import type { Message, TaskSummary, ToolCall } from '../../src-shared/contract/index.js';

/** Builders for unit tests: valid contract objects with only the interesting fields given. */
export function makeMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: 'm1',
    taskId: 't1',
    seq: 0,
    role: 'assistant',
    text: '',
    reasoning: '',
    state: 'streaming',
    createdAt: 1_700_000_000_000,
    stats: null,
    error: null,
    ...overrides,
  };
}

export function makeTask(overrides: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id: 't1',
    title: 'A task',
    status: 'idle',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    messageCount: 0,
    ...overrides,
  };
}

export function makeToolCall(overrides: Partial<ToolCall> = {}): ToolCall {
  return {
    id: 'c1',
    taskId: 't1',
    tool: 'list_folder',
    args: { path: '/home/me' },
    description: {
      title: 'List a folder',
      summary: 'Lists /home/me',
      details: [{ label: 'Folder', value: '/home/me' }],
    },
    risk: 'read',
    gate: 'prompt',
    state: 'pending',
    decision: null,
    decidedBy: null,
    reason: null,
    taint: [],
    result: null,
    error: null,
    undo: null,
    createdAt: 1_700_000_000_000,
    decidedAt: null,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}
