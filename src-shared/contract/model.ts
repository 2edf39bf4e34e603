import { z } from 'zod';
import { AppErrorSchema } from './errors.js';

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
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ModelStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('none') }),
  z.object({ status: z.literal('loading'), path: z.string(), progress: z.number().min(0).max(1) }),
  z.object({ status: z.literal('ready'), info: ModelInfoSchema }),
  z.object({ status: z.literal('error'), path: z.string(), error: AppErrorSchema }),
]);
export type ModelState = z.infer<typeof ModelStateSchema>;

export const CatalogEntrySchema = z.object({
  id: z.string(),
  family: z.string(),
  name: z.string(),
  quantization: z.string(),
  /** Download size in bytes; null until confirmed. */
  sizeBytes: z.number().int().positive().nullable(),
  licence: z.string(),
  suits: z.string(),
  /** A node-llama-cpp model URI (hf:owner/repo/file.gguf). */
  uri: z.string(),
  card: z.string(),
  availability: z.literal('download-later'),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;
