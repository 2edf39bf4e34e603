import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { taskStatusWords, type SearchHit, type TaskSummary } from '../../../src-shared/contract/index.js';
import { Dialog } from '../../ui/Dialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { HighlightedSnippet } from '../../ui/HighlightedSnippet.js';
import { formatRelativeTime } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { selectSearchOpen, selectTasks } from '../../store/selectors.js';
import { SEARCH_LIMIT } from '../../store/searchSlice.js';

/** Waits this long after the last keystroke before searching: one request per pause, not per letter. */
export const SEARCH_DEBOUNCE_MS = 100;
const RECENT_COUNT = 8;

type Option = { key: string; kind: 'hit'; hit: SearchHit } | { key: string; kind: 'recent'; task: TaskSummary };

/** Search from anywhere (Ctrl+K / Cmd+K): the whole history by its words, opened at the matching message. */
export function SearchPalette() {
  const open = useAppStore(selectSearchOpen);
  return open ? <SearchDialog /> : null;
}

function SearchDialog() {
  const query = useAppStore((s) => s.searchQuery);
  const hits = useAppStore((s) => s.searchHits);
  const state = useAppStore((s) => s.searchState);
  const error = useAppStore((s) => s.searchError);
  const tasks = useAppStore(selectTasks);
  const setSearchQuery = useAppStore((s) => s.setSearchQuery);
  const runSearch = useAppStore((s) => s.runSearch);
  const closeSearch = useAppStore((s) => s.closeSearch);
  const openSearchHit = useAppStore((s) => s.openSearchHit);
  const openTask = useAppStore((s) => s.openTask);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const ids = useId();
  const titleId = `${ids}-title`;
  const listId = `${ids}-results`;
  const [active, setActive] = useState(0);
  const firstSearch = useRef(true);
  const [now] = useState(() => Date.now());

  // The first search (the query kept from last time) runs at once; later ones wait for a pause in typing.
  useEffect(() => {
    if (firstSearch.current) {
      firstSearch.current = false;
      inputRef.current?.select();
      if (query.trim()) void runSearch(query);
      return;
    }
    const timer = window.setTimeout(() => void runSearch(query), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [query, runSearch]);

  const typed = query.trim().length > 0;
  const options: Option[] = useMemo(
    () =>
      typed
        ? hits.map((hit) => ({ key: `h:${hit.taskId}`, kind: 'hit' as const, hit }))
        : tasks.slice(0, RECENT_COUNT).map((task) => ({ key: `r:${task.id}`, kind: 'recent' as const, task })),
    [typed, hits, tasks],
  );

  // New results: the best one is the active one.
  useEffect(() => setActive(0), [options]);

  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (option: Option | undefined) => {
    if (!option) return;
    if (option.kind === 'hit') void openSearchHit(option.hit);
    else {
      closeSearch();
      void openTask(option.task.id);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (count) setActive((i) => (i + 1) % count);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (count) setActive((i) => (i - 1 + count) % count);
        return;
      case 'PageDown':
        event.preventDefault();
        if (count) setActive((i) => Math.min(count - 1, i + 5));
        return;
      case 'PageUp':
        event.preventDefault();
        if (count) setActive((i) => Math.max(0, i - 5));
        return;
      case 'Enter':
        if (event.nativeEvent.isComposing) return;
        event.preventDefault();
        choose(options[active]);
        return;
      default:
        if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
          // The shortcut again while open: start a new query.
          event.preventDefault();
          event.stopPropagation();
          event.currentTarget.select();
        }
    }
  };

  const status = !typed
    ? tasks.length
      ? 'Recent tasks'
      : 'Type to search your history.'
    : state === 'searching' && hits.length === 0
      ? 'Searching…'
      : state === 'done' && hits.length === 0 && !error
        ? `No matches for “${query.trim()}”.`
        : hits.length >= SEARCH_LIMIT
          ? `The best ${hits.length} matches`
          : hits.length === 1
            ? '1 match'
            : `${hits.length} matches`;

  const activeOption = options[active];
  return (
    <Dialog
      labelledBy={titleId}
      onClose={closeSearch}
      initialFocus={inputRef}
      className="search-dialog"
      testId="search-dialog"
    >
      <h2 id={titleId} className="sr-only">
        Search history
      </h2>
      <div className="search-field">
        <input
          ref={inputRef}
          type="search"
          role="combobox"
          data-testid="search-input"
          className="search-input"
          placeholder="Search messages and tool calls…"
          aria-label="Search history"
          aria-autocomplete="list"
          aria-expanded={options.length > 0}
          aria-controls={listId}
          aria-activedescendant={activeOption ? `${listId}-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          maxLength={500}
          value={query}
          onChange={(e) => setSearchQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
      </div>
      <p
        className="search-status muted"
        role="status"
        data-testid="search-status"
        data-state={state}
        aria-busy={state === 'searching'}
      >
        {status}
      </p>
      {error && <ErrorNotice error={error} testId="search-error" className="search-error" />}
      <ul ref={listRef} id={listId} role="listbox" aria-label="Results" className="search-results">
        {options.map((option, i) => (
          <li
            key={option.key}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="search-result"
            data-testid={option.kind === 'hit' ? 'search-result' : 'search-recent'}
            data-task-id={option.kind === 'hit' ? option.hit.taskId : option.task.id}
            data-target-kind={option.kind === 'hit' ? option.hit.target.kind : undefined}
            data-target-id={option.kind === 'hit' ? option.hit.target.id : undefined}
            onMouseMove={() => i !== active && setActive(i)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(option)}
          >
            {option.kind === 'hit' ? (
              <HitView hit={option.hit} now={now} />
            ) : (
              <RecentView task={option.task} now={now} />
            )}
          </li>
        ))}
      </ul>
      <p className="search-keys muted" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to open · <kbd>Esc</kbd> to close
      </p>
    </Dialog>
  );
}

function HitView({ hit, now }: { hit: SearchHit; now: number }) {
  const where = hit.target.kind === 'toolCall' ? 'in a tool call' : null;
  return (
    <>
      <span className="search-result-title">{hit.title || 'Untitled task'}</span>
      <HighlightedSnippet className="search-result-snippet" text={hit.snippet} highlights={hit.highlights} />
      <span className="search-result-meta">
        {[
          formatRelativeTime(hit.updatedAt, now),
          taskStatusWords(hit),
          where,
          hit.matches > 1 ? `${hit.matches} matches` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </>
  );
}

function RecentView({ task, now }: { task: TaskSummary; now: number }) {
  return (
    <>
      <span className="search-result-title">{task.title || 'Untitled task'}</span>
      <span className="search-result-meta">
        {formatRelativeTime(task.updatedAt, now)} · {taskStatusWords(task)}
      </span>
    </>
  );
}
