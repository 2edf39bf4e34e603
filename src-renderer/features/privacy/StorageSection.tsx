import { useState } from 'react';
import type { StorageItem } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { DeleteAllDialog } from './DeleteAllDialog.js';

/** Every place Homebody keeps data, its size, how secrets are kept, and "Delete all my data". */
export function StorageSection() {
  const report = useAppStore((s) => s.storageReport);
  const loading = useAppStore((s) => s.storageLoading);
  const error = useAppStore((s) => s.storageError);
  const loadStorage = useAppStore((s) => s.loadStorage);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  return (
    <section className="settings-section" aria-labelledby="storage-heading" data-testid="privacy-storage">
      <div className="privacy-section-head">
        <h2 id="storage-heading">Stored on this computer</h2>
        <Button variant="ghost" data-testid="storage-refresh" disabled={loading} onClick={() => void loadStorage()}>
          Refresh
        </Button>
      </div>
      {error && <ErrorNotice error={error} testId="storage-error" />}
      {report === null ? (
        <p className="muted">{loading ? 'Loading…' : ''}</p>
      ) : (
        <>
          <p className="muted">
            Data folder: <code className="folder-path">{report.dataDir}</code> ·{' '}
            <span data-testid="storage-total" data-bytes={report.totalBytes}>
              {formatBytes(report.totalBytes)} in all
            </span>
          </p>
          <table className="audit-table storage-table" data-testid="storage-table">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Where</th>
                <th scope="col">Size</th>
                <th scope="col">Delete all my data</th>
              </tr>
            </thead>
            <tbody>
              {report.items.map((item) => (
                <tr key={item.id} data-testid="storage-item" data-item-id={item.id} data-bytes={item.bytes}>
                  <th scope="row">
                    {item.label}
                    <span className="tool-description muted">{item.description}</span>
                  </th>
                  <td>
                    <code className="folder-path">{item.path}</code>
                  </td>
                  <td className="storage-size" data-testid="storage-size">
                    {formatBytes(item.bytes)}
                  </td>
                  <td>{fate(item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="storage-secrets" data-testid="storage-secrets" data-protection={report.secrets.protection}>
            <p>
              <strong>Secrets:</strong>{' '}
              {report.secrets.protection === 'os-keychain' ? 'protected by the OS keychain' : 'protected by a key file'}
            </p>
            <p className="muted">{report.secrets.description}</p>
          </div>
          <div className="storage-secrets" data-testid="storage-sandbox" data-kind={report.sandbox.kind}>
            <p>
              <strong>Tools:</strong> {report.sandbox.summary}
            </p>
            <p className="muted">{report.sandbox.detail}</p>
          </div>
        </>
      )}
      <div className="storage-delete">
        <Button
          variant="danger"
          data-testid="delete-all-data"
          onClick={() => {
            setDone(null);
            setDialogOpen(true);
          }}
        >
          Delete all my data…
        </Button>
        {done && (
          <span className="muted" role="status" data-testid="delete-all-status">
            {done}
          </span>
        )}
      </div>
      {dialogOpen && (
        <DeleteAllDialog
          onClose={() => setDialogOpen(false)}
          onDeleted={(result) =>
            setDone(`Deleted ${formatBytes(result.deletedBytes)}: ${result.removed.join(', ') || 'nothing was left'}.`)
          }
        />
      )}
    </section>
  );
}

function fate(item: StorageItem): string {
  if (item.deletedWithData) return 'Deleted';
  if (item.id === 'models') return 'Only if you ask';
  return 'Kept';
}
