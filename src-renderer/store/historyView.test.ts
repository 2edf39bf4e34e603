import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src-shared/contract/index.js';
import {
  DAY_MS,
  EMPTY_FILTER,
  applyTaskUpdate,
  importSummary,
  isFilterEmpty,
  localDayStart,
  mergeHistoryPage,
  pageLimitFor,
  retentionLabel,
  selectRange,
  splitHighlights,
  startOfLocalDay,
  timelineTotals,
  toHistoryFilter,
  toggleSelection,
  visibleRange,
} from './historyView.js';
import { makeMessage, makeTask, makeToolCall } from '../testing/testFixtures.js';

function entry(id: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return { ...makeTask({ id }), tools: [], waitingCalls: 0, deniedCalls: 0, failedCalls: 0, ...overrides };
}

const render = (text: string, highlights: Array<[number, number]>) =>
  splitHighlights(text, highlights)
    .map((p) => (p.marked ? `[${p.text}]` : p.text))
    .join('');

describe('splitHighlights', () => {
  it('marks the ranges and keeps the text around them', () => {
    expect(splitHighlights('the quokka smiled', [[4, 10]])).toEqual([
      { text: 'the ', marked: false },
      { text: 'quokka', marked: true },
      { text: ' smiled', marked: false },
    ]);
    expect(
      render('quokka and quokkas', [
        [0, 6],
        [11, 18],
      ]),
    ).toBe('[quokka] and [quokkas]');
  });

  it('gives the whole text unmarked when nothing matched, and one empty part for an empty snippet', () => {
    expect(splitHighlights('plain', [])).toEqual([{ text: 'plain', marked: false }]);
    expect(splitHighlights('', [])).toEqual([{ text: '', marked: false }]);
  });

  it('sorts, merges overlapping ranges, and drops empty or reversed ones', () => {
    expect(
      render('abcdefghij', [
        [6, 8],
        [1, 3],
        [2, 5],
        [4, 4],
        [9, 7],
      ]),
    ).toBe('a[bcde]f[gh]ij');
  });

  it('clamps ranges that reach outside the text, and ignores ones wholly outside', () => {
    expect(
      render('short', [
        [-5, 2],
        [3, 99],
        [40, 50],
      ]),
    ).toBe('[sh]o[rt]');
    expect(render('short', [[Number.NaN, 2]])).toBe('[sh]ort');
  });

  it('never cuts a surrogate pair in half', () => {
    const text = 'a😀b';
    // 😀 is two UTF-16 units at [1, 3): a range starting inside it starts before it.
    expect(render(text, [[2, 4]])).toBe('a[😀b]');
    expect(render(text, [[0, 2]])).toBe('[a]😀b');
  });

  it('keeps markup as text (React renders it escaped)', () => {
    const parts = splitHighlights('<img src=x onerror=alert(1)>', [[1, 4]]);
    expect(parts.map((p) => p.text).join('')).toBe('<img src=x onerror=alert(1)>');
    expect(parts[1]).toEqual({ text: 'img', marked: true });
  });
});

describe('toHistoryFilter', () => {
  const now = new Date(2026, 10, 30, 15, 30).getTime();

  it('asks for everything when nothing is chosen', () => {
    expect(toHistoryFilter(EMPTY_FILTER, now)).toEqual({ ok: true, filter: {} });
    expect(isFilterEmpty(EMPTY_FILTER)).toBe(true);
    expect(isFilterEmpty({ ...EMPTY_FILTER, range: 'custom' })).toBe(true);
    expect(isFilterEmpty({ ...EMPTY_FILTER, range: 'custom', to: '2026-01-01' })).toBe(false);
    expect(isFilterEmpty({ ...EMPTY_FILTER, tool: 'move' })).toBe(false);
  });

  it('sends statuses in one fixed order, without repeats, and the tool', () => {
    const mapped = toHistoryFilter(
      { ...EMPTY_FILTER, statuses: ['waiting', 'completed', 'waiting', 'failed'], tool: 'move' },
      now,
    );
    expect(mapped).toEqual({ ok: true, filter: { statuses: ['completed', 'failed', 'waiting'], tool: 'move' } });
  });

  it('turns presets into a start time', () => {
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: '7d' }, now)).toEqual({
      ok: true,
      filter: { from: now - 7 * DAY_MS },
    });
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'today' }, now)).toEqual({
      ok: true,
      filter: { from: new Date(2026, 10, 30).getTime() },
    });
  });

  it('includes both days of a custom range, in local time, and allows either end alone', () => {
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '2026-11-01', to: '2026-11-03' }, now)).toEqual({
      ok: true,
      filter: { from: new Date(2026, 10, 1).getTime(), to: new Date(2026, 10, 4).getTime() },
    });
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '', to: '2026-12-31' }, now)).toEqual({
      ok: true,
      filter: { to: new Date(2027, 0, 1).getTime() },
    });
    // A custom range with no dates yet filters nothing.
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'custom' }, now)).toEqual({ ok: true, filter: {} });
  });

  it('refuses a range that ends before it starts, or a date that does not exist', () => {
    const reversed = toHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '2026-11-05', to: '2026-11-04' }, now);
    expect(reversed).toEqual({ ok: false, problem: 'The start date is after the end date.' });
    // One day alone is a valid range.
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '2026-11-05', to: '2026-11-05' }, now).ok).toBe(
      true,
    );
    expect(toHistoryFilter({ ...EMPTY_FILTER, range: 'custom', from: '2026-02-31' }, now).ok).toBe(false);
  });

  it('local days', () => {
    expect(localDayStart('2026-03-29')).toBe(new Date(2026, 2, 29).getTime());
    expect(localDayStart('2026-12-31', 1)).toBe(new Date(2027, 0, 1).getTime());
    expect(localDayStart('31/12/2026')).toBeNull();
    expect(startOfLocalDay(new Date(2026, 0, 2, 23, 59).getTime())).toBe(new Date(2026, 0, 2).getTime());
  });
});

describe('paging and updates', () => {
  it('appends a page, skipping tasks already loaded', () => {
    const merged = mergeHistoryPage([entry('a'), entry('b')], [entry('b'), entry('c'), entry('c')]);
    expect(merged.map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('asks for one page near the end, and more after a long jump, within the Host limit', () => {
    expect(pageLimitFor(250, 200)).toBe(200);
    expect(pageLimitFor(900, 200)).toBe(800);
    expect(pageLimitFor(9000, 200)).toBe(1000);
  });

  it('refreshes a loaded entry in place and keeps its tools', () => {
    const list = [entry('a', { tools: ['move'], waitingCalls: 1 }), entry('b')];
    const next = applyTaskUpdate(list, makeTask({ id: 'a', title: 'Renamed', status: 'completed' }));
    expect(next?.[0]).toMatchObject({ id: 'a', title: 'Renamed', status: 'completed', tools: ['move'] });
    expect(next?.[1]).toBe(list[1]);
    expect(applyTaskUpdate(list, makeTask({ id: 'zzz' }))).toBeNull();
  });
});

describe('selection', () => {
  const entries = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));

  it('toggles one task, returning the same set when nothing changes', () => {
    const none = new Set<string>();
    const one = toggleSelection(none, 'a', true);
    expect([...one]).toEqual(['a']);
    expect(toggleSelection(one, 'a', true)).toBe(one);
    expect([...toggleSelection(one, 'a', false)]).toEqual([]);
  });

  it('selects or clears a range from the anchor, in either direction', () => {
    expect([...selectRange(new Set(['a']), entries, 'b', 'd', true)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...selectRange(new Set(['a', 'b', 'c', 'd', 'e']), entries, 'd', 'b', false)].sort()).toEqual(['a', 'e']);
    // Without an anchor (or one no longer loaded) a Shift-click is a plain click.
    expect([...selectRange(new Set(), entries, null, 'c', true)]).toEqual(['c']);
    expect([...selectRange(new Set(), entries, 'gone', 'c', true)]).toEqual(['c']);
  });
});

describe('visibleRange', () => {
  it('renders the rows in view and a few either side', () => {
    expect(visibleRange(0, 600, 60, 10_000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(60 * 5000, 600, 60, 10_000, 5)).toEqual({ start: 4995, end: 5015 });
  });

  it('stays inside the list at its ends and when it is short or empty', () => {
    expect(visibleRange(60 * 9995, 600, 60, 10_000, 5)).toEqual({ start: 9990, end: 10_000 });
    expect(visibleRange(0, 600, 60, 3)).toEqual({ start: 0, end: 3 });
    expect(visibleRange(0, 600, 60, 0)).toEqual({ start: 0, end: 0 });
    // Scrolled past the end (the list just got shorter): still a window on the last rows.
    expect(visibleRange(60 * 500, 600, 60, 10, 2)).toEqual({ start: 9, end: 10 });
  });
});

describe('words', () => {
  it('reports an import', () => {
    expect(importSummary({ imported: 2, skipped: 0, messages: 10, toolCalls: 1 })).toBe(
      'Imported 2 tasks (10 messages, 1 tool call).',
    );
    expect(importSummary({ imported: 0, skipped: 1, messages: 0, toolCalls: 0 })).toBe(
      'Imported no new tasks; 1 task was already here and kept as it was.',
    );
  });

  it('names a retention period', () => {
    expect(retentionLabel(null)).toBe('Keep everything');
    expect(retentionLabel(30)).toBe('Delete tasks older than 30 days');
    expect(retentionLabel(365)).toBe('Delete tasks older than a year');
  });

  it('adds up a timeline', () => {
    const stats = { promptTokens: 10, completionTokens: 5, ttftMs: 100, tokensPerSecond: 20 };
    expect(
      timelineTotals({
        messages: [makeMessage({ stats }), makeMessage({ id: 'm2', stats: null })],
        toolCalls: [
          makeToolCall({ startedAt: 1000, finishedAt: 1250 }),
          makeToolCall({ id: 'c2', startedAt: 2000, finishedAt: null }),
        ],
      }),
    ).toEqual({ tokens: 15, toolTime: 250 });
    expect(timelineTotals({ messages: [], toolCalls: [] })).toEqual({ tokens: 0, toolTime: null });
  });
});
