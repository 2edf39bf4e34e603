import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { HomebodyError, type AppError, type Download, type DownloadState } from '../../../src-shared/contract/index.js';
import type { EgressGuard, EgressTicket } from '../../privacy/egressGuard.js';
import { SerialQueue } from '../serialQueue.js';
import { startFileDownload, type FileDownloadRun, type RunProgress } from './fileDownload.js';
import { huggingFaceEndpoint, resolveDownloadTarget, safeFileName } from './downloadTarget.js';
import { partialBytesOnDisk, partialPathOf, settlePartialFile } from './partialFile.js';
import { verifyFile, type Verified } from './verifyFile.js';

/** A download as persisted (the store's model_downloads table); speed and time left exist only while it runs. */
export type DownloadRecord = Omit<Download, 'bytesPerSecond' | 'etaSeconds'> & { readonly stagingDir: string };
export type DownloadPatch = Partial<
  Pick<DownloadRecord, 'state' | 'bytes' | 'totalBytes' | 'error' | 'modelId' | 'updatedAt' | 'path'>
>;

/** Where download records are kept (the store's repository in the app, a map in unit tests). */
export interface DownloadRecordStore {
  insert(record: DownloadRecord): void;
  update(id: string, patch: DownloadPatch): void;
  get(id: string): DownloadRecord | undefined;
  /** Newest first. */
  list(): DownloadRecord[];
}

export type DownloadProgressEvent = Pick<
  Download,
  'id' | 'catalogId' | 'bytes' | 'totalBytes' | 'bytesPerSecond' | 'etaSeconds' | 'state' | 'error'
>;

export interface NewDownload {
  readonly catalogId: string | null;
  readonly uri: string;
  /** Defaults to the URI's file name. */
  readonly fileName?: string;
  readonly expectedSizeBytes: number | null;
  readonly expectedSha256: string | null;
}

/** How a download is named to the user: "BotPsy 0.8B Q8", and a hint added to a "not found" message. */
export interface DownloadLabel {
  readonly label: string;
  readonly notFoundHint?: string;
}

export interface DownloadManagerOptions {
  /** `<dataDir>/models`: verified files land here; partial ones in `<modelsDir>/.downloads/<id>/`. */
  readonly modelsDir: string;
  readonly records: DownloadRecordStore;
  readonly guard: EgressGuard;
  /** The Hugging Face endpoint for `hf:` URIs (tests point it at a local server); see huggingFaceEndpoint(). */
  readonly huggingFaceEndpoint?: string;
  /**
   * Takes a verified file, already at its final path, into the list of models on disk; answers the model's id.
   * Runs before the download is marked done.
   */
  adopt(record: DownloadRecord, verified: Verified): string;
  /** True when a known model (or anything else of the app's) already uses this path. */
  isPathTaken?(path: string): boolean;
  /** Names a download for the egress ledger and for messages (the catalog entry's name); else its file name. */
  describe?(record: DownloadRecord): DownloadLabel;
  onProgress?(event: DownloadProgressEvent): void;
  /** A download changed state (started, paused, verified, failed, cancelled...). */
  onChange?(): void;
  readonly now?: () => number;
  readonly newId?: () => string;
  /** The least time between two progress events of one download. Default 250 ms. */
  readonly progressIntervalMs?: number;
  /** How long a stopped run may take to wind down before it is left behind. Default 5 s. */
  readonly stopGraceMs?: number;
}

/** Why a run is being stopped. */
type StopIntent = 'pause' | 'cancel' | 'shutdown';

/** The one download running now. */
interface Live {
  readonly id: string;
  run?: FileDownloadRun;
  ticket?: EgressTicket;
  verifyAbort?: AbortController;
  stopIntent?: StopIntent;
  stopRequested?: () => void;
  readonly stopRequest: Promise<void>;
  finished?: Promise<void>;
  bytes: number;
  totalBytes: number | null;
  resumedBytes: number;
  bytesPerSecond: number;
  etaSeconds: number | null;
  lastEmit: number;
  lastSave: number;
  /** The progress event held back by the interval, sent when it ends: a transfer that stalls still shows its bytes. */
  trailingEmit?: NodeJS.Timeout;
}

const UNFINISHED: readonly DownloadState[] = ['queued', 'downloading', 'paused', 'verifying', 'failed'];
const SAVE_INTERVAL_MS = 2000;
const STAGING_FOLDER = '.downloads';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  if (typeof code === 'string') return code;
  const causeCode = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof causeCode === 'string' ? causeCode : undefined;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * Downloads models one at a time through node-llama-cpp's downloader, behind the egress guard: queues, pauses
 * (keeping the bytes on disk), resumes (also after a restart, from the chunks already written), cancels (deleting
 * the partial file), and verifies size and sha256 before a file is moved into the models folder and adopted. A file
 * that fails verification is deleted and never adopted, so it is never loaded.
 */
export class DownloadManager {
  private readonly control = new SerialQueue();
  private active: Live | undefined;
  private disposed = false;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly endpoint: string;
  readonly stagingRoot: string;

  constructor(private readonly options: DownloadManagerOptions) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => randomUUID());
    this.endpoint = huggingFaceEndpoint(options.huggingFaceEndpoint);
    this.stagingRoot = join(options.modelsDir, STAGING_FOLDER);
  }

  /**
   * After a restart: a download that was running, queued or being verified when the app stopped is listed as
   * paused (resumable from its bytes on disk); leftovers of cancelled or finished downloads are removed.
   */
  async recover(): Promise<void> {
    for (const record of this.options.records.list()) {
      if (record.state === 'downloading' || record.state === 'queued' || record.state === 'verifying') {
        const bytes = await this.bytesOnDisk(record, record.totalBytes);
        this.options.records.update(record.id, {
          state: 'paused',
          bytes: bytes ?? record.bytes,
          updatedAt: this.now(),
        });
      } else if (record.state === 'cancelled' || record.state === 'done') {
        if (existsSync(record.stagingDir)) await rm(record.stagingDir, { recursive: true, force: true });
      }
    }
  }

  /** Every download, newest first, with the live speed and time left of the running one. */
  list(): Download[] {
    return this.options.records.list().map((record) => this.view(record));
  }

  get(id: string): Download | undefined {
    const record = this.options.records.get(id);
    return record ? this.view(record) : undefined;
  }

  /** The unfinished download of a catalog entry (queued, running, paused or failed), if any. */
  unfinishedFor(catalogId: string): Download | undefined {
    return this.list().find((d) => d.catalogId === catalogId && UNFINISHED.includes(d.state));
  }

  /** Queues a new download (it starts at once when none runs). Checks the URI and the egress guard now. */
  start(request: NewDownload): Promise<Download> {
    return this.control.run(async () => {
      this.assertOpen();
      const target = resolveDownloadTarget(request.uri, this.endpoint);
      const fileName = safeFileName(request.fileName ?? target.fileName);
      const id = this.newId();
      const now = this.now();
      const record: DownloadRecord = {
        id,
        catalogId: request.catalogId,
        uri: request.uri,
        fileName,
        path: this.freePath(fileName),
        stagingDir: join(this.stagingRoot, id),
        state: 'queued',
        bytes: 0,
        totalBytes: request.expectedSizeBytes,
        expectedSizeBytes: request.expectedSizeBytes,
        expectedSha256: request.expectedSha256?.toLowerCase() ?? null,
        error: null,
        modelId: null,
        createdAt: now,
        updatedAt: now,
      };
      // Refused at once when the guard would refuse it, so the caller is told; the run asks again when it connects.
      this.options.guard.preflight(target.url, 'model-download', this.purpose(record));
      this.options.records.insert(record);
      this.changed(id);
      this.pump();
      return this.view(this.mustGet(id));
    });
  }

  /** Stops a queued or running download, keeping its bytes; a paused one is answered as it is. */
  pause(id: string): Promise<Download> {
    return this.control.run(async () => {
      const record = this.mustGet(id);
      switch (record.state) {
        case 'paused':
          return this.view(record);
        case 'queued':
          this.update(id, { state: 'paused' });
          return this.view(this.mustGet(id));
        case 'downloading':
        case 'verifying':
          await this.stopActive(id, 'pause');
          return this.view(this.mustGet(id));
        default:
          throw new HomebodyError(
            'INVALID_REQUEST',
            `This download is ${record.state}; only a running or queued one can be paused.`,
          );
      }
    });
  }

  /** Resumes a paused or failed download from its bytes on disk; a queued or running one is answered as it is. */
  resume(id: string): Promise<Download> {
    return this.control.run(async () => {
      this.assertOpen();
      const record = this.mustGet(id);
      switch (record.state) {
        case 'queued':
        case 'downloading':
        case 'verifying':
          return this.view(record);
        case 'paused':
        case 'failed': {
          this.options.guard.preflight(
            resolveDownloadTarget(record.uri, this.endpoint).url,
            'model-download',
            this.purpose(record),
          );
          this.update(id, { state: 'queued', error: null });
          this.pump();
          return this.view(this.mustGet(id));
        }
        case 'done':
          throw new HomebodyError('INVALID_REQUEST', 'This download is already complete.');
        case 'cancelled':
          throw new HomebodyError(
            'INVALID_REQUEST',
            'This download was cancelled; start it again to download the model.',
          );
      }
    });
  }

  /** Stops a download and deletes its partial file; the record stays, as cancelled. */
  cancel(id: string): Promise<Download> {
    return this.control.run(async () => {
      const record = this.mustGet(id);
      switch (record.state) {
        case 'cancelled':
          return this.view(record);
        case 'done':
          throw new HomebodyError(
            'INVALID_REQUEST',
            'This download is complete; remove the model instead to delete its file.',
          );
        case 'downloading':
        case 'verifying':
          await this.stopActive(id, 'cancel');
          return this.view(this.mustGet(id));
        default:
          await rm(record.stagingDir, { recursive: true, force: true });
          this.update(id, { state: 'cancelled', bytes: 0, error: null });
          return this.view(this.mustGet(id));
      }
    });
  }

  /** Stops the running download, leaving it paused so it resumes after the next start. */
  async dispose(): Promise<void> {
    await this.control.run(async () => {
      this.disposed = true;
      if (this.active) await this.stopActive(this.active.id, 'shutdown');
    });
  }

  /** Test hook: resolves once no download runs. */
  async idle(): Promise<void> {
    while (this.active) await this.active.finished;
  }

  // ---------------------------------------------------------------------------------------------------------------

  private labelOf(record: DownloadRecord): DownloadLabel {
    return this.options.describe?.(record) ?? { label: record.fileName };
  }

  private purpose(record: DownloadRecord): string {
    return `model download: ${this.labelOf(record).label}`;
  }

  private assertOpen(): void {
    if (this.disposed) throw new HomebodyError('INVALID_REQUEST', 'Homebody is shutting down.');
  }

  private mustGet(id: string): DownloadRecord {
    const record = this.options.records.get(id);
    if (!record) throw new HomebodyError('DOWNLOAD_NOT_FOUND', `There is no download ${id}.`);
    return record;
  }

  private view(record: DownloadRecord): Download {
    const live = this.active?.id === record.id ? this.active : undefined;
    const { stagingDir: _stagingDir, ...rest } = record;
    return {
      ...rest,
      bytes: live && record.state === 'downloading' ? live.bytes : record.bytes,
      totalBytes: live?.totalBytes ?? record.totalBytes,
      bytesPerSecond: live && record.state === 'downloading' ? live.bytesPerSecond : 0,
      etaSeconds: live && record.state === 'downloading' ? live.etaSeconds : null,
    };
  }

  private update(id: string, patch: DownloadPatch): void {
    this.options.records.update(id, { ...patch, updatedAt: this.now() });
    this.changed(id);
  }

  private changed(id: string): void {
    this.emitProgress(id);
    this.options.onChange?.();
  }

  private emitProgress(id: string): void {
    const download = this.get(id);
    if (!download || !this.options.onProgress) return;
    const { catalogId, bytes, totalBytes, bytesPerSecond, etaSeconds, state, error } = download;
    this.options.onProgress({ id, catalogId, bytes, totalBytes, bytesPerSecond, etaSeconds, state, error });
  }

  /** A path in the models folder no model, no file and no other download uses: name.gguf, name-2.gguf, ... */
  private freePath(fileName: string, ownId?: string): string {
    const taken = new Set(
      this.options.records
        .list()
        .filter((r) => r.id !== ownId && r.state !== 'cancelled' && r.state !== 'done')
        .map((r) => r.path),
    );
    const ext = extname(fileName);
    const stem = basename(fileName, ext);
    for (let n = 1; ; n++) {
      const path = join(this.options.modelsDir, n === 1 ? fileName : `${stem}-${n}${ext}`);
      if (!taken.has(path) && !existsSync(path) && !this.options.isPathTaken?.(path)) return path;
    }
  }

  /** Starts the oldest queued download when none runs. */
  private pump(): void {
    if (this.active || this.disposed) return;
    const next = this.options.records
      .list()
      .filter((r) => r.state === 'queued')
      .sort((a, b) => a.createdAt - b.createdAt)[0];
    if (!next) return;
    let requested: () => void = () => undefined;
    const stopRequest = new Promise<void>((resolve) => (requested = resolve));
    const live: Live = {
      id: next.id,
      stopRequest,
      stopRequested: requested,
      bytes: next.bytes,
      totalBytes: next.totalBytes,
      resumedBytes: 0,
      bytesPerSecond: 0,
      etaSeconds: null,
      lastEmit: 0,
      lastSave: 0,
    };
    this.active = live;
    live.finished = this.execute(live).finally(() => {
      clearTimeout(live.trailingEmit);
      if (this.active === live) this.active = undefined;
      this.pump();
    });
  }

  /** Asks the running download to stop and waits until it has (its final state written by `execute`). */
  private async stopActive(id: string, intent: StopIntent): Promise<void> {
    const live = this.active;
    if (!live || live.id !== id) return;
    live.stopIntent = intent;
    live.stopRequested?.();
    live.verifyAbort?.abort();
    await live.run?.stop(intent !== 'cancel');
    await live.finished;
  }

  private async execute(live: Live): Promise<void> {
    try {
      await this.runOnce(live);
    } catch (error) {
      if (live.stopIntent) {
        await this.finishStop(live);
        return;
      }
      if (error instanceof HomebodyError && error.code === 'CHECKSUM_MISMATCH') {
        // A wrong file never reaches the models folder: it is deleted with its staging folder.
        const record = this.options.records.get(live.id);
        if (record) await rm(record.stagingDir, { recursive: true, force: true });
        live.bytes = 0;
      }
      this.settleFailure(live, error);
    }
  }

  private async runOnce(live: Live): Promise<void> {
    const record = this.mustGet(live.id);
    const staged = join(record.stagingDir, record.fileName);
    this.update(live.id, { state: 'downloading', error: null });

    // A file downloaded in full by an earlier run (stopped before its check) needs no connection.
    const complete = await settlePartialFile(staged, record.totalBytes);
    if (!complete) {
      const target = resolveDownloadTarget(record.uri, this.endpoint);
      live.ticket = this.options.guard.check(target.url, 'model-download', this.purpose(record));
      await mkdir(record.stagingDir, { recursive: true });
      const onDisk = await partialBytesOnDisk(partialPathOf(staged), record.totalBytes);
      live.bytes = onDisk ?? 0;
      const run = startFileDownload({
        uri: record.uri,
        dirPath: record.stagingDir,
        fileName: record.fileName,
        huggingFaceEndpoint: this.endpoint,
        onStart: ({ totalBytes, resumedBytes }) => {
          live.totalBytes = totalBytes ?? live.totalBytes;
          live.resumedBytes = resumedBytes > 0 ? (onDisk ?? this.capped(resumedBytes, live.totalBytes)) : 0;
          live.bytes = live.resumedBytes;
          this.checkAnnouncedSize(record, totalBytes);
          this.options.records.update(live.id, { totalBytes: live.totalBytes, bytes: live.bytes });
          this.emitProgress(live.id);
        },
        onProgress: (progress) => this.onRunProgress(live, progress),
      });
      live.run = run;
      // A stopped run normally ends at once; one stuck waiting on a server is left behind after a grace period.
      run.done.catch(() => undefined);
      const outcome = await Promise.race([
        run.done,
        live.stopRequest
          .then(() => delay(this.options.stopGraceMs ?? 5000))
          .then(() => ({ outcome: 'stopped' as const })),
      ]);
      if (live.stopIntent || outcome.outcome === 'stopped') {
        await this.finishStop(live);
        return;
      }
      live.ticket.setBytes(Math.max(0, (live.totalBytes ?? live.bytes) - live.resumedBytes), true);
    }

    this.update(live.id, { state: 'verifying', bytes: live.totalBytes ?? live.bytes });
    live.verifyAbort = new AbortController();
    const verified = await verifyFile(
      staged,
      { sizeBytes: record.expectedSizeBytes ?? live.totalBytes, sha256: record.expectedSha256 },
      { subject: `The downloaded file ${record.fileName}`, consequence: 'It was deleted; download it again.' },
      live.verifyAbort.signal,
    );
    if (live.stopIntent) {
      await this.finishStop(live);
      return;
    }
    await mkdir(this.options.modelsDir, { recursive: true });
    const taken = existsSync(record.path) || (this.options.isPathTaken?.(record.path) ?? false);
    const finalPath = taken ? this.freePath(record.fileName, record.id) : record.path;
    await rename(staged, finalPath);
    const adopted = { ...this.mustGet(live.id), path: finalPath };
    const modelId = this.options.adopt(adopted, verified);
    this.update(live.id, {
      state: 'done',
      path: finalPath,
      modelId,
      bytes: verified.sizeBytes,
      totalBytes: verified.sizeBytes,
      error: null,
    });
    await rm(record.stagingDir, { recursive: true, force: true });
  }

  /** Refuses early when the server offers a different size than the catalog expects (nothing more is fetched). */
  private checkAnnouncedSize(record: DownloadRecord, totalBytes: number | null): void {
    if (record.expectedSizeBytes === null || totalBytes === null || totalBytes === record.expectedSizeBytes) return;
    throw new HomebodyError(
      'CHECKSUM_MISMATCH',
      `The server offers ${record.fileName} with ${totalBytes.toLocaleString('en-US')} bytes, but ${record.expectedSizeBytes.toLocaleString('en-US')} are expected: it is not the expected file. Nothing was kept.`,
    );
  }

  private onRunProgress(live: Live, progress: RunProgress): void {
    if (live.stopIntent) return;
    const total = progress.totalBytes ?? live.totalBytes;
    live.totalBytes = total;
    live.bytes = this.capped(progress.bytes, total);
    live.bytesPerSecond = progress.bytesPerSecond;
    live.etaSeconds = progress.etaSeconds;
    live.ticket?.setBytes(Math.max(0, live.bytes - live.resumedBytes));
    const now = this.now();
    if (now - live.lastSave >= SAVE_INTERVAL_MS) {
      live.lastSave = now;
      this.options.records.update(live.id, { bytes: live.bytes, totalBytes: live.totalBytes });
    }
    const interval = this.options.progressIntervalMs ?? 250;
    if (now - live.lastEmit >= interval) {
      clearTimeout(live.trailingEmit);
      live.trailingEmit = undefined;
      live.lastEmit = now;
      this.emitProgress(live.id);
    } else if (!live.trailingEmit) {
      live.trailingEmit = setTimeout(
        () => {
          live.trailingEmit = undefined;
          if (this.active !== live || live.stopIntent) return;
          live.lastEmit = this.now();
          this.emitProgress(live.id);
        },
        interval - (now - live.lastEmit),
      );
      live.trailingEmit.unref();
    }
  }

  /** Writes the state a stopped run ends in: paused (bytes kept) or cancelled (partial file deleted). */
  private async finishStop(live: Live): Promise<void> {
    const record = this.mustGet(live.id);
    // The downloader finishes closing its files first (within the grace period).
    if (live.run)
      await Promise.race([live.run.stop(live.stopIntent !== 'cancel'), delay(this.options.stopGraceMs ?? 5000)]);
    if (live.stopIntent === 'cancel') {
      await rm(record.stagingDir, { recursive: true, force: true });
      this.update(live.id, { state: 'cancelled', bytes: 0, error: null });
      return;
    }
    const bytes = await this.bytesOnDisk(record, live.totalBytes);
    this.update(live.id, {
      state: 'paused',
      bytes: bytes ?? this.capped(live.bytes, live.totalBytes),
      totalBytes: live.totalBytes,
    });
  }

  /**
   * While running, the downloader's count may run ahead of the bytes on disk (and even reach the total): a running
   * download never shows more than the total less one byte; the check that follows shows the rest.
   */
  private capped(bytes: number, totalBytes: number | null): number {
    return totalBytes !== null ? Math.max(0, Math.min(bytes, totalBytes - 1)) : bytes;
  }

  /** The bytes of a stopped download really on disk (its partial file put back in place first); null if unknown. */
  private async bytesOnDisk(record: DownloadRecord, totalBytes: number | null): Promise<number | null> {
    const staged = join(record.stagingDir, record.fileName);
    try {
      if (await settlePartialFile(staged, totalBytes)) return totalBytes;
    } catch {
      return null;
    }
    return partialBytesOnDisk(partialPathOf(staged), totalBytes);
  }

  /** A run that failed: paused when the connection is to blame (its bytes are kept), failed otherwise. */
  private settleFailure(live: Live, error: unknown): void {
    const record = this.options.records.get(live.id);
    if (!record) return;
    const { state, appError } = this.describeFailure(record, live, error);
    this.update(live.id, { state, error: appError, bytes: live.bytes });
  }

  private describeFailure(
    record: DownloadRecord,
    live: Live,
    error: unknown,
  ): { state: 'failed' | 'paused'; appError: AppError } {
    if (error instanceof HomebodyError) return { state: 'failed', appError: error.toJSON() };
    const status = (error as { statusCode?: unknown } | null)?.statusCode;
    const where = (() => {
      try {
        return resolveDownloadTarget(record.uri, this.endpoint).url;
      } catch {
        return record.uri;
      }
    })();
    if (typeof status === 'number') {
      if (status === 404) {
        const hint = this.labelOf(record).notFoundHint;
        return {
          state: 'failed',
          appError: {
            code: 'DOWNLOAD_FAILED',
            message: `The server has no file at ${where} (HTTP 404).${hint ? ` ${hint}` : ''}`,
          },
        };
      }
      if (status === 401 || status === 403) {
        return {
          state: 'failed',
          appError: {
            code: 'DOWNLOAD_FAILED',
            message: `The server refused the download of ${where} (HTTP ${status}): the file may be private or gated.`,
          },
        };
      }
      return {
        state: 'failed',
        appError: {
          code: 'DOWNLOAD_FAILED',
          message: `The server answered HTTP ${status} for ${where}; try again later.`,
        },
      };
    }
    const code = errnoCode(error);
    if (code === 'ENOSPC') {
      return {
        state: 'failed',
        appError: {
          code: 'DOWNLOAD_FAILED',
          message: `The disk is full. Free some space, then resume: the ${megabytes(live.bytes)} already downloaded are kept.`,
        },
      };
    }
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      return {
        state: 'failed',
        appError: {
          code: 'DOWNLOAD_FAILED',
          message: `Homebody cannot write to ${this.options.modelsDir} (${code}).`,
        },
      };
    }
    const detail = (error as Error | null)?.message ?? String(error);
    console.warn(`[downloads] ${record.fileName}: the connection failed:`, error);
    return {
      state: 'paused',
      appError: {
        code: 'DOWNLOAD_FAILED',
        message: `The connection to ${new URL(where).host} was lost (${detail}). The ${megabytes(live.bytes)} already downloaded are kept: resume to continue.`,
      },
    };
  }
}
