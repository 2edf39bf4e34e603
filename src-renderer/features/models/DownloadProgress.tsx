import type { Download } from '../../../src-shared/contract/index.js';
import { downloadFraction, formatDownloadProgress } from '../../store/modelsView.js';

/**
 * A download's bar with its figures: "12.3 MB of 341 MB · 4.1 MB/s · 1 min left". The wrapper is the progressbar
 * screen readers and tests read (aria-valuenow in percent, the figures as its text); the native <progress> inside
 * only draws it, since the strict CSP forbids style attributes. Without a known size the bar is indeterminate.
 */
export function DownloadProgress({ download, name }: { download: Download; name: string }) {
  const fraction = downloadFraction(download);
  const percent = fraction === null ? null : Math.floor(fraction * 100);
  const figures = formatDownloadProgress(download);
  return (
    <div className="download-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`Download of ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? figures : `${percent}%: ${figures}`}
        data-testid="download-progress"
        data-bytes={download.bytes}
      >
        <progress max={100} value={percent ?? undefined} aria-hidden="true" />
        <span className="progress-percent" aria-hidden="true">
          {percent === null ? '' : `${percent}%`}
        </span>
      </div>
      <p className="download-figures muted" data-testid="download-figures">
        {figures}
      </p>
    </div>
  );
}
