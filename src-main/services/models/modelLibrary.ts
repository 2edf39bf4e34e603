import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';
import {
  HomebodyError,
  type CatalogEntry,
  type CatalogModel,
  type Download,
  type DownloadRequest,
  type HostEvent,
  type LocalModel,
  type ModelState,
  type ModelsListing,
  type RemoveModelResult,
  type ThinkingSetting,
} from '../../../src-shared/contract/index.js';
import { DownloadManager, type DownloadRecord, type DownloadRecordStore } from '../../llm/download/downloadManager.js';
import { sha256File, type Verified } from '../../llm/download/verifyFile.js';
import { inspectGguf } from '../../llm/gguf/ggufInspect.js';
import { SerialQueue } from '../../llm/serialQueue.js';
import type { EgressGuard } from '../../privacy/egressGuard.js';
import type { Store } from '../../store/store.js';
import type { StoredModel } from '../../store/repos/modelsRepo.js';

export interface ModelLibraryOptions {
  /** `<dataDir>/models`. */
  readonly modelsDir: string;
  readonly store: Store;
  readonly catalog: readonly CatalogEntry[];
  readonly guard: EgressGuard;
  readonly emit: (event: HostEvent) => void;
  /** The engine's state now (which model is active). */
  readonly engineState: () => ModelState;
  /** Loads a model (stopping replies first), resolving with the final state. */
  readonly open: (path: string) => Promise<ModelState>;
  /** Closes the loaded model (stopping replies first) so its file can be deleted. */
  readonly close: () => Promise<void>;
  /** Forgets the "last model" to load at start when it is this path. */
  readonly forgetLastModel: (path: string) => void;
  /** Each model file's thinking choice (saved with the model settings). */
  readonly thinking: {
    get(path: string): ThinkingSetting;
    set(path: string, setting: ThinkingSetting): void;
  };
  readonly huggingFaceEndpoint?: string;
  readonly now?: () => number;
}

const NOT_CONFIRMED_HINT =
  "This catalog entry's address has not been confirmed yet and may need correcting in resources/models/catalog.json.";

function samePath(a: string, b: string): boolean {
  return process.platform === 'win32'
    ? resolve(a).toLowerCase() === resolve(b).toLowerCase()
    : resolve(a) === resolve(b);
}

/**
 * The models Homebody knows: the catalog with each entry's state here, the model files on disk (downloaded into
 * `<dataDir>/models`, or added from elsewhere), and the downloads. Every change is pushed as `models.changed` with the
 * whole listing; download progress as `download.progress`.
 */
export class ModelLibrary {
  readonly downloads: DownloadManager;
  private readonly now: () => number;
  private lastActivePath: string | null = null;
  /** Two quick requests for one catalog entry make one download. */
  private readonly requests = new SerialQueue();

  constructor(private readonly options: ModelLibraryOptions) {
    this.now = options.now ?? Date.now;
    const repo = options.store.models;
    const records: DownloadRecordStore = repo.downloads;
    this.downloads = new DownloadManager({
      modelsDir: options.modelsDir,
      records,
      guard: options.guard,
      ...(options.huggingFaceEndpoint ? { huggingFaceEndpoint: options.huggingFaceEndpoint } : {}),
      adopt: (record, verified) => this.adopt(record, verified),
      isPathTaken: (path) => repo.models.byPath(path) !== undefined,
      describe: (record) => {
        const entry = this.entry(record.catalogId);
        if (!entry) return { label: record.fileName };
        return { label: entry.name, ...(entry.uriConfirmed ? {} : { notFoundHint: NOT_CONFIRMED_HINT }) };
      },
      onProgress: ({ id, catalogId, bytes, totalBytes, bytesPerSecond, etaSeconds, state, error }) =>
        options.emit({
          type: 'download.progress',
          id,
          catalogId,
          bytes,
          totalBytes,
          bytesPerSecond,
          etaSeconds,
          state,
          error,
        }),
      onChange: () => this.changed(),
    });
  }

  get modelsDir(): string {
    return this.options.modelsDir;
  }

  /** Lists interrupted downloads as paused (after a restart). */
  async init(): Promise<void> {
    await this.downloads.recover();
    this.lastActivePath = this.activePath();
  }

  dispose(): Promise<void> {
    return this.downloads.dispose();
  }

  /** Called on every engine state change: the active flag of the listing follows the loaded model. */
  engineChanged(): void {
    const path = this.activePath();
    // A model opened from outside the list (`--model`, a typed path, the last model at start) is in use: it is
    // listed, so the Models and Evaluation pages show what the chat runs on.
    if (path && !this.options.store.models.models.byPath(path)) {
      try {
        this.remember(path);
      } catch {
        // Unreadable since it loaded (moved, replaced): it is not listed, and the chat still runs on it.
      }
    }
    if (path === this.lastActivePath) return;
    this.lastActivePath = path;
    this.changed();
  }

  listing(): ModelsListing {
    const downloads = this.downloads.list();
    const models = this.models();
    const catalog: CatalogModel[] = this.options.catalog.map((entry) => ({
      ...entry,
      download:
        downloads.find(
          (d) => d.catalogId === entry.id && d.state !== 'cancelled' && (d.state !== 'done' || d.modelId !== null),
        ) ?? null,
      modelId: models.find((m) => m.catalogId === entry.id && m.source === 'downloaded')?.id ?? null,
    }));
    return {
      catalog,
      models,
      downloads: downloads.filter((d) => d.state !== 'done' && d.state !== 'cancelled'),
      modelsDir: this.options.modelsDir,
    };
  }

  download(request: DownloadRequest): Promise<Download> {
    return this.requests.run(() => this.startDownload(request));
  }

  private async startDownload(request: DownloadRequest): Promise<Download> {
    if ('catalogId' in request) {
      const entry = this.entry(request.catalogId);
      if (!entry) {
        throw new HomebodyError('UNKNOWN_CATALOG_ENTRY', `There is no model "${request.catalogId}" in the catalog.`);
      }
      const present = this.models().find((m) => m.catalogId === entry.id && m.source === 'downloaded' && !m.missing);
      if (present) {
        throw new HomebodyError('MODEL_ALREADY_PRESENT', `${entry.name} is already downloaded (${present.path}).`);
      }
      const unfinished = this.downloads.unfinishedFor(entry.id);
      if (unfinished) {
        return unfinished.state === 'paused' || unfinished.state === 'failed'
          ? this.downloads.resume(unfinished.id)
          : unfinished;
      }
      return this.downloads.start({
        catalogId: entry.id,
        uri: entry.uri,
        expectedSizeBytes: entry.sizeBytes,
        expectedSha256: entry.sha256,
      });
    }
    // The same URI again resumes its unfinished download.
    const unfinished = this.downloads
      .list()
      .find(
        (d) =>
          d.catalogId === null &&
          d.uri === request.uri &&
          (d.state === 'queued' ||
            d.state === 'downloading' ||
            d.state === 'paused' ||
            d.state === 'verifying' ||
            d.state === 'failed'),
      );
    if (unfinished) {
      return unfinished.state === 'paused' || unfinished.state === 'failed'
        ? this.downloads.resume(unfinished.id)
        : unfinished;
    }
    return this.downloads.start({
      catalogId: null,
      uri: request.uri,
      ...(request.fileName ? { fileName: request.fileName } : {}),
      expectedSizeBytes: request.sizeBytes ?? null,
      expectedSha256: request.sha256 ?? null,
    });
  }

  /** Adds a GGUF file the user has, left where it is, once it reads as a complete GGUF model. */
  add(rawPath: string): LocalModel {
    const path = resolve(rawPath);
    const known = this.options.store.models.models.byPath(path);
    if (known) throw new HomebodyError('MODEL_ALREADY_PRESENT', `${path} is already in the list, as ${known.name}.`);
    const model = this.remember(path);
    this.changed();
    return this.view(model);
  }

  /** Lists a model file the user chose, as added by them. */
  private remember(path: string): StoredModel {
    const summary = inspectGguf(path);
    const model: StoredModel = {
      id: randomUUID(),
      path,
      name: summary.name ?? basename(path),
      sizeBytes: summary.fileBytes,
      source: 'added',
      catalogId: null,
      sha256: null,
      integrity: 'unchecked',
      addedAt: this.now(),
    };
    this.options.store.models.models.insert(model);
    return model;
  }

  /**
   * Computes a model's sha256 and compares it: with the catalog's for a catalog download, with the one recorded at
   * download otherwise. A mismatch is recorded (a downloaded model is then not opened) and reported.
   */
  async verify(id: string): Promise<LocalModel> {
    const model = this.mustGetModel(id);
    this.assertPresent(model);
    const sha256 = await sha256File(model.path);
    const sizeBytes = statSync(model.path).size;
    const catalogSha = this.entry(model.catalogId)?.sha256 ?? null;
    const expected = catalogSha ?? (model.source === 'downloaded' ? model.sha256 : null);
    const repo = this.options.store.models.models;
    if (expected !== null && expected !== sha256) {
      // The verified digest stays recorded: a later check compares against it again.
      repo.setChecksum(id, model.sha256 ?? sha256, 'mismatch', sizeBytes);
      this.changed();
      throw new HomebodyError(
        'CHECKSUM_MISMATCH',
        `${model.name} is not the file it was: its sha256 is ${sha256}, expected ${expected}. Delete it and download it again.`,
      );
    }
    const integrity =
      catalogSha !== null
        ? 'sha256-matched'
        : model.source === 'added'
          ? 'unchecked'
          : model.integrity === 'mismatch'
            ? 'size-matched'
            : model.integrity;
    repo.setChecksum(id, sha256, integrity, sizeBytes);
    this.changed();
    return this.view(this.mustGetModel(id));
  }

  /** Deletes a downloaded model's file (closing it first when active), or forgets an added one. */
  async remove(id: string): Promise<RemoveModelResult> {
    const model = this.mustGetModel(id);
    if (this.isActive(model)) await this.options.close();
    const deletesFile = model.source === 'downloaded' && this.insideModelsDir(model.path);
    if (deletesFile) {
      try {
        await unlink(model.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          throw new HomebodyError('MODEL_UNREADABLE', `Cannot delete ${model.path}: ${(error as Error).message}`);
        }
      }
    }
    this.options.store.models.models.delete(id);
    this.options.forgetLastModel(model.path);
    this.options.thinking.set(model.path, 'auto');
    this.changed();
    return {
      id,
      deletedFile: deletesFile,
      message: deletesFile
        ? `Deleted ${model.name} (${model.path}).`
        : `Removed ${model.name} from the list; the file itself was left where it is (${model.path}).`,
    };
  }

  /** Makes a model on disk the active one (a downloaded model only while its bytes are the verified ones). */
  async activate(id: string): Promise<ModelState> {
    const model = this.mustGetModel(id);
    this.assertPresent(model);
    this.assertUsable(model);
    const size = statSync(model.path).size;
    if (size !== model.sizeBytes) {
      if (model.source === 'downloaded') {
        this.options.store.models.models.setChecksum(id, model.sha256, 'mismatch', size);
        this.changed();
        throw new HomebodyError(
          'CHECKSUM_MISMATCH',
          `${model.name} changed on disk since it was checked (${model.sizeBytes} bytes then, ${size} now). Delete it and download it again.`,
        );
      }
      // The user's own file was replaced: what was computed about it no longer holds.
      this.options.store.models.models.setChecksum(id, null, 'unchecked', size);
      this.changed();
    }
    return this.options.open(model.path);
  }

  /** Saves whether a model thinks before it answers; the engine reads it at the next reply, so nothing reloads. */
  setThinking(id: string, setting: ThinkingSetting): LocalModel {
    const model = this.mustGetModel(id);
    this.options.thinking.set(model.path, setting);
    this.changed();
    return this.view(model);
  }

  /**
   * What `model.open` checks first: no partial download (under the staging folder) and no downloaded model whose
   * bytes failed a check is ever loaded.
   */
  assertOpenable(rawPath: string): void {
    const path = resolve(rawPath);
    if (path.startsWith(this.downloads.stagingRoot + sep) || path === this.downloads.stagingRoot) {
      throw new HomebodyError(
        'MODEL_UNREADABLE',
        `${path} is a download that is not finished or not verified yet; Homebody opens it once it is checked.`,
      );
    }
    const known = this.options.store.models.models.byPath(path);
    if (known) this.assertUsable(known);
  }

  // ---------------------------------------------------------------------------------------------------------------

  private entry(catalogId: string | null): CatalogEntry | undefined {
    return catalogId === null ? undefined : this.options.catalog.find((e) => e.id === catalogId);
  }

  private activePath(): string | null {
    const state = this.options.engineState();
    if (state.status === 'ready') return resolve(state.info.path);
    if (state.status === 'loading') return resolve(state.path);
    return null;
  }

  private isActive(model: StoredModel): boolean {
    const active = this.activePath();
    return active !== null && samePath(active, model.path);
  }

  private insideModelsDir(path: string): boolean {
    return samePath(dirname(resolve(path)), this.options.modelsDir);
  }

  private models(): LocalModel[] {
    return this.options.store.models.models.list().map((m) => this.view(m));
  }

  private view(model: StoredModel): LocalModel {
    return {
      ...model,
      active: this.isActive(model),
      missing: !existsSync(model.path),
      thinking: this.options.thinking.get(model.path),
    };
  }

  private mustGetModel(id: string): StoredModel {
    const model = this.options.store.models.models.get(id);
    if (!model)
      throw new HomebodyError('MODEL_NOT_FOUND', `There is no model ${id} in the list; it may have been removed.`);
    return model;
  }

  private assertPresent(model: StoredModel): void {
    if (!existsSync(model.path)) {
      throw new HomebodyError(
        'MODEL_NOT_FOUND',
        `The file of ${model.name} is no longer at ${model.path}; it was moved or deleted outside Homebody.`,
      );
    }
  }

  private assertUsable(model: StoredModel): void {
    if (model.source === 'downloaded' && model.integrity === 'mismatch') {
      throw new HomebodyError(
        'CHECKSUM_MISMATCH',
        `${model.name} failed its last check: its bytes are not the verified ones. Delete it and download it again.`,
      );
    }
  }

  /** Records a verified download as a model on disk. */
  private adopt(record: DownloadRecord, verified: Verified): string {
    const repo = this.options.store.models.models;
    return this.options.store.transaction(() => {
      // A stale entry for the same path (its file deleted outside Homebody) gives way to the new file.
      const stale = repo.byPath(record.path);
      if (stale) repo.delete(stale.id);
      const id = randomUUID();
      repo.insert({
        id,
        path: record.path,
        name: this.entry(record.catalogId)?.name ?? record.fileName,
        sizeBytes: verified.sizeBytes,
        source: 'downloaded',
        catalogId: record.catalogId,
        sha256: verified.sha256,
        integrity: verified.integrity,
        addedAt: this.now(),
      });
      return id;
    });
  }

  private changed(): void {
    this.options.emit({ type: 'models.changed', listing: this.listing() });
  }
}
