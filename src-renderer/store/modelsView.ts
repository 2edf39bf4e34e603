import type {
  Download,
  DownloadState,
  HostEventOf,
  LocalModel,
  ModelIntegrity,
  ModelsListing,
} from '../../src-shared/contract/index.js';
import { formatBytes } from '../ui/format.js';

export type DownloadProgressEvent = HostEventOf<'download.progress'>;

/** "45 s left", "1 min left", "1 h 5 min left"; null when the Host cannot estimate it. */
export function formatTimeLeft(etaSeconds: number | null): string | null {
  if (etaSeconds === null || !Number.isFinite(etaSeconds) || etaSeconds < 0) return null;
  const seconds = Math.round(etaSeconds);
  if (seconds < 60) return `${seconds} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min left` : `${hours} h left`;
}

/** "4.1 MB/s"; null when nothing is moving. */
export function formatSpeed(bytesPerSecond: number): string | null {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return null;
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

type ProgressFigures = Pick<Download, 'bytes' | 'totalBytes' | 'bytesPerSecond' | 'etaSeconds' | 'state'>;

/**
 * "12.3 MB of 341 MB · 4.1 MB/s · 1 min left". Speed and time left only while bytes are moving; parts the Host does
 * not know (the total before the server answers, the time left before a speed is measured) are left out.
 */
export function formatDownloadProgress(d: ProgressFigures): string {
  const done = formatBytes(d.bytes) ?? '0 B';
  const parts = [d.totalBytes === null ? `${done} so far` : `${done} of ${formatBytes(d.totalBytes)}`];
  if (d.state === 'downloading') {
    const speed = formatSpeed(d.bytesPerSecond);
    if (speed) parts.push(speed);
    const left = formatTimeLeft(d.etaSeconds);
    if (left) parts.push(left);
  }
  return parts.join(' · ');
}

/** How far along, 0..1; null when the size is not known yet (an indeterminate bar). */
export function downloadFraction(d: Pick<Download, 'bytes' | 'totalBytes' | 'state'>): number | null {
  if (d.state === 'done') return 1;
  if (d.totalBytes === null || d.totalBytes === 0) return null;
  return Math.min(1, Math.max(0, d.bytes / d.totalBytes));
}

/** The words for a download's state, as a card shows them. */
export function downloadStateLabel(state: DownloadState): string {
  switch (state) {
    case 'queued':
      return 'Waiting to start';
    case 'downloading':
      return 'Downloading';
    case 'paused':
      return 'Paused';
    case 'verifying':
      return 'Checking the file';
    case 'done':
      return 'Downloaded and checked';
    case 'failed':
      return 'Download failed';
    case 'cancelled':
      return 'Cancelled';
    default:
      return state satisfies never;
  }
}

export type DownloadControl = 'download' | 'pause' | 'resume' | 'retry' | 'cancel';

/** Which buttons a catalog card offers for its download (null: none started, or the last one was cancelled). */
export function downloadControls(download: Pick<Download, 'state'> | null, onDisk: boolean): DownloadControl[] {
  if (download === null) return onDisk ? [] : ['download'];
  switch (download.state) {
    case 'queued':
    case 'downloading':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'failed':
      return ['retry', 'cancel'];
    case 'verifying':
      return [];
    case 'done':
    case 'cancelled':
      return onDisk ? [] : ['download'];
    default:
      return download.state satisfies never;
  }
}

/** What was checked about a model file, in words. */
export function integrityLabel(integrity: ModelIntegrity): string {
  switch (integrity) {
    case 'sha256-matched':
      return 'Verified: size and sha256 match the catalog';
    case 'size-matched':
      return 'Size matches; the catalog lists no sha256 to compare';
    case 'unchecked':
      return 'Not verified: a file you added (checked to be a readable GGUF)';
    case 'mismatch':
      return 'Changed on disk: its bytes no longer match what was checked; download it again';
    default:
      return integrity satisfies never;
  }
}

export function sourceLabel(model: Pick<LocalModel, 'source'>): string {
  return model.source === 'downloaded' ? 'Downloaded by Homebody' : 'Added from disk';
}

/** A download with a progress event's figures applied; the same object when the event is about another one. */
function withProgress(download: Download, event: DownloadProgressEvent): Download {
  if (download.id !== event.id) return download;
  return {
    ...download,
    bytes: event.bytes,
    totalBytes: event.totalBytes,
    bytesPerSecond: event.bytesPerSecond,
    etaSeconds: event.etaSeconds,
    state: event.state,
    error: event.error,
  };
}

/**
 * The listing with one download's progress applied, wherever it appears (the downloads and its catalog entry).
 * Null when the listing does not know that download: a `models.changed` (or a reload) brings it.
 */
export function applyDownloadProgress(listing: ModelsListing, event: DownloadProgressEvent): ModelsListing | null {
  const known =
    listing.downloads.some((d) => d.id === event.id) || listing.catalog.some((c) => c.download?.id === event.id);
  if (!known) return null;
  return {
    ...listing,
    downloads: listing.downloads.map((d) => withProgress(d, event)),
    catalog: listing.catalog.map((c) =>
      c.download && c.download.id === event.id ? { ...c, download: withProgress(c.download, event) } : c,
    ),
  };
}
