import type {
  AppError,
  Download,
  DownloadState,
  ErrorCode,
  LocalModel,
  ModelIntegrity,
} from '../../../src-shared/contract/index.js';
import type { Db } from '../db.js';

/** A model file as stored; `active` and `missing` are worked out when listed. */
export type StoredModel = Omit<LocalModel, 'active' | 'missing'>;

/** A download as stored; speed and time left exist only while it runs. */
export type StoredDownload = Omit<Download, 'bytesPerSecond' | 'etaSeconds'> & {
  /** The folder its partial file lives in until it is verified. */
  readonly stagingDir: string;
};

interface ModelRow {
  id: string;
  path: string;
  name: string;
  size_bytes: number;
  source: 'downloaded' | 'added';
  catalog_id: string | null;
  sha256: string | null;
  integrity: ModelIntegrity;
  added_at: number;
}

interface DownloadRow {
  id: string;
  catalog_id: string | null;
  uri: string;
  file_name: string;
  path: string;
  staging_dir: string;
  state: DownloadState;
  bytes: number;
  total_bytes: number | null;
  expected_size: number | null;
  expected_sha256: string | null;
  error_code: string | null;
  error_message: string | null;
  model_id: string | null;
  created_at: number;
  updated_at: number;
}

const toModel = (row: ModelRow): StoredModel => ({
  id: row.id,
  path: row.path,
  name: row.name,
  sizeBytes: row.size_bytes,
  source: row.source,
  catalogId: row.catalog_id,
  sha256: row.sha256,
  integrity: row.integrity,
  addedAt: row.added_at,
});

const toDownload = (row: DownloadRow): StoredDownload => ({
  id: row.id,
  catalogId: row.catalog_id,
  uri: row.uri,
  fileName: row.file_name,
  path: row.path,
  stagingDir: row.staging_dir,
  state: row.state,
  bytes: row.bytes,
  totalBytes: row.total_bytes,
  expectedSizeBytes: row.expected_size,
  expectedSha256: row.expected_sha256,
  error:
    row.error_code === null
      ? null
      : { code: row.error_code as ErrorCode, message: row.error_message ?? row.error_code },
  modelId: row.model_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Column of each updatable download field. */
const DOWNLOAD_COLUMNS = {
  state: 'state',
  bytes: 'bytes',
  totalBytes: 'total_bytes',
  error: null,
  modelId: 'model_id',
  updatedAt: 'updated_at',
  path: 'path',
} as const;
export type DownloadPatch = Partial<Pick<StoredDownload, keyof typeof DOWNLOAD_COLUMNS>>;

/** The models Homebody knows on disk, and its downloads. */
export function createModelsRepo(db: Db) {
  const insertModel = db.prepare<[ModelRow]>(
    `INSERT INTO models (id, path, name, size_bytes, source, catalog_id, sha256, integrity, added_at)
     VALUES (@id, @path, @name, @size_bytes, @source, @catalog_id, @sha256, @integrity, @added_at)`,
  );
  const allModels = db.prepare<[], ModelRow>('SELECT * FROM models ORDER BY added_at DESC, id');
  const modelById = db.prepare<[string], ModelRow>('SELECT * FROM models WHERE id = ?');
  const modelByPath = db.prepare<[string], ModelRow>('SELECT * FROM models WHERE path = ?');
  const deleteModel = db.prepare<[string]>('DELETE FROM models WHERE id = ?');
  const setChecksum = db.prepare<[string | null, ModelIntegrity, number, string]>(
    'UPDATE models SET sha256 = ?, integrity = ?, size_bytes = ? WHERE id = ?',
  );

  const insertDownload = db.prepare<[DownloadRow]>(
    `INSERT INTO model_downloads (id, catalog_id, uri, file_name, path, staging_dir, state, bytes, total_bytes,
       expected_size, expected_sha256, error_code, error_message, model_id, created_at, updated_at)
     VALUES (@id, @catalog_id, @uri, @file_name, @path, @staging_dir, @state, @bytes, @total_bytes,
       @expected_size, @expected_sha256, @error_code, @error_message, @model_id, @created_at, @updated_at)`,
  );
  const allDownloads = db.prepare<[], DownloadRow>('SELECT * FROM model_downloads ORDER BY created_at DESC, id');
  const downloadById = db.prepare<[string], DownloadRow>('SELECT * FROM model_downloads WHERE id = ?');
  // One statement per combination of updated fields, made on first use.
  const updates = new Map<string, ReturnType<typeof db.prepare<unknown[]>>>();

  return {
    models: {
      insert(model: StoredModel): void {
        insertModel.run({
          id: model.id,
          path: model.path,
          name: model.name,
          size_bytes: model.sizeBytes,
          source: model.source,
          catalog_id: model.catalogId,
          sha256: model.sha256,
          integrity: model.integrity,
          added_at: model.addedAt,
        });
      },
      list: (): StoredModel[] => allModels.all().map(toModel),
      get(id: string): StoredModel | undefined {
        const row = modelById.get(id);
        return row ? toModel(row) : undefined;
      },
      byPath(path: string): StoredModel | undefined {
        const row = modelByPath.get(path);
        return row ? toModel(row) : undefined;
      },
      setChecksum(id: string, sha256: string | null, integrity: ModelIntegrity, sizeBytes: number): void {
        setChecksum.run(sha256, integrity, sizeBytes, id);
      },
      delete(id: string): void {
        deleteModel.run(id);
      },
    },
    downloads: {
      insert(download: StoredDownload): void {
        insertDownload.run({
          id: download.id,
          catalog_id: download.catalogId,
          uri: download.uri,
          file_name: download.fileName,
          path: download.path,
          staging_dir: download.stagingDir,
          state: download.state,
          bytes: download.bytes,
          total_bytes: download.totalBytes,
          expected_size: download.expectedSizeBytes,
          expected_sha256: download.expectedSha256,
          error_code: download.error?.code ?? null,
          error_message: download.error?.message ?? null,
          model_id: download.modelId,
          created_at: download.createdAt,
          updated_at: download.updatedAt,
        });
      },
      list: (): StoredDownload[] => allDownloads.all().map(toDownload),
      get(id: string): StoredDownload | undefined {
        const row = downloadById.get(id);
        return row ? toDownload(row) : undefined;
      },
      update(id: string, patch: DownloadPatch): void {
        const sets: string[] = [];
        const values: Array<string | number | null> = [];
        for (const [key, value] of Object.entries(patch) as Array<[keyof DownloadPatch, unknown]>) {
          if (value === undefined) continue;
          if (key === 'error') {
            const error = value as AppError | null;
            sets.push('error_code = ?', 'error_message = ?');
            values.push(error?.code ?? null, error?.message ?? null);
            continue;
          }
          sets.push(`${DOWNLOAD_COLUMNS[key]} = ?`);
          values.push(value as string | number | null);
        }
        if (sets.length === 0) return;
        const sql = `UPDATE model_downloads SET ${sets.join(', ')} WHERE id = ?`;
        let statement = updates.get(sql);
        if (!statement) updates.set(sql, (statement = db.prepare(sql)));
        statement.run(...values, id);
      },
    },
  };
}
export type ModelsRepo = ReturnType<typeof createModelsRepo>;
