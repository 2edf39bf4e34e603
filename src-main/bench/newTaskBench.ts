import { basename, resolve } from 'node:path';
import { UsageError } from '../cli/args.js';
import { runAppNewTaskBench } from './appNewTaskBench.js';
import { ensureBenchModel } from './benchModels.js';
import { runLlamaServerBench } from './llamaServerBench.js';
import { BENCH_PRESETS, DEFAULT_BENCH_ARCH, type BenchArch } from './modelBench.js';
import { NEW_TASK_PROMPTS } from './newTaskRequests.js';
import { sideBySideLines, type LlamaServerReport } from './newTaskReport.js';
import type { SectionReport } from './report.js';

export interface NewTaskBenchOptions {
  /** The generated model's architecture (see BENCH_PRESETS); its q4_0 file is used. Default qwen35. */
  readonly arch?: string;
  /** A GGUF file to measure instead of the generated one (e.g. the real BotPsy file). */
  readonly model?: string;
  /** Build llama-server when it is missing (default true). */
  readonly buildLlamaServer?: boolean;
  readonly log?: (line: string) => void;
}

/**
 * What a new task costs the user: five different new tasks through the app (after a restart, then one after
 * another; appNewTaskBench.ts), and llama.cpp's llama-server on the same file, context, threads, system prompt and
 * tools (llamaServerBench.ts), in one run. Both run in processes of their own, so the bench's own memory figures
 * stay the model section's. When llama-server cannot run, its half says why and the app's half stands.
 */
export async function runNewTaskBench(options: NewTaskBenchOptions = {}): Promise<SectionReport> {
  const log = options.log ?? (() => {});
  const arch = options.arch ?? DEFAULT_BENCH_ARCH;
  if (!Object.hasOwn(BENCH_PRESETS, arch)) {
    throw new UsageError(`--arch must be ${Object.keys(BENCH_PRESETS).join(' or ')}, not ${arch}`);
  }
  const preset = BENCH_PRESETS[arch as BenchArch];
  const model = options.model ? resolve(options.model) : ensureBenchModel(preset, 'q4_0');
  const modelName = options.model ? basename(model) : `generated ${preset} q4_0`;
  log(`new task: on ${modelName}`);
  const app = await runAppNewTaskBench({ model, prompts: NEW_TASK_PROMPTS, log });
  const { report } = app;

  let llamaServer: LlamaServerReport;
  try {
    llamaServer = await runLlamaServerBench({
      model,
      contextSize: report.contextSize,
      threads: report.threads,
      systemPrompt: app.offered.systemPrompt,
      tools: app.offered.tools,
      prompts: report.tasks.map((t) => t.prompt),
      maxTokens: report.maxTokens,
      build: options.buildLlamaServer ?? true,
      log,
    });
  } catch (error) {
    llamaServer = { error: error instanceof Error ? error.message : String(error) };
    log(`llama-server: ${llamaServer.error}`);
  }

  return {
    title: `A new task, first token as the user feels it: Homebody beside llama-server (${modelName}, ${report.threads} threads, context ${report.contextSize})`,
    figures: {},
    labels: {},
    extra: { appNewTask: report, llamaServer },
    notes: sideBySideLines(report, llamaServer),
  };
}
