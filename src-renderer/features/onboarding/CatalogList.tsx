import type { CatalogEntry } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { useShallow } from 'zustand/react/shallow';

/** The models Homebody knows about; the Models page downloads them. */
export function CatalogList() {
  const { catalog, catalogError } = useAppStore(
    useShallow((s) => ({ catalog: s.catalog, catalogError: s.catalogError })),
  );
  const setPage = useAppStore((s) => s.setPage);
  return (
    <section className="card catalog" aria-labelledby="catalog-heading">
      <h2 id="catalog-heading">Models that suit Homebody</h2>
      <p className="muted">
        Download one on the Models page, with progress, pause and resume; it is checked before use.
      </p>
      <Button variant="primary" data-testid="onboarding-models-link" onClick={() => setPage('models')}>
        Go to the Models page
      </Button>
      {catalogError && <ErrorNotice error={catalogError} />}
      {catalog.length === 0 && !catalogError ? <p className="muted">No catalog entries.</p> : null}
      <ul className="catalog-list">
        {catalog.map((entry) => (
          <CatalogItem key={entry.id} entry={entry} onDownload={() => setPage('models')} />
        ))}
      </ul>
    </section>
  );
}

function CatalogItem({ entry, onDownload }: { entry: CatalogEntry; onDownload: () => void }) {
  const size = formatBytes(entry.sizeBytes);
  const headingId = `catalog-${entry.id}`;
  return (
    <li className="catalog-entry" data-testid="catalog-entry" aria-labelledby={headingId}>
      <div className="catalog-entry-main">
        <h3 id={headingId} className="catalog-name">
          {entry.name}
        </h3>
        <dl className="catalog-facts">
          <div>
            <dt>Quantization</dt>
            <dd>{entry.quantization}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd>{size ?? 'size unknown'}</dd>
          </div>
          <div>
            <dt>Licence</dt>
            <dd>{entry.licence}</dd>
          </div>
        </dl>
        <p className="catalog-suits">{entry.suits}</p>
      </div>
      <Button onClick={onDownload} aria-label={`Download ${entry.name} on the Models page`}>
        Download…
      </Button>
    </li>
  );
}
