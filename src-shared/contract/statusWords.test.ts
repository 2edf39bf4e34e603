import { describe, expect, it } from 'vitest';
import { HistoryStatusSchema, MessageStateSchema, TaskStatusSchema } from './index.js';
import { ToolCallStateSchema } from './tools.js';
import {
  TASK_STATUS_WORDS,
  callOutcomeWords,
  messageStateNote,
  taskStatusOf,
  taskStatusWords,
  toolCallStateWords,
} from './statusWords.js';

describe('one vocabulary for statuses', () => {
  it('has words for every status a task can show, each different', () => {
    const words = HistoryStatusSchema.options.map((status) => TASK_STATUS_WORDS[status]);
    expect(words.every((w) => typeof w === 'string' && w.length > 0)).toBe(true);
    expect(new Set(words).size).toBe(words.length);
  });

  it('calls a task waiting for the user while a call of it waits and no reply runs', () => {
    expect(taskStatusOf({ status: 'completed', waitingCalls: 2 })).toBe('waiting');
    expect(taskStatusOf({ status: 'stopped', waitingCalls: 1 })).toBe('waiting');
    expect(taskStatusOf({ status: 'running', waitingCalls: 1 })).toBe('running');
    expect(taskStatusOf({ status: 'failed' })).toBe('failed');
    for (const status of TaskStatusSchema.options) expect(taskStatusOf({ status, waitingCalls: 0 })).toBe(status);
    expect(taskStatusWords({ status: 'completed', waitingCalls: 1 })).toBe('Waiting for you');
  });

  it('names calls that did not run or failed beside the status', () => {
    expect(callOutcomeWords({ deniedCalls: 0, failedCalls: 0 })).toEqual([]);
    expect(callOutcomeWords({ deniedCalls: 1, failedCalls: 2 })).toEqual(['1 call not run', '2 calls failed']);
  });

  it('says the same word for a reply and a call that a crash cut short as for their stopped task', () => {
    expect(messageStateNote('interrupted', null)).toMatch(/^Stopped: /);
    expect(toolCallStateWords({ state: 'interrupted', gate: 'none', error: null })).toMatch(/^Stopped: /);
    expect(TASK_STATUS_WORDS.stopped).toBe('Stopped');
  });

  it('has words for every reply and call state', () => {
    for (const state of MessageStateSchema.options) expect(() => messageStateNote(state, null)).not.toThrow();
    for (const state of ToolCallStateSchema.options) {
      expect(toolCallStateWords({ state, gate: 'prompt', error: null }).length).toBeGreaterThan(0);
    }
    expect(toolCallStateWords({ state: 'pending', gate: 'prompt', error: null })).toBe(TASK_STATUS_WORDS.waiting);
  });
});
