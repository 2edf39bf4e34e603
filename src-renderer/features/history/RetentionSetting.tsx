import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { DAY_MS, RETENTION_PRESETS, countLabel, retentionLabel } from '../../store/historyView.js';

type Choice = 'forever' | 'custom' | `${number}`;
const MAX_DAYS = 36_500;

function choiceFor(days: number | null): Choice {
  if (days === null) return 'forever';
  return RETENTION_PRESETS.includes(days) ? `${days}` : 'custom';
}

/** The chosen number of days, or the reason the custom field cannot be used. */
function daysFor(choice: Choice, custom: string): { ok: true; days: number | null } | { ok: false; problem: string } {
  if (choice === 'forever') return { ok: true, days: null };
  if (choice !== 'custom') return { ok: true, days: Number(choice) };
  const days = Number(custom);
  if (!/^\d+$/.test(custom.trim()) || !Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    return { ok: false, problem: `Enter a whole number of days from 1 to ${MAX_DAYS.toLocaleString()}.` };
  return { ok: true, days };
}

/**
 * How long tasks are kept. Choosing a period deletes what is older at once (and the Host keeps applying it), so
 * when that deletes anything the user is told how many first, and asked.
 */
export function RetentionSetting() {
  const retention = useAppStore((s) => s.historyRetention);
  const setRetention = useAppStore((s) => s.setRetention);
  const countHistoryBefore = useAppStore((s) => s.countHistoryBefore);
  const id = useId();
  const [choice, setChoice] = useState<Choice>('forever');
  const [custom, setCustom] = useState('');
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<string | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [confirm, setConfirm] = useState<{ days: number; count: number } | null>(null);

  // Show what the Host has whenever it changes (loaded, or applied from here).
  useEffect(() => {
    if (retention === undefined) return;
    setChoice(choiceFor(retention));
    setCustom(retention !== null && !RETENTION_PRESETS.includes(retention) ? String(retention) : '');
  }, [retention]);

  const wanted = daysFor(choice, custom);
  const unchanged = retention === undefined || (wanted.ok && wanted.days === retention);

  const apply = async (days: number | null): Promise<AppError | null> => {
    const outcome = await setRetention(days);
    if (!outcome.ok) return outcome.error;
    const { deleted } = outcome.value;
    setReport(
      days === null
        ? 'Homebody keeps every task.'
        : `${retentionLabel(days)}. ${deleted > 0 ? `Deleted ${countLabel(deleted, 'task')} now.` : 'No task was old enough to delete.'}`,
    );
    return null;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!wanted.ok || unchanged) return;
    setBusy(true);
    setError(null);
    setReport(null);
    if (wanted.days === null) {
      setError(await apply(null));
      setBusy(false);
      return;
    }
    const count = await countHistoryBefore(Date.now() - wanted.days * DAY_MS);
    if (!count.ok) setError(count.error);
    else if (count.value > 0) setConfirm({ days: wanted.days, count: count.value });
    else setError(await apply(wanted.days));
    setBusy(false);
  };

  return (
    <section className="history-retention" aria-labelledby={`${id}-heading`}>
      <form className="history-retention-form" onSubmit={(e) => void onSubmit(e)}>
        <h2 id={`${id}-heading`} className="history-retention-heading">
          Keep history
        </h2>
        <select
          data-testid="history-retention"
          aria-labelledby={`${id}-heading`}
          value={choice}
          disabled={retention === undefined}
          onChange={(e) => {
            setChoice(e.target.value as Choice);
            setReport(null);
          }}
        >
          <option value="forever">Forever</option>
          {RETENTION_PRESETS.map((days) => (
            <option key={days} value={String(days)}>
              {days === 365 ? '1 year' : `${days} days`}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
        {choice === 'custom' && (
          <label className="field-inline">
            <input
              type="number"
              data-testid="history-retention-days"
              className="history-retention-days"
              min={1}
              max={MAX_DAYS}
              step={1}
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
              aria-invalid={!wanted.ok && custom !== ''}
            />
            days
          </label>
        )}
        <Button type="submit" data-testid="history-retention-apply" disabled={busy || unchanged || !wanted.ok}>
          Apply
        </Button>
        <p className="muted history-retention-report" role="status" data-testid="history-retention-report">
          {report ??
            (retention === undefined
              ? ''
              : retention === null
                ? 'Tasks are kept until you delete them.'
                : `${retentionLabel(retention)}, checked every hour.`)}
        </p>
      </form>
      {!wanted.ok && custom !== '' && <p className="field-problem">{wanted.problem}</p>}
      {error && <ErrorNotice error={error} onDismiss={() => setError(null)} testId="history-retention-error" />}
      {confirm && (
        <ConfirmDialog
          title={`Delete ${countLabel(confirm.count, 'task')} now?`}
          confirmLabel={`Delete ${countLabel(confirm.count, 'task')}`}
          onClose={() => setConfirm(null)}
          onConfirm={() => apply(confirm.days)}
        >
          <p>
            {countLabel(confirm.count, 'task was', 'tasks were')} last active more than{' '}
            {countLabel(confirm.days, 'day')} ago. They are erased now, and from now on every task is erased once it is
            that old. <strong>This cannot be undone.</strong>
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
