import { memo, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { callOutcomeWords, taskStatusWords, type HistoryEntry } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { formatRelativeTime, isoDateTime } from '../../ui/format.js';
import { formatAuditTime } from '../../ui/toolFormat.js';
import { useNow } from '../../ui/useNow.js';
import { useAppStore, useAppStoreApi } from '../../store/StoreContext.js';
import { EMPTY_FILTER, countLabel, isFilterEmpty, visibleRange } from '../../store/historyView.js';
import {
  selectHistoryEntries,
  selectHistoryFilter,
  selectHistorySelection,
  selectHistoryTotal,
} from '../../store/selectors.js';

/** What a row measures before the first one is rendered; the real height is measured from the page's CSS. */
const ROW_HEIGHT_GUESS = 64;
/** Start fetching the next page this many rows before the window reaches the end of what is loaded. */
const PREFETCH_ROWS = 40;

type Control = 'select' | 'open';

/**
 * The matching tasks in a window: only the rows in view (and a few either side) are in the DOM, so ten thousand
 * tasks scroll like ten. Rows have one fixed height; the list's full height comes from the total, and pages are
 * fetched with the Host's cursor as the window nears the end of what is loaded. Up/Down, Page Up/Down, Home
 * and End move between rows; one row at a time is in the Tab order.
 */
export function HistoryList({ returnTo }: { returnTo: string | null }) {
  const entries = useAppStore(selectHistoryEntries);
  const total = useAppStore(selectHistoryTotal);
  const filter = useAppStore(selectHistoryFilter);
  const selection = useAppStore(selectHistorySelection);
  const loaded = useAppStore((s) => s.historyLoaded);
  const loading = useAppStore((s) => s.historyLoading);
  const hasMore = useAppStore((s) => s.historyNext !== null);
  const loadMoreHistory = useAppStore((s) => s.loadMoreHistory);
  const selectHistory = useAppStore((s) => s.selectHistory);
  const openTimeline = useAppStore((s) => s.openTimeline);
  const setHistoryFilter = useAppStore((s) => s.setHistoryFilter);
  const store = useAppStoreApi();
  const now = useNow();

  const scrollRef = useRef<HTMLDivElement>(null);
  const sizerRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef<HTMLUListElement>(null);
  const [scrollTop, setScrollTop] = useState(() => store.getState().historyScrollTop);
  const lastScrollTop = useRef(scrollTop);
  const [viewport, setViewport] = useState(600);
  const [rowHeight, setRowHeight] = useState(ROW_HEIGHT_GUESS);
  const [activeIndex, setActiveIndex] = useState(0);
  const pendingFocus = useRef<{ index: number; control: Control } | null>(null);

  const count = Math.max(entries.length, total ?? 0);
  const { start, end } = visibleRange(scrollTop, viewport, rowHeight, count);

  // The full height and the window's offset are written through the CSSOM: the CSP allows no style attributes.
  useLayoutEffect(() => {
    if (sizerRef.current) sizerRef.current.style.height = `${count * rowHeight}px`;
  }, [count, rowHeight]);
  useLayoutEffect(() => {
    if (rowsRef.current) rowsRef.current.style.transform = `translateY(${start * rowHeight}px)`;
  }, [start, rowHeight]);

  // Back from a timeline: the list is where it was, and the row that was opened has the focus again.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = lastScrollTop.current;
    const index = returnTo === null ? -1 : store.getState().historyEntries.findIndex((e) => e.id === returnTo);
    if (index >= 0) {
      setActiveIndex(index);
      pendingFocus.current = { index, control: 'open' };
    }
    return () => store.getState().setHistoryScrollTop(lastScrollTop.current);
  }, [store, returnTo]);

  // Another filter: a new list, from the top.
  const firstFilter = useRef(filter);
  useEffect(() => {
    if (filter === firstFilter.current) return;
    firstFilter.current = filter;
    const el = scrollRef.current;
    if (el) el.scrollTop = 0;
    lastScrollTop.current = 0;
    setScrollTop(0);
    setActiveIndex(0);
  }, [filter]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  // Rows have one height in CSS; measure it once rendered (fonts and zoom change it).
  useLayoutEffect(() => {
    const row = rowsRef.current?.firstElementChild;
    if (!row) return;
    const height = row.getBoundingClientRect().height;
    if (height > 0 && Math.abs(height - rowHeight) > 0.5) setRowHeight(height);
  });

  useEffect(() => {
    if (hasMore && !loading && end + PREFETCH_ROWS > entries.length) void loadMoreHistory(end + PREFETCH_ROWS);
  }, [hasMore, loading, end, entries.length, loadMoreHistory]);

  // A row the keyboard moved to is focused once it is rendered (and loaded).
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    const control = rowsRef.current?.querySelector<HTMLElement>(
      `[data-index="${pending.index}"] [data-control="${pending.control}"]`,
    );
    if (control) {
      pendingFocus.current = null;
      control.focus({ preventScroll: true });
    }
  });

  const scrollIntoView = (index: number) => {
    const el = scrollRef.current;
    if (!el) return;
    const top = index * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    lastScrollTop.current = el.scrollTop;
    setScrollTop(el.scrollTop);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    const row = target.closest<HTMLElement>('[data-index]');
    if (!row || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number(row.dataset.index);
    const page = Math.max(1, Math.floor(viewport / rowHeight) - 1);
    let next: number;
    switch (event.key) {
      case 'ArrowDown':
        next = index + 1;
        break;
      case 'ArrowUp':
        next = index - 1;
        break;
      case 'PageDown':
        next = index + page;
        break;
      case 'PageUp':
        next = index - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = count - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    next = Math.max(0, Math.min(count - 1, next));
    const control: Control = target.dataset.control === 'select' ? 'select' : 'open';
    pendingFocus.current = { index: next, control };
    setActiveIndex(next);
    scrollIntoView(next);
  };

  // The scroll container is always there, empty or not: its size is observed from the first render.
  const rows = [];
  for (let index = start; index < end; index++) {
    const entry = entries[index];
    rows.push(
      entry ? (
        <HistoryRow
          key={entry.id}
          entry={entry}
          index={index}
          count={count}
          selected={selection.has(entry.id)}
          tabbable={index === activeIndex || (activeIndex >= count && index === start)}
          now={now}
          onSelect={selectHistory}
          onOpen={openTimeline}
          onFocusRow={setActiveIndex}
        />
      ) : (
        <li key={`placeholder-${index}`} className="history-row history-row-placeholder" data-index={index}>
          <span className="muted">Loading…</span>
        </li>
      ),
    );
  }

  return (
    <div
      ref={scrollRef}
      className="history-scroll"
      data-testid="history-list"
      aria-busy={loading || !loaded}
      onScroll={(e) => {
        lastScrollTop.current = e.currentTarget.scrollTop;
        setScrollTop(e.currentTarget.scrollTop);
      }}
    >
      {loaded && count === 0 && (
        <div className="history-empty" data-testid="history-empty">
          {isFilterEmpty(filter) ? (
            <p className="muted">No tasks yet. Every conversation with Homebody is kept here.</p>
          ) : (
            <>
              <p className="muted">No tasks match these filters.</p>
              <Button variant="ghost" onClick={() => setHistoryFilter(EMPTY_FILTER)}>
                Clear filters
              </Button>
            </>
          )}
        </div>
      )}
      <div ref={sizerRef} className="history-sizer">
        <ul
          ref={rowsRef}
          className="history-rows"
          aria-label={total === null ? 'Tasks' : `Tasks, ${countLabel(total, 'task')}`}
          onKeyDown={onKeyDown}
        >
          {rows}
        </ul>
      </div>
    </div>
  );
}

const HistoryRow = memo(function HistoryRow({
  entry,
  index,
  count,
  selected,
  tabbable,
  now,
  onSelect,
  onOpen,
  onFocusRow,
}: {
  entry: HistoryEntry;
  index: number;
  count: number;
  selected: boolean;
  tabbable: boolean;
  now: number;
  onSelect: (id: string, on: boolean, range: boolean) => void;
  onOpen: (id: string) => Promise<void>;
  onFocusRow: (index: number) => void;
}) {
  const title = entry.title || 'Untitled task';
  const tabIndex = tabbable ? 0 : -1;
  const openInChat = useAppStore((s) => s.openTask);
  const meta = [
    taskStatusWords(entry),
    // A task can end "Completed" with calls that did not run or failed: that is said beside it.
    ...callOutcomeWords(entry),
    countLabel(entry.messageCount, 'message'),
    entry.tools.length > 0 ? entry.tools.join(', ') : null,
  ].filter(Boolean);
  return (
    <li
      className={`history-row${selected ? ' is-selected' : ''}`}
      data-testid="history-row"
      data-task-id={entry.id}
      data-status={entry.status}
      data-index={index}
      aria-setsize={count}
      aria-posinset={index + 1}
      onFocus={() => onFocusRow(index)}
    >
      <input
        type="checkbox"
        className="history-row-select"
        data-testid="history-row-select"
        data-control="select"
        tabIndex={tabIndex}
        checked={selected}
        aria-label={`Select “${title}”`}
        onChange={(e) => {
          const native = e.nativeEvent;
          onSelect(entry.id, e.target.checked, 'shiftKey' in native && native.shiftKey === true);
        }}
      />
      <button
        type="button"
        className="history-row-open"
        data-testid="history-row-open"
        data-control="open"
        tabIndex={tabIndex}
        onClick={() => void onOpen(entry.id)}
        aria-label={`${title}, ${meta.join(', ')}, last active ${formatAuditTime(entry.updatedAt)}. Open its timeline.`}
      >
        <span className="history-row-title">{title}</span>
        <span className="history-row-meta">
          <time dateTime={isoDateTime(entry.updatedAt)} title={formatAuditTime(entry.updatedAt)}>
            {formatRelativeTime(entry.updatedAt, now)}
          </time>
          {meta.map((part, i) => (
            <span key={i}> · {part}</span>
          ))}
        </span>
      </button>
      {entry.waitingCalls > 0 && (
        // The way to what the task waits for: the chat opens it at its prompt, or at its call in the queue.
        <button
          type="button"
          className="badge badge-warning history-row-waiting"
          data-testid="history-row-waiting"
          tabIndex={tabIndex}
          onClick={() => void openInChat(entry.id)}
        >
          Waiting for you{entry.waitingCalls > 1 ? ` (${entry.waitingCalls})` : ''}: answer in the chat
        </button>
      )}
    </li>
  );
});
