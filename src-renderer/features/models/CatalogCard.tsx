import type { CatalogModel } from '../../../src-shared/contract/index.js';
import { Badge } from '../../ui/Badge.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { formatBytes } from '../../ui/format.js';
import { useAppStore } from '../../store/StoreContext.js';
import { downloadControls, downloadStateLabel, type DownloadControl } from '../../store/modelsView.js';
import { DownloadProgress } from './DownloadProgress.js';

const CONTROL_LABELS: Record<DownloadControl, string> = {
  download: 'Download',
  pause: 'Pause',
  resume: 'Resume',
  retry: 'Retry',
  cancel: 'Cancel',
};

/** One catalog entry: what it is, and its download with the buttons its state allows. */
export function CatalogCard({ entry, baseName }: { entry: CatalogModel; baseName: string | null }) {
  const download = entry.download;
  const onDisk = entry.modelId !== null;
  const controls = downloadControls(download, onDisk);
  const actionError = useAppStore((s) => s.modelsActionErrors[entry.id] ?? null);
  const dismiss = useAppStore((s) => s.dismissModelsError);
  const pending = useAppStore((s) => s.modelsPending);
  const { downloadModel, pauseDownload, resumeDownload, cancelDownload } = useActions();

  const headingId = `models-catalog-${entry.id}`;
  const size = formatBytes(entry.sizeBytes);
  // What the card shows: a download under way (or stopped, or failed), else whether the model is on disk.
  const state =
    download && download.state !== 'done' && download.state !== 'cancelled' ? download.state : onDisk ? 'done' : 'none';
  const busy = (key: string) => pending.has(key);
  const run = (control: DownloadControl) => {
    switch (control) {
      case 'download':
        return downloadModel(entry.id);
      case 'pause':
        return download ? pauseDownload(download.id, entry.id) : null;
      case 'resume':
      case 'retry':
        return download ? resumeDownload(download.id, entry.id) : null;
      case 'cancel':
        return download ? cancelDownload(download.id, entry.id) : null;
      default:
        return control satisfies never;
    }
  };
  const controlBusy = (control: DownloadControl) =>
    control === 'download'
      ? busy(`download:${entry.id}`)
      : download !== null && busy(`${control === 'retry' ? 'resume' : control}:${download.id}`);
  const showProgress =
    download !== null && ['queued', 'downloading', 'paused', 'verifying', 'failed'].includes(download.state);

  return (
    <li
      className="catalog-entry models-catalog-entry"
      data-testid="catalog-card"
      data-catalog-id={entry.id}
      data-state={state}
      aria-labelledby={headingId}
    >
      <div className="catalog-entry-main">
        <h3 id={headingId} className="catalog-name">
          {entry.name}
          {onDisk && (
            <Badge tone="neutral" testId="catalog-on-disk">
              On this computer
            </Badge>
          )}
        </h3>
        <dl className="catalog-facts">
          <div>
            <dt>Quantization</dt>
            <dd>{entry.quantization}</dd>
          </div>
          <div>
            <dt>Size</dt>
            <dd data-testid="catalog-size">{size ?? 'size unknown'}</dd>
          </div>
          <div>
            <dt>Licence</dt>
            <dd>{entry.licence}</dd>
          </div>
          <div>
            <dt>Checked by</dt>
            <dd>{entry.sha256 ? 'sha256' : entry.sizeBytes ? 'size only' : 'nothing known yet'}</dd>
          </div>
        </dl>
        <p className="catalog-suits">{entry.suits}</p>
        {baseName && <p className="muted models-note">Fine-tuned from {baseName}.</p>}
        {!entry.uriConfirmed && (
          <p className="muted models-note">
            Its download address is not confirmed yet; the download may fail with “not found”.
          </p>
        )}
        <p className="muted models-note">
          Model card: <span className="path">{entry.card}</span>
        </p>

        {download && download.state !== 'cancelled' && download.state !== 'done' && (
          <p className="download-state" data-testid="download-state" role="status">
            {downloadStateLabel(download.state)}
          </p>
        )}
        {showProgress && download && <DownloadProgress download={download} name={entry.name} />}
        {download?.error && (download.state === 'failed' || download.state === 'paused') && (
          <ErrorNotice error={download.error} testId="download-error" />
        )}
        {actionError && (
          <ErrorNotice error={actionError} testId="catalog-action-error" onDismiss={() => dismiss(entry.id)} />
        )}
      </div>
      <div className="models-actions">
        {controls.map((control) => (
          <Button
            key={control}
            variant={control === 'download' || control === 'resume' || control === 'retry' ? 'primary' : 'secondary'}
            data-testid={`catalog-${control}`}
            disabled={controlBusy(control)}
            aria-label={`${CONTROL_LABELS[control]} ${entry.name}`}
            onClick={() => void run(control)}
          >
            {CONTROL_LABELS[control]}
          </Button>
        ))}
      </div>
    </li>
  );
}

function useActions() {
  const downloadModel = useAppStore((s) => s.downloadModel);
  const pauseDownload = useAppStore((s) => s.pauseDownload);
  const resumeDownload = useAppStore((s) => s.resumeDownload);
  const cancelDownload = useAppStore((s) => s.cancelDownload);
  return { downloadModel, pauseDownload, resumeDownload, cancelDownload };
}
