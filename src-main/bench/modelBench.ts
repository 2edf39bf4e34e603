import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultEngineConfig, type EngineConfig } from '../llm/engineConfig.js';
import type { ChatEngine, EngineTool } from '../llm/engineTypes.js';
import { LlamaEngine } from '../llm/llamaEngine.js';
import { runRawReplies, type ReplyTiming } from '../llm/rawBenchmark.js';
import { UsageError } from '../cli/args.js';
import type { ModelPreset } from '../llm/synthetic/makeModel.js';
import { ensureBenchModel } from './benchModels.js';
import { benchTools } from './benchTools.js';
import type { SectionReport } from './report.js';
import { median, round2 } from './stats.js';

export interface BenchModel {
  /** How the model is named in the report (the quantization, e.g. q4_0). */
  readonly name: string;
  readonly path: string;
}

/**
 * The generated model each architecture is measured on: qwen35 is Qwen3.5-0.8B's hybrid layout (linear-attention
 * and full-attention layers), the architecture of BotPsy, Homebody's default model; qwen3 is Qwen3-0.6B's.
 */
export const BENCH_PRESETS = { qwen35: 'qwen3.5-0.8b', qwen3: 'qwen3-0.6b' } as const satisfies Record<
  string,
  ModelPreset
>;
export type BenchArch = keyof typeof BENCH_PRESETS;
export const DEFAULT_BENCH_ARCH: BenchArch = 'qwen35';

export interface ModelBenchOptions {
  /** The models to measure; the first is the headline. Default: generated files of `arch`'s preset in `quants`. */
  readonly models?: readonly BenchModel[];
  /** The architecture of the generated models (see BENCH_PRESETS); default qwen35. */
  readonly arch?: string;
  /** Quantizations of the generated model to measure when `models` is not given; default q4_0 and q8_0. */
  readonly quants?: readonly string[];
  /** Timed runs of the quick figures (load, warm first tokens, 5-tool cold first token, speeds), after a warm-up. */
  readonly runs?: number;
  /** Timed cold runs with the most tools for the headline model (about 35 s each on 2 cores); others get one. */
  readonly coldRuns?: number;
  /** Tool counts to time the first token with; the largest is the headline. */
  readonly toolCounts?: readonly number[];
  readonly contextSize?: number;
  /** Tokens generated per reply when timing decode speed. */
  readonly decodeTokens?: number;
  readonly log?: (line: string) => void;
}

const MB = 1024 * 1024;

export const MODEL_LABELS: SectionReport['labels'] = {
  modelFileMb: { label: 'Model file (headline)', unit: 'MB' },
  loadMs: { label: 'Load', unit: 'ms' },
  ttftColdMs: { label: 'First token, most tools, cold (nothing cached)', unit: 'ms' },
  ttftWarmMs: { label: 'First token, most tools, warm (prefix from disk after a restart)', unit: 'ms' },
  ttftWarmInMemoryMs: { label: 'First token, most tools, next task (prefix in memory)', unit: 'ms' },
  peakRssMb: { label: 'Peak RSS (process, through the headline model)', unit: 'MB' },
};

/** A prompt of about `words` words, different from the start for each `variant`, so nothing of it is cached. */
export function longPrompt(variant: number, words = 300): string {
  const vocabulary = [
    'calendar',
    'meeting',
    'invoice',
    'garden',
    'report',
    'holiday',
    'budget',
    'letter',
    'kitchen',
    'station',
    'weather',
    'project',
  ];
  const out = [`Request ${variant}: summarize these notes.`];
  for (let i = 0; i < words; i++) out.push(vocabulary[(i * 7 + variant * 3) % vocabulary.length]!);
  return out.join(' ');
}

interface ToolTiming {
  cold: number[];
  warm: number[];
  warmInMemory: number[];
  prefixTokens: number;
}

interface QuantFigures {
  readonly fileMb: number;
  readonly loadMs: number;
  readonly ttftByTools: Record<string, { cold: number; warm: number; warmInMemory: number; promptTokens: number }>;
  readonly promptTokensPerSecond: { app: number; raw: number; ratio: number };
  readonly decodeTokensPerSecond: { app: number; raw: number; ratio: number };
  readonly peakRssMb: number;
  readonly coldRuns: number;
}

/** Samples the process's RSS while a model is measured: the peak of that part alone. */
function rssSampler(): { stop: () => number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** Times one reply through an engine (this computer's or a node's), from the request to the first chunk and the end. */
export async function timedReply(
  engine: ChatEngine,
  prompt: string,
  maxTokens: number,
  tools?: readonly EngineTool[],
): Promise<ReplyTiming & { promptTokens: number }> {
  const started = performance.now();
  let firstChunkAt: number | undefined;
  let lastChunkAt: number | undefined;
  const onChunk = () => {
    lastChunkAt = performance.now();
    firstChunkAt ??= lastChunkAt;
  };
  const result = await engine.generate({
    history: [],
    prompt,
    maxTokens,
    temperature: 0,
    signal: new AbortController().signal,
    onText: onChunk,
    onReasoning: onChunk,
    ...(tools ? { tools, onToolCall: async () => 'ok' } : {}),
  });
  const ended = performance.now();
  return {
    evaluatedPromptTokens: result.evaluatedPromptTokens,
    completionTokens: result.stats.completionTokens,
    promptTokens: result.stats.promptTokens,
    firstChunkMs: (firstChunkAt ?? ended) - started,
    decodeMs: (lastChunkAt ?? ended) - (firstChunkAt ?? ended),
  };
}

async function startEngine(config: EngineConfig, path: string): Promise<{ engine: LlamaEngine; loadMs: number }> {
  const engine = new LlamaEngine(config);
  const started = performance.now();
  const state = await engine.load(path);
  const loadMs = performance.now() - started;
  if (state.status !== 'ready') {
    await engine.dispose();
    throw new Error(
      `model benchmark: ${path} did not load: ${state.status === 'error' ? state.error.message : state.status}`,
    );
  }
  return { engine, loadMs };
}

const perSecond = (count: number, ms: number) => (count > 0 && ms > 0 ? count / (ms / 1000) : 0);
const promptSpeed = (t: ReplyTiming) => perSecond(t.evaluatedPromptTokens, t.firstChunkMs);
/** Tokens after the first over the time after the first: the first token's time belongs to the prompt. */
export const decodeSpeed = (t: ReplyTiming) => perSecond(t.completionTokens - 1, t.decodeMs);

async function measureModel(
  model: BenchModel,
  base: EngineConfig,
  options: Required<Omit<ModelBenchOptions, 'models' | 'log' | 'quants' | 'arch'>> & { coldRunsHere: number },
  log: (line: string) => void,
): Promise<QuantFigures> {
  const { runs, toolCounts, decodeTokens, coldRunsHere } = options;
  const sampler = rssSampler();
  const scratch = mkdtempSync(join(tmpdir(), 'hb-model-bench-'));
  try {
    // Warm-up: the file into the page cache, llama.cpp's binaries loaded, one short reply.
    log(`model ${model.name}: warm-up`);
    {
      const { engine } = await startEngine(base, model.path);
      await timedReply(engine, 'Hello', 4);
      await engine.dispose();
    }

    log(`model ${model.name}: load ×${runs}`);
    const loads: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { engine, loadMs } = await startEngine(base, model.path);
      loads.push(loadMs);
      await engine.dispose();
    }

    const byTools: Record<string, ToolTiming> = {};
    const most = Math.max(...toolCounts);
    let promptVariant = 0;
    for (const count of toolCounts) {
      const { tools } = benchTools(count);
      const timing: ToolTiming = { cold: [], warm: [], warmInMemory: [], prefixTokens: 0 };
      byTools[count] = timing;
      const coldRuns = count === most ? coldRunsHere : runs;
      for (let run = 0; run < coldRuns; run++) {
        log(`model ${model.name}: first token with ${count} tools, run ${run + 1} of ${coldRuns}`);
        const dir = join(scratch, `prefix-${count}-${run}`);
        const config = { ...base, prefixCacheDir: dir };
        // Cold: a fresh engine, nothing in memory or on disk.
        const { engine: fresh } = await startEngine(config, model.path);
        const cold = await timedReply(fresh, `Question ${promptVariant++}: which files are here?`, 2, tools);
        timing.cold.push(cold.firstChunkMs);
        timing.prefixTokens = cold.promptTokens;
        // The next task on the same engine: the prefix is still in the context sequence.
        for (let i = 0; i < (run === 0 ? runs : 1); i++) {
          const next = await timedReply(fresh, `Question ${promptVariant++}: what is on my calendar?`, 2, tools);
          timing.warmInMemory.push(next.firstChunkMs);
        }
        await fresh.dispose();
        // A restart: a new engine on the same cache folder loads the saved prefix.
        for (let i = 0; i < (run === 0 ? runs : 1); i++) {
          const { engine: restarted } = await startEngine(config, model.path);
          const warm = await timedReply(restarted, `Question ${promptVariant++}: any mail from Anna?`, 2, tools);
          timing.warm.push(warm.firstChunkMs);
          await restarted.dispose();
        }
        rmSync(dir, { recursive: true, force: true });
      }
    }

    // Homebody's engine and node-llama-cpp alternate (A B B A), so a change in the machine's load while they run
    // weighs on both alike. Each block starts with a warm-up reply.
    const app: ReplyTiming[] = [];
    const raw: ReplyTiming[] = [];
    const requests = Array.from({ length: runs }, (_, i) => ({ prompt: longPrompt(i), maxTokens: decodeTokens }));
    for (const side of ['app', 'raw', 'raw', 'app'] as const) {
      if (side === 'app') {
        log(`model ${model.name}: prompt and decode speed through Homebody's engine ×${runs}`);
        const { engine } = await startEngine(base, model.path);
        await timedReply(engine, longPrompt(-1), decodeTokens);
        for (const request of requests) app.push(await timedReply(engine, request.prompt, request.maxTokens));
        await engine.dispose();
      } else {
        log(`model ${model.name}: the same through node-llama-cpp directly ×${runs}`);
        const timings = await runRawReplies(base, model.path, [
          { prompt: longPrompt(-1), maxTokens: decodeTokens },
          ...requests,
        ]);
        raw.push(...timings.slice(1));
      }
    }
    const speed = (pick: (t: ReplyTiming) => number) => {
      const a = median(app.map(pick));
      const r = median(raw.map(pick));
      return { app: round2(a), raw: round2(r), ratio: r > 0 ? Math.round((a / r) * 1000) / 1000 : 0 };
    };
    const peak = sampler.stop();
    return {
      fileMb: round2(statSync(model.path).size / MB),
      loadMs: round2(median(loads)),
      ttftByTools: Object.fromEntries(
        Object.entries(byTools).map(([count, t]) => [
          count,
          {
            cold: round2(median(t.cold)),
            warm: round2(median(t.warm)),
            warmInMemory: round2(median(t.warmInMemory)),
            promptTokens: t.prefixTokens,
          },
        ]),
      ),
      promptTokensPerSecond: speed(promptSpeed),
      decodeTokensPerSecond: speed(decodeSpeed),
      peakRssMb: round2(peak / MB),
      coldRuns: coldRunsHere,
    };
  } finally {
    sampler.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The model runtime's figures on generated models with a real model's dimensions: load time, first token with
 * few and many tools (cold, next task, after a restart), prompt and decode speed through Homebody's engine and
 * through node-llama-cpp used directly with the same settings, and peak memory.
 */
export async function runModelBench(options: ModelBenchOptions = {}): Promise<SectionReport> {
  const log = options.log ?? (() => {});
  const quants = options.quants ?? ['q4_0', 'q8_0'];
  for (const quant of quants) {
    if (quant !== 'q4_0' && quant !== 'q8_0') throw new UsageError(`--quant must be q4_0 or q8_0, not ${quant}`);
  }
  const arch = options.arch ?? DEFAULT_BENCH_ARCH;
  if (!Object.hasOwn(BENCH_PRESETS, arch)) {
    throw new UsageError(`--arch must be ${Object.keys(BENCH_PRESETS).join(' or ')}, not ${arch}`);
  }
  const preset = BENCH_PRESETS[arch as BenchArch];
  const models =
    options.models ??
    quants.map((quant) => ({ name: quant, path: ensureBenchModel(preset, quant as 'q4_0' | 'q8_0') }));
  const settings = {
    runs: options.runs ?? 3,
    coldRuns: options.coldRuns ?? 2,
    toolCounts: options.toolCounts ?? [5, 40],
    // 40 tools are about 4,600 tokens of system prompt with Qwen's template.
    contextSize: options.contextSize ?? 6144,
    decodeTokens: options.decodeTokens ?? 64,
  };
  const defaults = defaultEngineConfig();
  const base: EngineConfig = { ...defaults, contextSize: settings.contextSize };
  const loadAverage = loadavg().map(round2);
  const byQuant: Record<string, QuantFigures> = {};
  let processPeakMb = 0;
  for (const [index, model] of models.entries()) {
    byQuant[model.name] = await measureModel(
      model,
      base,
      { ...settings, coldRunsHere: index === 0 ? settings.coldRuns : 1 },
      log,
    );
    // The process's own high-water mark, once the headline model is done (nothing heavier ran before it).
    if (index === 0) processPeakMb = round2(process.resourceUsage().maxRSS / 1024);
  }
  const head = byQuant[models[0]!.name]!;
  const most = String(Math.max(...settings.toolCounts));
  const headTools = head.ttftByTools[most]!;
  const describe = (name: string, q: QuantFigures) => {
    const tools = Object.entries(q.ttftByTools)
      .map(
        ([n, t]) =>
          `${n} tools (${t.promptTokens} prompt tokens): cold ${t.cold} ms, warm ${t.warm} ms, next task ${t.warmInMemory} ms`,
      )
      .join('; ');
    const ratio = (s: { app: number; raw: number; ratio: number }) => `${s.app} vs ${s.raw} (×${s.ratio})`;
    return [
      `${name} (${q.fileMb} MB): load ${q.loadMs} ms, peak RSS ${q.peakRssMb} MB`,
      `  first token: ${tools}`,
      `  prompt tokens/s, Homebody vs node-llama-cpp: ${ratio(q.promptTokensPerSecond)}`,
      `  decode tokens/s, Homebody vs node-llama-cpp: ${ratio(q.decodeTokensPerSecond)}`,
    ];
  };
  return {
    title: `Model runtime (generated ${preset}, ${base.threads} threads, context ${settings.contextSize})`,
    figures: {
      modelFileMb: head.fileMb,
      loadMs: head.loadMs,
      ttftColdMs: headTools.cold,
      ttftWarmMs: headTools.warm,
      ttftWarmInMemoryMs: headTools.warmInMemory,
      peakRssMb: processPeakMb,
    },
    labels: MODEL_LABELS,
    extra: {
      ttftByTools: head.ttftByTools,
      promptTokensPerSecond: head.promptTokensPerSecond,
      decodeTokensPerSecond: head.decodeTokensPerSecond,
      byQuant,
      modelBench: {
        headline: models[0]!.name,
        arch,
        preset,
        threads: base.threads,
        contextSize: settings.contextSize,
        runs: settings.runs,
        coldRuns: settings.coldRuns,
        decodeTokens: settings.decodeTokens,
        loadAverageAtStart: loadAverage,
        loadAverageAtEnd: loadavg().map(round2),
      },
    },
    notes: [
      ...models.flatMap((m) => describe(m.name, byQuant[m.name]!)),
      `Medians of ${settings.runs} runs after a warm-up; the cold first token with ${most} tools is the median of ${settings.coldRuns} runs on ${models[0]!.name} and one run on the others.`,
      `Load average at start ${loadAverage.join(' ')}: timings on a busy machine are slower.`,
    ],
  };
}
