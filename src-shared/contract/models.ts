import { z } from 'zod';
import { AppErrorSchema } from './errors.js';
import { CatalogEntrySchema, ModelStateSchema, Sha256Schema, ThinkingSettingSchema } from './model.js';

const Id = z.string().min(1).max(64);
const Path = z.string().min(1).max(4096);

/**
 * Where a download is. `queued`: waiting for another download to finish (one runs at a time) or for its size to be
 * known; `paused`: stopped by the user, by a dropped connection or by quitting the app, resumable from the bytes on
 * disk; `verifying`: all bytes are here and their size and sha256 are being checked; `done`: verified and listed
 * among the models on disk; `failed`: see `error`; `cancelled`: stopped and its partial file removed.
 */
export const DownloadStateSchema = z.enum([
  'queued',
  'downloading',
  'paused',
  'verifying',
  'done',
  'failed',
  'cancelled',
]);
export type DownloadState = z.infer<typeof DownloadStateSchema>;

/** One download, as the Models page shows it. Sizes in bytes, speed in bytes per second. */
export const DownloadSchema = z.object({
  id: Id,
  /** The catalog entry it came from, or null for a download by URI. */
  catalogId: z.string().nullable(),
  /** What is fetched: an `hf:owner/repo/file.gguf` URI or an http(s) URL. */
  uri: z.string(),
  /** The file name under the models folder. */
  fileName: z.string(),
  /** The full path the verified file will have. */
  path: z.string(),
  state: DownloadStateSchema,
  /** Bytes on disk so far (kept across pauses and restarts). */
  bytes: z.number().int().nonnegative(),
  /** The file's size: the catalog's when known, else the server's once asked; null until known. */
  totalBytes: z.number().int().nonnegative().nullable(),
  /** Average speed of the current run; 0 when not downloading. */
  bytesPerSecond: z.number().nonnegative(),
  /** Time left at the current speed; null when not downloading or not yet estimable. */
  etaSeconds: z.number().nonnegative().nullable(),
  /** What the file is checked against before use; null when the catalog does not know it. */
  expectedSizeBytes: z.number().int().positive().nullable(),
  expectedSha256: Sha256Schema.nullable(),
  /** Why a download failed (or why a run was paused by a dropped connection), in a sentence a user can act on. */
  error: AppErrorSchema.nullable(),
  /** The model on disk it produced, once done. */
  modelId: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Download = z.infer<typeof DownloadSchema>;

/**
 * How much a model file on disk was checked. `sha256-matched`: its sha256 equals the catalog's; `size-matched`: the
 * catalog (or the server) knew only its size, which matched, and the computed sha256 is recorded; `unchecked`: a file
 * the user added, only checked to be a readable GGUF; `mismatch`: a later check (models.verify, or its size when
 * activated) found its bytes changed: a downloaded model in this state is not opened until downloaded again.
 */
export const ModelIntegritySchema = z.enum(['sha256-matched', 'size-matched', 'unchecked', 'mismatch']);
export type ModelIntegrity = z.infer<typeof ModelIntegritySchema>;

/** A model file Homebody knows on disk: downloaded into its models folder, or added from elsewhere by the user. */
export const LocalModelSchema = z.object({
  id: Id,
  path: z.string(),
  /** The catalog entry's name, else the file name. */
  name: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** `downloaded`: Homebody fetched it into its models folder (removing deletes the file); `added`: the user's own file (removing only forgets it). */
  source: z.enum(['downloaded', 'added']),
  catalogId: z.string().nullable(),
  /** The sha256 computed from the file's bytes (for every download; null for an added file until verified). */
  sha256: Sha256Schema.nullable(),
  integrity: ModelIntegritySchema,
  /** True when it is the model loaded (or loading) now. */
  active: z.boolean(),
  /** True when the file is no longer where it was (moved or deleted outside Homebody); it cannot be opened. */
  missing: z.boolean(),
  addedAt: z.number().int(),
  /** Whether it thinks before answering: the user's choice for this model; absent means 'auto' (its template's). */
  thinking: ThinkingSettingSchema.optional(),
});
export type LocalModel = z.infer<typeof LocalModelSchema>;

/** A catalog entry with where it stands on this machine. */
export const CatalogModelSchema = CatalogEntrySchema.extend({
  /** The latest download of this entry that is not cancelled (any state), or null. */
  download: DownloadSchema.nullable(),
  /** The model on disk downloaded from this entry, or null. */
  modelId: z.string().nullable(),
});
export type CatalogModel = z.infer<typeof CatalogModelSchema>;

/** Everything the Models page shows. */
export const ModelsListingSchema = z.object({
  catalog: z.array(CatalogModelSchema),
  /** The models on disk, newest first. */
  models: z.array(LocalModelSchema),
  /** Downloads that are not done or cancelled (queued, downloading, paused, verifying, failed), newest first. */
  downloads: z.array(DownloadSchema),
  /** `<dataDir>/models`: where downloads are saved. */
  modelsDir: z.string(),
});
export type ModelsListing = z.infer<typeof ModelsListingSchema>;

export const DownloadRequestSchema = z.union([
  z.object({ catalogId: z.string().min(1).max(200) }).strict(),
  z
    .object({
      /** An `hf:owner/repo/file.gguf` URI or an http(s) URL of a .gguf file. */
      uri: z.string().min(1).max(4096),
      /** The file name to save as; defaults to the URI's. */
      fileName: z
        .string()
        .min(1)
        .max(255)
        .regex(/^[^/\\]+\.gguf$/i, 'a file name ending in .gguf, without folders')
        .optional(),
      sizeBytes: z.number().int().positive().optional(),
      sha256: Sha256Schema.optional(),
    })
    .strict(),
]);
export type DownloadRequest = z.infer<typeof DownloadRequestSchema>;

export const RemoveModelResultSchema = z.object({
  id: Id,
  /** True when the file was deleted (a download in Homebody's models folder); false when it was only forgotten. */
  deletedFile: z.boolean(),
  /** What happened, for the user: e.g. "Deleted …" or "Forgot … ; the file itself was left where it is." */
  message: z.string(),
});
export type RemoveModelResult = z.infer<typeof RemoveModelResultSchema>;

/** The model manager's part of the API (merged into `apiSchemas`). */
export const modelsApiSchemas = {
  /** The catalog with each entry's local state, the models on disk and the unfinished downloads. */
  'models.list': { request: z.object({}).strict(), response: ModelsListingSchema },
  /**
   * Starts (or queues) a download and answers at once; progress arrives as `download.progress` events. Asking again
   * for a catalog entry with an unfinished download answers that download (resuming it if paused or failed).
   * Errors: UNKNOWN_CATALOG_ENTRY, MODEL_ALREADY_PRESENT, NETWORK_BLOCKED, INVALID_REQUEST.
   */
  'models.download': { request: DownloadRequestSchema, response: DownloadSchema },
  /** Stops a queued or running download, keeping its bytes on disk. Errors: DOWNLOAD_NOT_FOUND, INVALID_REQUEST. */
  'models.pause': { request: z.object({ id: Id }).strict(), response: DownloadSchema },
  /** Resumes a paused or failed download from the bytes on disk. Errors: DOWNLOAD_NOT_FOUND, INVALID_REQUEST. */
  'models.resume': { request: z.object({ id: Id }).strict(), response: DownloadSchema },
  /** Stops a download and deletes its partial file; the record stays as `cancelled`. Errors: DOWNLOAD_NOT_FOUND. */
  'models.cancel': { request: z.object({ id: Id }).strict(), response: DownloadSchema },
  /** One download as it is now, finished or cancelled ones too (the CLI follows its own). Errors: DOWNLOAD_NOT_FOUND. */
  'models.getDownload': { request: z.object({ id: Id }).strict(), response: DownloadSchema },
  /**
   * Adds a GGUF file from anywhere on disk, left where it is. Checked to be a readable GGUF first.
   * Errors: MODEL_NOT_FOUND, MODEL_UNREADABLE, MODEL_NOT_GGUF, MODEL_TRUNCATED, MODEL_UNSUPPORTED, MODEL_ALREADY_PRESENT.
   */
  'models.add': { request: z.object({ path: Path }).strict(), response: LocalModelSchema },
  /**
   * Computes a model's sha256 (streamed; a few seconds per GB) and, for a catalog model, compares it.
   * Errors: MODEL_NOT_FOUND (unknown id or file gone), CHECKSUM_MISMATCH.
   */
  'models.verify': { request: z.object({ id: Id }).strict(), response: LocalModelSchema },
  /**
   * Deletes a downloaded model's file, or forgets an added one (its file is left alone); the message says which.
   * The active model is closed first. Errors: MODEL_NOT_FOUND.
   */
  'models.remove': { request: z.object({ id: Id }).strict(), response: RemoveModelResultSchema },
  /**
   * Makes a model on disk the active one: like `model.open`, resolves with the final state and never blocks other
   * calls; the UI follows `model.state` events. Errors: MODEL_NOT_FOUND.
   */
  'models.activate': { request: z.object({ id: Id }).strict(), response: ModelStateSchema },
  /**
   * Whether this model thinks before it answers: 'auto' follows its chat template, 'on' and 'off' override it. Applies
   * from the next reply, without reloading the model. Errors: MODEL_NOT_FOUND.
   */
  'models.setThinking': {
    request: z.object({ id: Id, thinking: ThinkingSettingSchema }).strict(),
    response: LocalModelSchema,
  },
} as const;

/** The model manager's events (merged into `HostEventSchema`). */
export const DownloadProgressEventSchema = z.object({
  type: z.literal('download.progress'),
  id: Id,
  catalogId: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative().nullable(),
  bytesPerSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
  state: DownloadStateSchema,
  /** Set when state is `failed` (and when a dropped connection paused the run). */
  error: AppErrorSchema.nullable(),
});
/**
 * The catalog, the models on disk or the downloads changed (a download started, paused, finished, failed or was
 * cancelled; a model was added, removed, verified or activated). Carries the whole listing, so no call is needed.
 * Progress alone is only `download.progress` (at most a few per second per download).
 */
export const ModelsChangedEventSchema = z.object({ type: z.literal('models.changed'), listing: ModelsListingSchema });
