import type {
  HistoryEntry,
  ImportReport,
  TaskDetail,
  HistoryFilter,
  HistoryStatus,
  TaskSummary,
} from '../../src-shared/contract/index.js';
import { HistoryStatusSchema, TASK_STATUS_WORDS } from '../../src-shared/contract/index.js';

/** Pure helpers behind the History page and the search palette; each one is unit-tested. */

export const DAY_MS = 86_400_000;

/** A piece of a search snippet: plain text, marked when it is one of the matched words. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * Cuts a snippet into plain and marked parts by its [start, end) highlights. The ranges come from the Host, so
 * they are not trusted: out-of-range, empty, unordered or overlapping ranges are clamped, dropped, sorted and
 * merged, and a range never splits a surrogate pair. The text is only ever rendered as text.
 */
export function splitHighlights(text: string, highlights: readonly (readonly [number, number])[]): SnippetPart[] {
  const ranges = highlights
    .map(([start, end]) => [snap(text, clamp(start, text.length)), snap(text, clamp(end, text.length))] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), marked: false });
  return parts;
}

function clamp(value: number, max: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(max, Math.max(0, Math.trunc(value)));
}

/** Moves an offset that falls between the two halves of a surrogate pair to the start of the pair. */
function snap(text: string, offset: number): number {
  if (offset <= 0 || offset >= text.length) return offset;
  const code = text.charCodeAt(offset);
  const before = text.charCodeAt(offset - 1);
  return code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff ? offset - 1 : offset;
}

/** The statuses the History page filters by, in the order it shows them. */
export const HISTORY_STATUSES: readonly HistoryStatus[] = [
  'completed',
  'stopped',
  'failed',
  'waiting',
  'running',
  'idle',
];

export function historyStatusLabel(status: HistoryStatus): string {
  return TASK_STATUS_WORDS[status];
}

export type DateRange = 'any' | 'today' | '7d' | '30d' | '365d' | 'custom';

/** What the filter controls hold. Dates are the values of <input type="date">: "YYYY-MM-DD" or "". */
export interface HistoryFilterInput {
  statuses: readonly HistoryStatus[];
  tool: string | null;
  range: DateRange;
  from: string;
  to: string;
}

export const EMPTY_FILTER: HistoryFilterInput = { statuses: [], tool: null, range: 'any', from: '', to: '' };

/** Whether the controls narrow nothing (a custom range with no dates yet narrows nothing). */
export function isFilterEmpty(input: HistoryFilterInput): boolean {
  const range = input.range === 'any' || (input.range === 'custom' && !input.from && !input.to);
  return input.statuses.length === 0 && input.tool === null && range;
}

/** Whether the controls are as they start: nothing to clear. */
export function isFilterDefault(input: HistoryFilterInput): boolean {
  return input.statuses.length === 0 && input.tool === null && input.range === 'any';
}

/** Local midnight of a "YYYY-MM-DD" date, plus `days`; null when the text is not such a date. */
export function localDayStart(value: string, days = 0): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day + days);
  // new Date rolls 2026-02-31 over into March; such a date was not a real one.
  const check = new Date(year, month - 1, day);
  if (check.getFullYear() !== year || check.getMonth() !== month - 1 || check.getDate() !== day) return null;
  return date.getTime();
}

/** Local midnight of the day `now` falls in. */
export function startOfLocalDay(now: number): number {
  const date = new Date(now);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

export type FilterMapping = { ok: true; filter: HistoryFilter } | { ok: false; problem: string };

/**
 * The request for what the filter controls say. Statuses go in a fixed order (one request shape per choice);
 * a custom range includes both of its days, in local time; a half-open custom range is fine.
 */
export function toHistoryFilter(input: HistoryFilterInput, now: number): FilterMapping {
  const filter: HistoryFilter = {};
  const statuses = HistoryStatusSchema.options.filter((s) => input.statuses.includes(s));
  if (statuses.length > 0) filter.statuses = statuses;
  if (input.tool !== null && input.tool !== '') filter.tool = input.tool;
  switch (input.range) {
    case 'any':
      break;
    case 'today':
      filter.from = startOfLocalDay(now);
      break;
    case '7d':
    case '30d':
    case '365d':
      filter.from = Math.max(0, now - Number.parseInt(input.range, 10) * DAY_MS);
      break;
    case 'custom': {
      const from = input.from ? localDayStart(input.from) : null;
      const to = input.to ? localDayStart(input.to, 1) : null;
      if (input.from && from === null) return { ok: false, problem: 'The start date is not a valid date.' };
      if (input.to && to === null) return { ok: false, problem: 'The end date is not a valid date.' };
      if (from !== null && to !== null && from >= to)
        return { ok: false, problem: 'The start date is after the end date.' };
      if (from !== null) filter.from = Math.max(0, from);
      if (to !== null) filter.to = Math.max(0, to);
      break;
    }
    default:
      return input.range satisfies never;
  }
  return { ok: true, filter };
}

/** Appends a page to what is loaded, skipping tasks already there (a task may move while paging). */
export function mergeHistoryPage(loaded: readonly HistoryEntry[], page: readonly HistoryEntry[]): HistoryEntry[] {
  const known = new Set(loaded.map((e) => e.id));
  const merged = loaded.slice();
  for (const entry of page) {
    if (known.has(entry.id)) continue;
    known.add(entry.id);
    merged.push(entry);
  }
  return merged;
}

/** Refreshes a loaded entry from a task summary in place (its tools and waiting calls stay as they were). */
export function applyTaskUpdate(entries: readonly HistoryEntry[], task: TaskSummary): HistoryEntry[] | null {
  const index = entries.findIndex((e) => e.id === task.id);
  const current = entries[index];
  if (!current) return null;
  const next = entries.slice();
  next[index] = { ...current, ...task };
  return next;
}

/** Takes deleted tasks out of a list of things that have a task id. */
export function withoutTasks<T>(items: readonly T[], taskIdOf: (item: T) => string | null, gone: ReadonlySet<string>) {
  return items.filter((item) => {
    const id = taskIdOf(item);
    return id === null || !gone.has(id);
  });
}

/** Selects or unselects one task. */
export function toggleSelection(selection: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  if (selection.has(id) === on) return selection;
  const next = new Set(selection);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** Shift-click: every loaded task between the anchor and `id`, both included, takes the state `on`. */
export function selectRange(
  selection: ReadonlySet<string>,
  entries: readonly { id: string }[],
  anchorId: string | null,
  id: string,
  on: boolean,
): ReadonlySet<string> {
  const to = entries.findIndex((e) => e.id === id);
  const from = anchorId === null ? -1 : entries.findIndex((e) => e.id === anchorId);
  if (to === -1) return selection;
  if (from === -1) return toggleSelection(selection, id, on);
  const next = new Set(selection);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
    const entry = entries[i];
    if (!entry) continue;
    if (on) next.add(entry.id);
    else next.delete(entry.id);
  }
  return next;
}

/** Rows to render in a window over `count` rows of `rowHeight`, with `overscan` rows either side. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 6,
): { start: number; end: number } {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first - overscan));
  const end = Math.min(count, Math.max(start + 1, last + overscan));
  return { start, end };
}

export const HISTORY_PAGE_SIZE = 200;
const MAX_PAGE = 1000;

/** How many tasks the next page asks for so that `needed` rows are loaded: one page, more after a long jump. */
export function pageLimitFor(needed: number, loaded: number): number {
  return Math.min(MAX_PAGE, Math.max(HISTORY_PAGE_SIZE, needed - loaded + HISTORY_PAGE_SIZE / 2));
}

/** Retention choices the page offers; other values show as a custom number of days. */
export const RETENTION_PRESETS: readonly number[] = [30, 90, 365];

export function retentionLabel(days: number | null): string {
  if (days === null) return 'Keep everything';
  if (days === 365) return 'Delete tasks older than a year';
  return `Delete tasks older than ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** "1 task", "2,345 tasks". */
export function countLabel(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? noun : plural}`;
}

/** "Imported 12 tasks (340 messages, 12 tool calls); 3 already here were kept as they are." */
export function importSummary(report: ImportReport): string {
  const parts = [
    report.imported > 0
      ? `Imported ${countLabel(report.imported, 'task')} (${countLabel(report.messages, 'message')}, ${countLabel(report.toolCalls, 'tool call')})`
      : 'Imported no new tasks',
  ];
  if (report.skipped > 0) {
    parts.push(
      `${countLabel(report.skipped, 'task was', 'tasks were')} already here and kept as ${report.skipped === 1 ? 'it was' : 'they were'}`,
    );
  }
  return `${parts.join('; ')}.`;
}

/** Tokens of every reply (prompt and completion) and the time spent running tools. */
export function timelineTotals(detail: Pick<TaskDetail, 'messages' | 'toolCalls'>): {
  tokens: number;
  toolTime: number | null;
} {
  let tokens = 0;
  for (const m of detail.messages) if (m.stats) tokens += m.stats.promptTokens + m.stats.completionTokens;
  let toolTime: number | null = null;
  for (const c of detail.toolCalls) {
    const ran = c.startedAt === null || c.finishedAt === null ? null : c.finishedAt - c.startedAt;
    if (ran !== null && ran >= 0) toolTime = (toolTime ?? 0) + ran;
  }
  return { tokens, toolTime };
}
