import type { CatalogEntry } from '../../../src-shared/contract/index.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { useShallow } from 'zustand/react/shallow';

/** The models Homebody knows about; downloading them comes in a later version. */
export function CatalogList() {
  const { catalog, catalogError } = useAppStore(
    useShallow((s) => ({ catalog: s.catalog, catalogError: s.catalogError })),
  );
  return (
    <section className="card catalog" aria-labelledby="catalog-heading">
      <h2 id="catalog-heading">Models that suit Homebody</h2>
      <p className="muted">
        Downloads come in a later version. For now, download a GGUF file yourself and open it above.
      </p>
      {catalogError && <ErrorNotice error={catalogError} />}
      {catalog.length === 0 && !catalogError ? <p className="muted">No catalog entries.</p> : null}
      <ul className="catalog-list">
        {catalog.map((entry) => (
          <CatalogItem key={entry.id} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

function CatalogItem({ entry }: { entry: CatalogEntry }) {
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
            <dd>{size ?? 'Unknown'}</dd>
          </div>
          <div>
            <dt>Licence</dt>
            <dd>{entry.licence}</dd>
          </div>
        </dl>
        <p className="catalog-suits">{entry.suits}</p>
      </div>
      <button type="button" className="btn btn-secondary" disabled aria-label={`Download ${entry.name} later`}>
        Download later
      </button>
    </li>
  );
}
