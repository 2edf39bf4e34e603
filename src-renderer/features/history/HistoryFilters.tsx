import { useId } from 'react';
import { Button } from '../../ui/Button.js';
import { useAppStore } from '../../store/StoreContext.js';
import {
  EMPTY_FILTER,
  HISTORY_STATUSES,
  historyStatusLabel,
  isFilterDefault,
  type DateRange,
  type HistoryFilterInput,
} from '../../store/historyView.js';
import { selectHistoryFilter, selectHistoryTools } from '../../store/selectors.js';

const RANGES: readonly { value: DateRange; label: string }[] = [
  { value: 'any', label: 'Any time' },
  { value: 'today', label: 'Today' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '365d', label: 'Last year' },
  { value: 'custom', label: 'Between dates…' },
];

const isRange = (value: string): value is DateRange => RANGES.some((r) => r.value === value);

/** Status, tool and date of last activity; every change reloads the list from its first page. */
export function HistoryFilters() {
  const filter = useAppStore(selectHistoryFilter);
  const tools = useAppStore(selectHistoryTools);
  const setHistoryFilter = useAppStore((s) => s.setHistoryFilter);
  const id = useId();
  const update = (changes: Partial<HistoryFilterInput>) => setHistoryFilter({ ...filter, ...changes });
  // A tool chosen before its last task was deleted stays offered, so the select can show it.
  const toolChoices = filter.tool !== null && !tools.includes(filter.tool) ? [filter.tool, ...tools] : tools;

  return (
    <form className="history-filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <fieldset className="history-statuses">
        <legend>Status</legend>
        {HISTORY_STATUSES.map((status) => (
          <label key={status} className="chip">
            <input
              type="checkbox"
              data-testid={`history-status-${status}`}
              checked={filter.statuses.includes(status)}
              onChange={(e) =>
                update({
                  statuses: e.target.checked
                    ? [...filter.statuses, status]
                    : filter.statuses.filter((s) => s !== status),
                })
              }
            />
            <span>{historyStatusLabel(status)}</span>
          </label>
        ))}
      </fieldset>
      <div className="history-filter-row">
        <label className="field-inline" htmlFor={`${id}-tool`}>
          Tool
        </label>
        <select
          id={`${id}-tool`}
          data-testid="history-tool-filter"
          value={filter.tool ?? ''}
          onChange={(e) => update({ tool: e.target.value || null })}
        >
          <option value="">Any tool</option>
          {toolChoices.map((tool) => (
            <option key={tool} value={tool}>
              {tool}
            </option>
          ))}
        </select>
        <label className="field-inline" htmlFor={`${id}-range`}>
          Last active
        </label>
        <select
          id={`${id}-range`}
          data-testid="history-date-filter"
          value={filter.range}
          onChange={(e) => isRange(e.target.value) && update({ range: e.target.value })}
        >
          {RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
        {filter.range === 'custom' && (
          <>
            <label className="field-inline" htmlFor={`${id}-from`}>
              From
            </label>
            <input
              id={`${id}-from`}
              type="date"
              data-testid="history-date-from"
              value={filter.from}
              max={filter.to || undefined}
              onChange={(e) => update({ from: e.target.value })}
            />
            <label className="field-inline" htmlFor={`${id}-to`}>
              to
            </label>
            <input
              id={`${id}-to`}
              type="date"
              data-testid="history-date-to"
              value={filter.to}
              min={filter.from || undefined}
              onChange={(e) => update({ to: e.target.value })}
            />
          </>
        )}
        {!isFilterDefault(filter) && (
          <Button variant="ghost" data-testid="history-clear-filters" onClick={() => setHistoryFilter(EMPTY_FILTER)}>
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
