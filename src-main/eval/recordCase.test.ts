import { describe, expect, it } from 'vitest';
import type { Message, TaskDetail, ToolCall } from '../../src-shared/contract/index.js';
import { caseFromTask, RecordError } from './recordCase.js';

const builtins = new Set(['read_text', 'list_folder', 'write_text', 'mail_send']);
let seq = 0;
const message = (role: 'user' | 'assistant', text: string, at: number): Message => ({
  id: `m${seq}`,
  taskId: 't',
  seq: seq++,
  role,
  text,
  reasoning: '',
  state: 'complete',
  createdAt: at,
  stats: null,
  error: null,
});
const call = (tool: string, args: Record<string, unknown>, state: ToolCall['state'], at: number): ToolCall => ({
  id: `c${at}`,
  taskId: 't',
  tool,
  args,
  description: { title: tool, summary: '', details: [] },
  risk: 'read',
  gate: 'prompt',
  state,
  decision: state === 'denied' ? 'deny' : 'allow-once',
  decidedBy: 'user',
  reason: null,
  taint: [],
  paths: [],
  basis: null,
  result: null,
  resultSummary: null,
  error: null,
  undo: null,
  createdAt: at,
  decidedAt: at,
  startedAt: at,
  finishedAt: at,
});
const task = (messages: Message[], toolCalls: ToolCall[]): TaskDetail => ({
  task: { id: 't', title: 'Reports', status: 'completed', createdAt: 0, updatedAt: 0 } as TaskDetail['task'],
  messages,
  toolCalls,
});
const record = (detail: TaskDetail, offered = ['read_text', 'list_folder']) =>
  caseFromTask(detail, { id: 'recorded-1', offered, builtins });

describe('recording a task as an evaluation case', () => {
  it('takes the last user turn that led to calls, the turns before it, and the calls that ran as the answer', () => {
    const detail = task(
      [
        message('user', 'what is in Reports?', 10),
        message('assistant', 'a.txt and b.txt', 20),
        message('user', 'read a.txt and b.txt', 30),
        message('assistant', 'done', 40),
        message('user', 'thanks', 50),
        message('assistant', 'you are welcome', 60),
      ],
      [
        call('list_folder', { path: '/r' }, 'done', 15),
        call('read_text', { path: '/r/a.txt' }, 'done', 31),
        call('read_text', { path: '/r/b.txt' }, 'done', 32),
        call('write_text', { path: '/r/c.txt', text: 'x' }, 'denied', 33),
      ],
    );
    const c = record(detail);
    expect(c).toMatchObject({
      id: 'recorded-1',
      kind: 'several',
      domain: 'recorded',
      prompt: 'read a.txt and b.txt',
      history: [
        { role: 'user', text: 'what is in Reports?' },
        { role: 'assistant', text: 'a.txt and b.txt' },
      ],
      expected: [{ read_text: { path: ['/r/a.txt'] } }, { read_text: { path: ['/r/b.txt'] } }],
    });
    expect(c.tools).toEqual(['read_text', 'list_folder', 'write_text']);
    expect(c.note).toMatch(/1 call\(s\) the user denied or that failed/);
  });

  it('makes a task without calls a "no call" case of its last turn', () => {
    const c = record(task([message('user', 'tell me a joke', 1), message('assistant', 'no', 2)], []));
    expect(c).toMatchObject({ kind: 'none', prompt: 'tell me a joke', expected: [] });
  });

  it('refuses a task with no user turn, or one that used a tool evaluations cannot run', () => {
    expect(() => record(task([], []))).toThrow(RecordError);
    const mcp = task([message('user', 'search the wiki', 1)], [call('mcp_wiki_search', { q: 'x' }, 'done', 2)]);
    expect(() => record(mcp)).toThrow(/used mcp_wiki_search, which evaluations cannot run/);
  });
});
