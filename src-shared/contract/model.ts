import { z } from 'zod';
import { AppErrorSchema } from './errors.js';

/**
 * Whether a model thinks before it answers. 'auto': as its GGUF chat template does by default; 'on' and 'off': the
 * user's choice for that model, whatever the template's default.
 */
export const ThinkingSettingSchema = z.enum(['auto', 'on', 'off']);
export type ThinkingSetting = z.infer<typeof ThinkingSettingSchema>;

/** What a model's chat template does about thinking when nothing says: 'none' when it has no thinking at all. */
export const ThinkingDefaultSchema = z.enum(['on', 'off', 'none']);
export type ThinkingDefault = z.infer<typeof ThinkingDefaultSchema>;

export const ModelInfoSchema = z.object({
  path: z.string(),
  name: z.string(),
  architecture: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  contextSize: z.number().int().positive(),
  trainContextSize: z.number().int().positive(),
  /** A generated test model: random weights, never an assistant. */
  synthetic: z.boolean(),
  gpu: z.string(),
  /** What the model's chat template does about thinking by default (absent from engines that do not say). */
  thinkingDefault: ThinkingDefaultSchema.optional(),
  /** Present when the model runs on another computer: which server, the model it serves, and how it is spoken to. */
  remote: z
    .object({
      url: z.string(),
      model: z.string(),
      /** llama-server's completion endpoint in the model's own dialect, or the OpenAI-compatible chat API. */
      protocol: z.enum(['dialect', 'openai']),
      /** The node's name, for people ("the server at 192.168.1.20:8080", or the one the user gave). */
      label: z.string().optional(),
      /** The TLS certificate fingerprint pinned for it (https); absent over plain http. */
      fingerprint: z.string().optional(),
    })
    .optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ModelStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('none') }),
  z.object({ status: z.literal('loading'), path: z.string(), progress: z.number().min(0).max(1) }),
  z.object({ status: z.literal('ready'), info: ModelInfoSchema }),
  z.object({ status: z.literal('error'), path: z.string(), error: AppErrorSchema }),
]);
export type ModelState = z.infer<typeof ModelStateSchema>;

/** A SHA-256 digest as 64 lowercase hex characters. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 digest is 64 lowercase hex characters');

/**
 * One model Homebody offers for download (resources/models/catalog.json). Every entry is downloadable; what is not
 * known about it yet is said truthfully: a null size or sha256, and `uriConfirmed: false` when the file's location
 * could not be confirmed (the download may then fail with "not found" until the catalog is corrected).
 */
export const CatalogEntrySchema = z.object({
  id: z.string().min(1).max(200),
  family: z.string(),
  name: z.string(),
  quantization: z.string(),
  /** Download size in bytes; null until confirmed. Checked before use when known. */
  sizeBytes: z.number().int().positive().nullable(),
  /** The file's sha256; null until confirmed. Checked before use when known. */
  sha256: Sha256Schema.nullable(),
  licence: z.string(),
  suits: z.string(),
  /** A node-llama-cpp model URI (`hf:owner/repo/file.gguf`) or an http(s) URL. */
  uri: z.string().min(1),
  /** False while the URI's repository and file name have not been confirmed against the model card. */
  uriConfirmed: z.boolean(),
  /** The model card (a web page for people). */
  card: z.string(),
  /** The catalog id of the model this one was fine-tuned from (BotPsy: Qwen3.5-0.8B); null for a base model. */
  baseId: z.string().nullable(),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;
