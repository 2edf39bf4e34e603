import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDuration,
  formatRelativeTime,
  formatStats,
  messageStateNote,
  taskStatusLabel,
} from './format.js';

describe('format', () => {
  it('formats reply stats', () => {
    expect(formatStats({ promptTokens: 9, completionTokens: 45, ttftMs: 120.4, tokensPerSecond: 12.345 })).toBe(
      '12.3 tokens/s · 45 tokens · first token 120 ms',
    );
    expect(formatStats({ promptTokens: 9, completionTokens: 1, ttftMs: null, tokensPerSecond: null })).toBe('1 token');
  });

  it('names unfinished states', () => {
    expect(messageStateNote('complete', null)).toBeNull();
    expect(messageStateNote('stopped', null)).toBe('Stopped');
    expect(messageStateNote('truncated', null)).toBe('Length limit reached');
    // The sidebar and History call its task "Stopped": the reply says the same word, and why.
    expect(messageStateNote('interrupted', null)).toBe('Stopped: Homebody closed while replying');
    expect(taskStatusLabel({ status: 'stopped', waitingCalls: 0 })).toBe('Stopped');
    expect(messageStateNote('failed', 'Out of memory')).toBe('Failed: Out of memory');
  });

  it('says a task waits for the user in the sidebar, and nothing for one that finished normally', () => {
    expect(taskStatusLabel({ status: 'completed', waitingCalls: 1 })).toBe('Waiting for you');
    expect(taskStatusLabel({ status: 'running', waitingCalls: 1 })).toBe('Replying…');
    expect(taskStatusLabel({ status: 'completed', waitingCalls: 0 })).toBeNull();
    expect(taskStatusLabel({ status: 'idle', waitingCalls: 0 })).toBeNull();
  });

  it('formats sizes and times', () => {
    expect(formatBytes(null)).toBeNull();
    expect(formatBytes(533_000_000)).toBe('533 MB');
    expect(formatBytes(1_600_000_000)).toBe('1.6 GB');
    const now = 1_700_000_000_000;
    expect(formatRelativeTime(now - 10_000, now)).toBe('just now');
    expect(formatRelativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(formatRelativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
  });
});

describe('formatDuration', () => {
  it('picks a unit a person reads at a glance', () => {
    expect(formatDuration(null)).toBeNull();
    expect(formatDuration(-1)).toBeNull();
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_240)).toBe('4.2 s');
    expect(formatDuration(59_600)).toBe('1 min');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(2 * 3_600_000 + 10 * 60_000)).toBe('2 h 10 min');
  });
});
