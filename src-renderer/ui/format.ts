import { TASK_STATUS_WORDS, taskStatusOf, type ChatStats, type TaskSummary } from '../../src-shared/contract/index.js';

export function formatBytes(bytes: number | null): string | null {
  if (bytes === null) return null;
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "12.3 tokens/s · 45 tokens · first token 120 ms"; parts the Host did not measure are left out. */
export function formatStats(stats: ChatStats): string {
  const parts: string[] = [];
  if (stats.tokensPerSecond !== null) parts.push(`${stats.tokensPerSecond.toFixed(1)} tokens/s`);
  parts.push(`${stats.completionTokens} ${stats.completionTokens === 1 ? 'token' : 'tokens'}`);
  if (stats.ttftMs !== null) parts.push(`first token ${Math.round(stats.ttftMs)} ms`);
  return parts.join(' · ');
}

/** The note under a reply that did not finish normally: the contract's words, as everywhere. */
export { messageStateNote } from '../../src-shared/contract/index.js';

/**
 * A task's status beside it in the sidebar, in the contract's words; null for a task that finished normally or has
 * not started (the common case says nothing).
 */
export function taskStatusLabel(task: Pick<TaskSummary, 'status' | 'waitingCalls'>): string | null {
  const status = taskStatusOf(task);
  return status === 'completed' || status === 'idle' ? null : TASK_STATUS_WORDS[status];
}

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 d ago", then a date. */
export function formatRelativeTime(timestamp: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - timestamp) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} d ago`;
  return new Date(timestamp).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** An ISO time for a <time dateTime>, or undefined when the timestamp is not a date. */
export function isoDateTime(timestamp: number): string | undefined {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** "850 ms", "4.2 s", "3 min 5 s", "2 h 10 min"; null for a negative or unknown span. */
export function formatDuration(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** The time between two moments, when both are known. */
export function span(from: number | null, to: number | null): number | null {
  return from === null || to === null ? null : to - from;
}
