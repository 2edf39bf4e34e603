import { createModelDownloader, type ModelDownloader } from 'node-llama-cpp';

/** Where one run of a download stands, as node-llama-cpp's downloader reports it. */
export interface RunProgress {
  readonly bytes: number;
  readonly totalBytes: number | null;
  readonly bytesPerSecond: number;
  readonly etaSeconds: number | null;
}

export interface FileDownloadOptions {
  /** `hf:owner/repo/file.gguf` or an http(s) URL (already allowed by the egress guard). */
  readonly uri: string;
  /** The folder the file (and its `.ipull` partial file) is written to. */
  readonly dirPath: string;
  readonly fileName: string;
  readonly huggingFaceEndpoint: string;
  /**
   * Called once the server answered: its size (null when it did not say) and the bytes already on disk. Throwing
   * stops the run before any more is fetched (the partial file is deleted) and rejects `done` with that error.
   */
  onStart?(info: { totalBytes: number | null; resumedBytes: number }): void;
  onProgress?(progress: RunProgress): void;
}

/**
 * True for an error thrown inside ipull, node-llama-cpp's download engine. When a server refuses a range (an HTTP
 * 4xx) or a write fails, ipull rejects the download, which is reported, and also leaves the same error unhandled on
 * each parallel stream's bookkeeping promise.
 */
export function isDownloaderError(reason: unknown): boolean {
  return reason instanceof Error && /[\\/]ipull[\\/]/.test(reason.stack ?? '');
}

let rejectionGuardInstalled = false;

/**
 * Keeps ipull's duplicate unhandled rejections from taking the process down (Node's default for an unhandled
 * rejection): those are dropped, since the download itself reports the error. Any other unhandled rejection is
 * left to the other listeners, or, when there are none, thrown as Node would.
 */
function guardDownloaderRejections(): void {
  if (rejectionGuardInstalled) return;
  rejectionGuardInstalled = true;
  process.on('unhandledRejection', (reason) => {
    if (isDownloaderError(reason)) return;
    if (process.listenerCount('unhandledRejection') > 1) return;
    throw reason;
  });
}

export type RunOutcome = { readonly outcome: 'completed'; readonly path: string } | { readonly outcome: 'stopped' };

/** One run of a download; a paused download is resumed by a new run on the same folder and file name. */
export interface FileDownloadRun {
  /** Settles when the run ends: completed, stopped by `stop`, or rejected with the downloader's error. */
  readonly done: Promise<RunOutcome>;
  /**
   * Stops the run. `keepPartial` leaves the partial file and its progress record on disk so a later run resumes
   * from the chunks already written; otherwise the partial file is deleted.
   */
  stop(keepPartial: boolean): Promise<void>;
}

/**
 * Downloads one GGUF file with node-llama-cpp's downloader (ipull underneath): it resolves `hf:` URIs, writes to
 * `<fileName>.ipull` with its progress appended, resumes from the completed chunks of an earlier run, retries dropped
 * connections by itself, and renames the file to `<fileName>` when complete. Nothing here checks the file: callers
 * verify it before use.
 */
export function startFileDownload(options: FileDownloadOptions): FileDownloadRun {
  guardDownloaderRejections();
  let downloader: ModelDownloader | undefined;
  let stopped: { keepPartial: boolean } | undefined;
  let stopping: Promise<void> | undefined;

  const cancel = (d: ModelDownloader, keepPartial: boolean) => d.cancel({ deleteTempFile: !keepPartial });

  const done = (async (): Promise<RunOutcome> => {
    const created = await createModelDownloader({
      modelUri: options.uri,
      dirPath: options.dirPath,
      fileName: options.fileName,
      // A complete file of the right size left by an earlier run (stopped before it was verified) is not fetched again.
      skipExisting: true,
      deleteTempFileOnCancel: false,
      parallelDownloads: 1,
      showCliProgress: false,
      endpoints: { huggingFace: options.huggingFaceEndpoint },
      // Never send a Hugging Face token found in the environment or ~/.cache: the catalog's models are public.
      tokens: { huggingFace: null as unknown as undefined },
      onProgress: (status) => {
        options.onProgress?.({
          bytes: status.downloadedSize,
          totalBytes: status.totalSize > 0 ? status.totalSize : null,
          bytesPerSecond: Number.isFinite(status.averageSpeed) ? Math.max(0, status.averageSpeed) : 0,
          etaSeconds:
            Number.isFinite(status.estimatedTimeLeft) && status.averageSpeed > 0
              ? Math.max(0, status.estimatedTimeLeft / 1000)
              : null,
        });
      },
    });
    downloader = created;
    if (stopped) {
      await cancel(created, stopped.keepPartial);
      return { outcome: 'stopped' };
    }
    try {
      options.onStart?.({
        totalBytes: created.totalSize > 0 ? created.totalSize : null,
        resumedBytes: created.downloadedSize,
      });
    } catch (error) {
      // The caller refused what the server offers (a size it does not expect): nothing more is fetched.
      await cancel(created, false);
      throw error;
    }
    const path = await created.download();
    // The downloader resolves normally when cancelled, so a stop is told apart here.
    if (stopped) return { outcome: 'stopped' };
    return { outcome: 'completed', path };
  })();

  return {
    done,
    stop(keepPartial) {
      if (stopped) return stopping ?? Promise.resolve();
      stopped = { keepPartial };
      stopping = downloader ? cancel(downloader, keepPartial) : Promise.resolve();
      return stopping;
    },
  };
}
