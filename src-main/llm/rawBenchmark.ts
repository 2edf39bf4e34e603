import { getLlama, LlamaChatSession, LlamaLogLevel } from 'node-llama-cpp';
import type { EngineConfig } from './engineConfig.js';
import { kvCacheTypeOf, kvShapeOf } from './kvShape.js';
import { contextMemoryOptions, modelMemoryOptions } from './memoryPlan.js';

/** One reply's timings, measured the same way for Homebody's engine and for node-llama-cpp used directly. */
export interface ReplyTiming {
  /** Prompt tokens evaluated (the part of the prompt the sequence did not already hold). */
  readonly evaluatedPromptTokens: number;
  readonly completionTokens: number;
  /** From the request to the first streamed chunk (or to the end, when nothing was streamed). */
  readonly firstChunkMs: number;
  /**
   * From the first streamed chunk to the last: the time the tokens after the first took to arrive. What happens
   * after the last token (bookkeeping, disposing the session) is not decoding, on either side.
   */
  readonly decodeMs: number;
}

export interface RawReplyRequest {
  readonly prompt: string;
  readonly maxTokens: number;
}

/**
 * node-llama-cpp used directly, as its documentation shows it, with the settings Homebody's engine uses (threads,
 * context size, the same memory layout (memoryPlan.ts), the default batch size, the chat wrapper node-llama-cpp picks for the model, one sequence kept
 * across replies): the baseline the benchmark compares the engine with.
 */
export async function runRawReplies(
  config: Pick<EngineConfig, 'threads' | 'contextSize' | 'gpu' | 'systemPrompt' | 'kvCache'>,
  modelPath: string,
  requests: readonly RawReplyRequest[],
): Promise<ReplyTiming[]> {
  const llama = await getLlama({
    gpu: config.gpu,
    maxThreads: config.threads,
    build: 'never',
    logLevel: LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath, ...modelMemoryOptions({ cpuOnly: llama.gpu === false }) });
  const timings: ReplyTiming[] = [];
  try {
    const contextSize = Math.min(config.contextSize, model.trainContextSize);
    const context = await model.createContext({
      contextSize,
      threads: config.threads,
      sequences: 1,
      ...contextMemoryOptions(
        kvCacheTypeOf(config.kvCache, contextSize, kvShapeOf(modelPath)?.shape),
        model.flashAttentionSupported,
      ),
    });
    const sequence = context.getSequence();
    for (const request of requests) {
      const session = new LlamaChatSession({
        contextSequence: sequence,
        systemPrompt: config.systemPrompt,
        autoDisposeSequence: false,
      });
      const before = sequence.tokenMeter.getState();
      const started = performance.now();
      let firstChunkAt: number | undefined;
      let lastChunkAt: number | undefined;
      await session.promptWithMeta(request.prompt, {
        maxTokens: request.maxTokens,
        temperature: 0,
        onResponseChunk: () => {
          lastChunkAt = performance.now();
          firstChunkAt ??= lastChunkAt;
        },
      });
      const ended = performance.now();
      const used = sequence.tokenMeter.diff(before);
      timings.push({
        evaluatedPromptTokens: used.usedInputTokens,
        completionTokens: used.usedOutputTokens,
        firstChunkMs: (firstChunkAt ?? ended) - started,
        decodeMs: (lastChunkAt ?? ended) - (firstChunkAt ?? ended),
      });
      session.dispose({ disposeSequence: false });
    }
    await context.dispose();
  } finally {
    await model.dispose();
    await llama.dispose();
  }
  return timings;
}
