/**
 * The `remote` section of `npm run bench`: a model on another computer against the same model here. llama-server
 * (built from node-llama-cpp's bundled llama.cpp) serves the generated file on loopback, and Homebody's RemoteEngine
 * speaks to it exactly as to a node on the network (the egress guard asked, the ledger written, the prompt rendered
 * in the model's dialect); the local engine opens the same file. The same fresh prompts go to both: first token,
 * decode speed, and the round trip of a small request. Loopback has no network latency: on a real network the first
 * token grows by the round trip at least.
 */
import { loadavg } from 'node:os';
import { defaultEngineConfig } from '../llm/engineConfig.js';
import { LlamaEngine } from '../llm/llamaEngine.js';
import { nodeJson } from '../llm/remote/nodeRequest.js';
import { RemoteEngine } from '../llm/remote/remoteEngine.js';
import type { ChatEngine } from '../llm/engineTypes.js';
import { EgressGuard } from '../privacy/egressGuard.js';
import { MemoryEgressLedger } from '../privacy/egressLedger.js';
import { ensureBenchModel } from './benchModels.js';
import { withLlamaServer } from './llamaServerBench.js';
import {
  BENCH_PRESETS,
  DEFAULT_BENCH_ARCH,
  decodeSpeed,
  longPrompt,
  timedReply,
  type BenchArch,
} from './modelBench.js';
import type { SectionReport } from './report.js';
import { median, round2 } from './stats.js';

export interface RemoteBenchOptions {
  readonly arch?: string;
  /** A GGUF file to measure instead of the generated one. */
  readonly model?: string;
  /** Timed replies per engine, after one warm-up each. */
  readonly runs?: number;
  readonly log?: (line: string) => void;
}

const CONTEXT = 4096;
const DECODE_TOKENS = 32;

export const REMOTE_LABELS: SectionReport['labels'] = {
  remoteFirstTokenMs: { label: 'First token, model on another computer (llama-server on loopback)', unit: 'ms' },
  remoteDecodeTokensPerSecond: { label: 'Decode, model on another computer', unit: 'tokens/s' },
  remoteLocalFirstTokenMs: { label: 'First token, the same file on this computer', unit: 'ms' },
  remoteLocalDecodeTokensPerSecond: { label: 'Decode, the same file on this computer', unit: 'tokens/s' },
  remoteRoundTripMs: { label: "Round trip of a small request (the node's model list)", unit: 'ms' },
};

interface EngineFigures {
  readonly firstTokenMs: number;
  readonly decodeTokensPerSecond: number;
  readonly runs: ReadonlyArray<{ firstTokenMs: number; decodeTokensPerSecond: number; completionTokens: number }>;
}

/** One warm-up, then `runs` fresh prompts (none shares a prefix with another beyond the system prompt). */
async function measure(engine: ChatEngine, runs: number, offset: number): Promise<EngineFigures> {
  await timedReply(engine, longPrompt(offset, 40), DECODE_TOKENS);
  const timed = [];
  for (let i = 1; i <= runs; i++) {
    const t = await timedReply(engine, longPrompt(offset + i, 40), DECODE_TOKENS);
    timed.push({
      firstTokenMs: round2(t.firstChunkMs),
      decodeTokensPerSecond: round2(decodeSpeed(t)),
      completionTokens: t.completionTokens,
    });
  }
  return {
    firstTokenMs: round2(median(timed.map((t) => t.firstTokenMs))),
    decodeTokensPerSecond: round2(median(timed.map((t) => t.decodeTokensPerSecond))),
    runs: timed,
  };
}

export async function runRemoteBench(options: RemoteBenchOptions = {}): Promise<SectionReport> {
  const log = options.log ?? (() => {});
  const runs = options.runs ?? 3;
  const arch = (options.arch ?? DEFAULT_BENCH_ARCH) as BenchArch;
  const preset = BENCH_PRESETS[arch];
  const model = options.model ?? ensureBenchModel(preset, 'q4_0');
  const threads = defaultEngineConfig().threads;
  const loadAverage = loadavg().map(round2);

  // This computer first, then the node: one at a time, so neither takes the other's cores.
  log(`remote: the local engine on ${model}`);
  const local = new LlamaEngine({ ...defaultEngineConfig(), contextSize: CONTEXT });
  let here: EngineFigures;
  try {
    const state = await local.load(model);
    if (state.status !== 'ready') throw new Error(`remote bench: ${model} did not load here`);
    here = await measure(local, runs, 100);
  } finally {
    await local.dispose();
  }

  const ledger = new MemoryEgressLedger();
  const guard = new EgressGuard({
    sink: ledger,
    settings: { offline: true, rules: [{ feature: 'remote-model', host: '127.0.0.1' }] },
  });
  const server = { model, contextSize: CONTEXT, threads, timeoutMs: 30 * 60_000 };
  return withLlamaServer(server, log, async ({ base, loadMs }) => {
    const node = { url: base, label: 'llama-server on loopback' };
    const gate = (url: string, carried: string) => guard.check(url, 'remote-model', node.label, carried);
    const remote = new RemoteEngine({ node, gate, systemPrompt: defaultEngineConfig().systemPrompt });
    try {
      const state = await remote.load();
      if (state.status !== 'ready') {
        throw new Error(
          `remote bench: the node did not answer: ${state.status === 'error' ? state.error.message : ''}`,
        );
      }
      log(`remote: RemoteEngine on ${base} (${remote.connection?.protocol})`);
      const trips: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await nodeJson(node, gate, { method: 'GET', path: '/v1/models', carried: 'a check' });
        trips.push(performance.now() - started);
      }
      const there = await measure(remote, runs, 100);
      const requests = ledger.list().filter((e) => e.feature === 'remote-model');
      return {
        title: `A model on another computer (RemoteEngine → llama-server on loopback, generated ${preset} q4_0, ${threads} threads, context ${CONTEXT})`,
        figures: {
          remoteFirstTokenMs: there.firstTokenMs,
          remoteDecodeTokensPerSecond: there.decodeTokensPerSecond,
          remoteLocalFirstTokenMs: here.firstTokenMs,
          remoteLocalDecodeTokensPerSecond: here.decodeTokensPerSecond,
          remoteRoundTripMs: round2(median(trips)),
        },
        labels: REMOTE_LABELS,
        extra: {
          remote: {
            model,
            protocol: remote.connection?.protocol ?? null,
            serverLoadMs: loadMs,
            decodeTokens: DECODE_TOKENS,
            node: there.runs,
            local: here.runs,
            // Every request went through the guard: the ledger's count and bytes, as the Privacy page lists them.
            ledgerRequests: requests.length,
            ledgerBytesSent: requests.reduce((sum, e) => sum + (e.sent ?? 0), 0),
            ledgerBytesReceived: requests.reduce((sum, e) => sum + (e.bytes ?? 0), 0),
            loadAverage,
          },
        },
        notes: [
          `Medians of ${runs} fresh prompts after a warm-up, ${DECODE_TOKENS} tokens each; the node is on this computer, so the two share its ${threads} threads (one at a time) and no network latency is included.`,
        ],
      };
    } finally {
      await remote.dispose();
    }
  });
}
