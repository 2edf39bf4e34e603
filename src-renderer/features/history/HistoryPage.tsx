import { useEffect, useState } from 'react';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore, useAppStoreApi } from '../../store/StoreContext.js';
import { countLabel, isFilterEmpty } from '../../store/historyView.js';
import { selectHistoryFilter, selectHistoryTotal, selectTimelineTaskId } from '../../store/selectors.js';
import { HistoryFilters } from './HistoryFilters.js';
import { HistoryList } from './HistoryList.js';
import { HistoryToolbar } from './HistoryToolbar.js';
import { RetentionSetting } from './RetentionSetting.js';
import { TaskTimeline } from './TaskTimeline.js';

/** Every task, filtered, selected, exported, imported and deleted; or the timeline of one of them. */
export function HistoryPage() {
  const timelineTaskId = useAppStore(selectTimelineTaskId);
  const closeTimeline = useAppStore((s) => s.closeTimeline);
  const store = useAppStoreApi();
  /** The task whose timeline was just closed: its row takes the focus back. */
  const [returnTo, setReturnTo] = useState<string | null>(null);

  // The list is kept while the user is on other pages (events keep it current); a first visit loads it.
  useEffect(() => {
    const { historyLoaded, historyStale, loadHistory, loadRetention } = store.getState();
    if (!historyLoaded || historyStale) void loadHistory();
    void loadRetention();
  }, [store]);

  if (timelineTaskId !== null) {
    return (
      <TaskTimeline
        taskId={timelineTaskId}
        onBack={() => {
          setReturnTo(timelineTaskId);
          closeTimeline();
        }}
      />
    );
  }
  return <HistoryBrowser returnTo={returnTo} />;
}

function HistoryBrowser({ returnTo }: { returnTo: string | null }) {
  const total = useAppStore(selectHistoryTotal);
  const filter = useAppStore(selectHistoryFilter);
  const error = useAppStore((s) => s.historyError);
  const stale = useAppStore((s) => s.historyStale);
  const loadHistory = useAppStore((s) => s.loadHistory);
  const openSearch = useAppStore((s) => s.openSearch);
  const filtered = !isFilterEmpty(filter);

  return (
    <main className="main history-page" data-testid="history-page" aria-labelledby="history-heading">
      <header className="history-header">
        <div className="history-heading">
          <h1 id="history-heading">History</h1>
          <p className="muted" role="status" data-testid="history-total">
            {total === null
              ? 'Loading…'
              : filtered
                ? `${countLabel(total, 'task')} ${total === 1 ? 'matches' : 'match'} these filters`
                : countLabel(total, 'task')}
          </p>
        </div>
        <Button
          data-testid="history-search-button"
          aria-keyshortcuts="Control+K Meta+K"
          title="Search the history (Ctrl+K)"
          onClick={openSearch}
        >
          Search… <kbd>Ctrl K</kbd>
        </Button>
      </header>
      <HistoryFilters />
      <HistoryToolbar />
      {error && <ErrorNotice error={error} testId="history-error" className="history-error" />}
      {stale && (
        <p className="history-stale" role="status">
          <span>The history has changed since this list was loaded.</span>
          <Button variant="ghost" data-testid="history-refresh" onClick={() => void loadHistory()}>
            Show the latest
          </Button>
        </p>
      )}
      <HistoryList returnTo={returnTo} />
      <RetentionSetting />
    </main>
  );
}
