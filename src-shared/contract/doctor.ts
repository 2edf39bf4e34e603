import { z } from 'zod';
import { ToolSandboxSchema } from './privacy.js';
import { AppErrorSchema } from './errors.js';

/** The largest context Homebody lets a user ask for; the model's train context caps it further. */
export const MAX_CONTEXT_SIZE = 262_144;
export const MIN_CONTEXT_SIZE = 512;

/** GPU layers: 'auto' lets node-llama-cpp offload what fits, 0 keeps everything on the CPU. */
export const GpuLayersSchema = z.union([z.literal('auto'), z.number().int().min(0).max(1000)]);
export type GpuLayers = z.infer<typeof GpuLayersSchema>;

/** How the active model runs. Context size, GPU layers and threads apply when a model loads; temperature per reply. */
export const ModelSettingsSchema = z
  .object({
    contextSize: z.number().int().min(MIN_CONTEXT_SIZE).max(MAX_CONTEXT_SIZE),
    gpuLayers: GpuLayersSchema,
    threads: z.number().int().min(1).max(256),
    temperature: z.number().min(0).max(2),
  })
  .strict();
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;
export type ModelSettingKey = keyof ModelSettings;

/** What the user chose; a setting left out follows the computed default. */
export const SavedModelSettingsSchema = ModelSettingsSchema.partial().strict();
export type SavedModelSettings = z.infer<typeof SavedModelSettingsSchema>;

/** A setting fixed for this run from outside the app: an environment variable or a command-line flag. */
export const SettingOverrideSchema = z.object({ value: z.union([z.number(), z.string()]), source: z.string() });

export const ModelSettingsViewSchema = z.object({
  /** Computed for this machine (and the loaded model's train context, when one is loaded). */
  defaults: ModelSettingsSchema,
  saved: SavedModelSettingsSchema,
  /** Environment variables and flags win over saved settings for this run. */
  overrides: z.partialRecord(z.enum(['contextSize', 'gpuLayers', 'threads', 'temperature']), SettingOverrideSchema),
  /** What the next load (and the next reply) uses: defaults, then saved, then overrides. */
  effective: ModelSettingsSchema,
  /** Why each default is what it is, in a sentence. */
  reasons: z.record(z.string(), z.string()),
  /** True when a change needs the model loaded again and that reload was started in the background. */
  reloading: z.boolean(),
});
export type ModelSettingsView = z.infer<typeof ModelSettingsViewSchema>;

export const BackendStatusSchema = z.object({
  /** 'cpu', 'cuda', 'vulkan' or 'metal'. */
  name: z.string(),
  /** in-use: the backend llama.cpp runs on now; available: usable on this machine; unavailable: see reason. */
  status: z.enum(['in-use', 'available', 'unavailable']),
  reason: z.string().nullable(),
});
export type BackendStatus = z.infer<typeof BackendStatusSchema>;

export const MachineReportSchema = z.object({
  platform: z.string(),
  arch: z.string(),
  cpu: z.object({
    model: z.string(),
    /** null when the system does not say (only Linux's /proc/cpuinfo is read). */
    physicalCores: z.number().int().positive().nullable(),
    logicalCores: z.number().int().positive(),
    availableParallelism: z.number().int().positive(),
  }),
  memory: z.object({ totalBytes: z.number().nonnegative(), freeBytes: z.number().nonnegative() }),
  gpu: z.object({
    /** The backend in use ('cpu' when none), or null when llama.cpp could not be started. */
    backend: z.string().nullable(),
    devices: z.array(z.string()),
    vramTotalBytes: z.number().nonnegative().nullable(),
    vramFreeBytes: z.number().nonnegative().nullable(),
    /** Why the GPU probe failed, when it did; the report is still made. */
    error: z.string().nullable(),
  }),
  backends: z.array(BackendStatusSchema),
  llamaCpp: z.object({ release: z.string().nullable(), buildType: z.string().nullable() }),
});
export type MachineReport = z.infer<typeof MachineReportSchema>;

/** Expected speed. 'estimate': scaled from reference figures; 'scaled': from this machine's benchmark, scaled by size; 'measured': this very file was benchmarked here. */
export const SpeedSchema = z.object({
  kind: z.enum(['estimate', 'scaled', 'measured']),
  promptTokensPerSecond: z.number().nonnegative().nullable(),
  decodeTokensPerSecond: z.number().nonnegative().nullable(),
  loadMs: z.number().nonnegative().nullable(),
  note: z.string(),
});
export type Speed = z.infer<typeof SpeedSchema>;

export const ModelFitSchema = z.object({
  /** The catalog id, or 'active' for the loaded model. */
  id: z.string(),
  name: z.string(),
  quantization: z.string().nullable(),
  /** Weights in bytes; `sizeSource` says where the figure comes from. */
  sizeBytes: z.number().nonnegative().nullable(),
  sizeSource: z.enum(['file', 'catalog', 'estimate', 'unknown']),
  contextSize: z.number().int().positive(),
  kvCacheBytes: z.number().nonnegative().nullable(),
  /** Weights + KV cache + working buffers. */
  requiredBytes: z.number().nonnegative().nullable(),
  /** Free memory it is compared with (free VRAM when it goes to the GPU, else free RAM). */
  availableBytes: z.number().nonnegative(),
  memory: z.enum(['ram', 'vram']),
  /** yes: fits with a margin; tight: fits without the margin; no: does not fit; unknown: size unknown. */
  fits: z.enum(['yes', 'tight', 'no', 'unknown']),
  speed: SpeedSchema,
  /** The model's file on this machine, when there is one. */
  path: z.string().nullable(),
});
export type ModelFit = z.infer<typeof ModelFitSchema>;

export const BenchResultSchema = z.object({
  modelName: z.string(),
  modelPath: z.string(),
  /** A generated model (random weights with a real model's dimensions): speed does not depend on weight values. */
  synthetic: z.boolean(),
  sizeBytes: z.number().nonnegative(),
  /** The catalog entry whose file was measured, or null for the generated model. */
  catalogId: z.string().nullable(),
  threads: z.number().int().positive(),
  gpu: z.string(),
  loadMs: z.number().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  promptTokensPerSecond: z.number().nonnegative(),
  generatedTokens: z.number().int().nonnegative(),
  decodeTokensPerSecond: z.number().nonnegative(),
  measuredAt: z.number().int(),
  /** The system's 1-minute load average when the run started (null where the system has none, e.g. Windows). */
  loadAverage: z.number().nonnegative().nullable().default(null),
  /** Logical cores, to read the load average against: a load above it means the figures came out low. */
  cores: z.number().int().positive().nullable().default(null),
});
export type BenchResult = z.infer<typeof BenchResultSchema>;

/** A model on another computer as the Doctor measured it: the round trip of one small request, and a short reply. */
export const NodeCheckSchema = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  model: z.string(),
  /** How long a listing of its models took, there and back (the network and the server's answer). */
  roundTripMs: z.number().nonnegative().nullable(),
  /** A short reply (up to 16 tokens) to a fixed prompt: its first token and decode speed. */
  ttftMs: z.number().nonnegative().nullable(),
  tokensPerSecond: z.number().nonnegative().nullable(),
  completionTokens: z.number().int().nonnegative().nullable(),
  /** Why it could not be measured (offline mode, unreachable, another model, a changed certificate). */
  error: AppErrorSchema.nullable(),
});
export type NodeCheck = z.infer<typeof NodeCheckSchema>;

export const DoctorReportSchema = z.object({
  generatedAt: z.number().int(),
  machine: MachineReportSchema,
  models: z.array(ModelFitSchema),
  settings: ModelSettingsViewSchema,
  /** The last benchmark run on this machine, or null. */
  bench: BenchResultSchema.nullable(),
  /** The OS sandbox around the tool worker (the same as the Privacy page shows). */
  sandbox: ToolSandboxSchema,
  /** Each model on another computer the user added, measured now (absent from older reports). */
  nodes: z.array(NodeCheckSchema).optional(),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

const Empty = z.object({}).strict();

/** The benchmark began its next phase (loading the model, measuring the prompt, decoding), for a progress line. */
export const DoctorProgressEventSchema = z.object({ type: z.literal('doctor.progress'), phase: z.string() });

/** The Doctor's and the model settings' part of the API (merged into `apiSchemas`). */
export const doctorApiSchemas = {
  /** This machine (CPU, memory, GPU, llama.cpp backends) and, per catalog model, whether it fits and its speed. */
  'doctor.report': { request: Empty, response: DoctorReportSchema },
  /**
   * A short benchmark (load, ~64 prompt tokens, ~32 generated): on a catalog model's downloaded file when `catalogId`
   * names one that is on disk, else on a generated model with Qwen3-0.6B's dimensions. Takes seconds to a minute;
   * each phase is announced by a `doctor.progress` event.
   */
  'doctor.bench': {
    request: z.object({ catalogId: z.string().min(1).max(200).optional() }).strict(),
    response: BenchResultSchema,
  },
  'model.settings': { request: Empty, response: ModelSettingsViewSchema },
  /**
   * Replaces the saved settings (`{}` resets them to the defaults). When a setting that applies at load changes and a
   * model is loaded, a reply in progress is stopped and the model reloads in the background; the answer does not wait.
   */
  'model.setSettings': {
    request: z.object({ settings: SavedModelSettingsSchema }).strict(),
    response: ModelSettingsViewSchema,
  },
} as const;
