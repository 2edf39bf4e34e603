import { memo } from 'react';
import type { AppError, EgressEvent, NetworkRule } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { formatAuditTime } from '../../ui/toolFormat.js';
import { useAppStore } from '../../store/StoreContext.js';
import { ledgerCountLine } from '../../store/privacyView.js';
import { featureShortLabel } from './featureLabels.js';

/** The ledger: every connection any part of Homebody attempted, newest first, live. */
export function ConnectionsSection() {
  const events = useAppStore((s) => s.ledgerEvents);
  const total = useAppStore((s) => s.ledgerTotal);
  const allowedCount = useAppStore((s) => s.ledgerAllowedCount);
  const allowedOnly = useAppStore((s) => s.ledgerAllowedOnly);
  const loading = useAppStore((s) => s.ledgerLoading);
  const error = useAppStore((s) => s.ledgerError);
  const rowErrors = useAppStore((s) => s.ledgerAllowErrors);
  const rules = useAppStore((s) => s.privacyNetwork?.rules);
  const networkBusy = useAppStore((s) => s.privacyNetworkBusy);
  const setAllowedOnly = useAppStore((s) => s.setLedgerAllowedOnly);
  const loadLedger = useAppStore((s) => s.loadLedger);
  const loadOlder = useAppStore((s) => s.loadOlderLedger);
  const allowFromLedger = useAppStore((s) => s.allowFromLedger);

  return (
    <section className="settings-section" aria-labelledby="connections-heading" data-testid="privacy-connections">
      <div className="privacy-section-head">
        <h2 id="connections-heading">Connections</h2>
        <Button variant="ghost" data-testid="ledger-refresh" disabled={loading} onClick={() => void loadLedger()}>
          Refresh
        </Button>
      </div>
      <p className="muted">
        Every connection any part of Homebody attempted, allowed or blocked, newest first. Queries are never kept.
      </p>
      <div className="ledger-controls">
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="ledger-allowed-only"
            checked={allowedOnly}
            onChange={(e) => void setAllowedOnly(e.target.checked)}
          />
          <span>Allowed only</span>
        </label>
        {total !== null && (
          <span className="muted" role="status" data-testid="ledger-count">
            {ledgerCountLine(total, allowedCount, allowedOnly)}
          </span>
        )}
      </div>
      {error && <ErrorNotice error={error} testId="ledger-error" />}
      {total === null ? (
        <p className="muted">{loading ? 'Loading…' : ''}</p>
      ) : events.length === 0 ? (
        <p className="empty-hint muted" data-testid="ledger-empty">
          {allowedOnly
            ? 'No connection was allowed: nothing has left this computer.'
            : 'No connection attempted yet: Homebody has not tried to reach the network.'}
        </p>
      ) : (
        <div className="ledger-scroll">
          <table className="audit-table ledger-table" data-testid="ledger-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Part of the app or tool</th>
                <th scope="col">Host</th>
                <th scope="col">Port</th>
                <th scope="col">Result</th>
                <th scope="col">Bytes</th>
              </tr>
            </thead>
            {events.map((event) => (
              <LedgerRow
                key={event.id}
                event={event}
                ruleExists={hasRule(rules, event)}
                busy={networkBusy}
                error={rowErrors[event.id] ?? null}
                onAllow={(rule) => void allowFromLedger(event.id, rule)}
              />
            ))}
          </table>
        </div>
      )}
      {total !== null && events.length < total && (
        <Button data-testid="ledger-load-older" onClick={() => void loadOlder()} disabled={loading}>
          Load older
        </Button>
      )}
    </section>
  );
}

function hasRule(rules: readonly NetworkRule[] | undefined, event: EgressEvent): boolean {
  return (rules ?? []).some((r) => r.feature === event.feature && (r.host === event.host || r.host === '*'));
}

const LedgerRow = memo(function LedgerRow({
  event,
  ruleExists,
  busy,
  error,
  onAllow,
}: {
  event: EgressEvent;
  ruleExists: boolean;
  busy: boolean;
  error: AppError | null;
  onAllow: (rule: NetworkRule) => void;
}) {
  const feature = event.feature;
  const canAllow = !event.allowed && feature !== null && event.host !== '';
  // One tbody per connection: its figures on one line, why it was allowed or blocked (and the way to allow it) below.
  return (
    <tbody
      className="ledger-event"
      data-testid="ledger-row"
      data-event-id={event.id}
      data-allowed={event.allowed}
      data-host={event.host}
      data-feature={feature ?? ''}
      data-via={event.via}
    >
      <tr>
        <td>
          <time dateTime={new Date(event.at).toISOString()}>{formatAuditTime(event.at)}</time>
        </td>
        <td>
          {event.source}
          {event.via !== 'guard' && <span className="tool-description">seen by the {event.via}</span>}
        </td>
        <td>
          <code className="ledger-host" title={event.url}>
            {event.host || event.url}
          </code>
        </td>
        <td>{event.port || ''}</td>
        <td>
          <span className={`badge ${event.allowed ? 'badge-allowed' : 'badge-blocked'}`} data-testid="ledger-result">
            {event.allowed ? 'Allowed' : 'Blocked'}
          </span>
        </td>
        <td data-testid="ledger-bytes">
          {event.sent != null && (
            <span className="ledger-sent" title="sent">
              ↑ {formatBytes(event.sent)}{' '}
            </span>
          )}
          {event.sent != null && event.bytes != null ? '↓ ' : ''}
          {formatBytes(event.bytes) ?? ''}
        </td>
      </tr>
      {event.carried && (
        <tr className="ledger-detail">
          <td colSpan={6}>
            <span className="muted" data-testid="ledger-carried">
              Carried {event.carried}
            </span>
          </td>
        </tr>
      )}
      {(event.reason || canAllow) && (
        <tr className="ledger-detail">
          <td colSpan={6}>
            {event.reason && (
              <span className="ledger-reason muted" data-testid="ledger-reason">
                {event.reason}
              </span>
            )}
            {canAllow && (
              <span className="ledger-allow">
                {ruleExists ? (
                  <span className="muted" data-testid="ledger-rule-exists">
                    A rule allows it now.
                  </span>
                ) : (
                  <Button
                    variant="secondary"
                    data-testid="ledger-allow"
                    disabled={busy}
                    onClick={() => onAllow({ feature, host: event.host })}
                  >
                    Allow {event.host} for {featureShortLabel(feature)}
                  </Button>
                )}
                {error && <ErrorNotice error={error} testId="ledger-allow-error" />}
              </span>
            )}
          </td>
        </tr>
      )}
    </tbody>
  );
});
