import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT, freeLoopbackPort } from './benchProcesses.js';
import { SseReader, hasContent, isDelta, streamTotals, type ChatChunk } from './llamaServerStream.js';
import type { OfferedTool } from './newTaskProtocol.js';
import { firstTokenFigures, medianRate, type LlamaServerRun, type LlamaServerTask } from './newTaskReport.js';
import { peakRssOf } from './processMemory.js';
import { round2 } from './stats.js';

const BUILD_SCRIPT = join(REPO_ROOT, 'scripts', 'buildLlamaServer.mjs');

export interface LlamaServerBenchOptions {
  readonly model: string;
  readonly contextSize: number;
  readonly threads: number;
  /** The system prompt and the tools the app offers, as its Host listed them. */
  readonly systemPrompt: string;
  readonly tools: readonly OfferedTool[];
  /** Each sent as a new conversation, one after another. */
  readonly prompts: readonly string[];
  readonly maxTokens: number;
  /** Build llama-server when it is missing (default); without it, a missing binary is an error. */
  readonly build?: boolean;
  /** How long loading and each request may take. Default 30 minutes (a 6,500-token prompt, cold, on 2 cores). */
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

/** Runs a build script to its end, its output (cmake's progress included) passed to `log`; the last stdout line. */
function runBuild(log: (line: string) => void): Promise<{ code: number | null; lastOut: string; lastErr: string }> {
  const child = spawn(process.execPath, [BUILD_SCRIPT], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let lastOut = '';
  let lastErr = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.trim()) lastOut = line.trim();
    log(`  ${line}`);
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.trim()) lastErr = line.trim();
    log(`  ${line}`);
  });
  return new Promise((done, fail) => {
    child.once('error', (error) => fail(new Error(`the llama-server build could not start: ${error.message}`)));
    child.once('close', (code) => done({ code, lastOut, lastErr }));
  });
}

/**
 * llama-server's binary, built once from the llama.cpp source node-llama-cpp ships (scripts/buildLlamaServer.mjs,
 * cached outside the repository): built now when missing and `build` allows, its progress on stderr.
 */
export async function locateLlamaServer(build: boolean, log: (line: string) => void): Promise<string> {
  const check = spawnSync(process.execPath, [BUILD_SCRIPT, '--check'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const found = check.stdout.trim().split('\n').pop() ?? '';
  if (check.status === 0 && found && existsSync(found)) return found;
  if (!build)
    throw new Error(`llama-server is not built (run node scripts/buildLlamaServer.mjs): ${check.stderr.trim()}`);
  log('llama-server: not built yet; building it from the bundled llama.cpp source (minutes; once)');
  const built = await runBuild(log);
  if (built.code !== 0 || !existsSync(built.lastOut)) {
    throw new Error(
      `llama-server could not be built (${built.lastErr || `exit code ${built.code}`}); it needs cmake, ninja and a C++ compiler`,
    );
  }
  return built.lastOut;
}

/** Ends the server: SIGTERM, then SIGKILL if it has not exited within a few seconds. */
async function stopServer(server: ChildProcess): Promise<void> {
  // No pid: it never started.
  if (server.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function waitHealthy(base: string, server: ChildProcess, timeoutMs: number, tail: string[]): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `llama-server exited (${server.exitCode ?? server.signalCode}) while loading:\n${tail.join('\n')}`,
      );
    }
    try {
      const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`llama-server was not healthy within ${Math.round(timeoutMs / 1000)} s:\n${tail.join('\n')}`);
}

/** The request body: a new conversation with the app's system prompt and tools, streamed, the prompt cache on. */
export function chatRequest(options: LlamaServerBenchOptions, prompt: string): Record<string, unknown> {
  return {
    messages: [
      { role: 'system', content: options.systemPrompt },
      { role: 'user', content: prompt },
    ],
    tools: options.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    })),
    stream: true,
    stream_options: { include_usage: true },
    cache_prompt: true,
    max_tokens: options.maxTokens,
    temperature: 0,
  };
}

async function timedRequest(
  base: string,
  body: Record<string, unknown>,
  prompt: string,
  timeoutMs: number,
): Promise<LlamaServerTask> {
  const sentAt = performance.now();
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok || !response.body) {
    throw new Error(`llama-server answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }
  const chunks: ChatChunk[] = [];
  let firstDeltaAt: number | undefined;
  let firstContentAt: number | undefined;
  const reader = new SseReader();
  const decoder = new TextDecoder();
  const take = (events: ReturnType<SseReader['push']>) => {
    const at = performance.now();
    for (const event of events) {
      if (event.kind !== 'chunk') continue;
      chunks.push(event.chunk);
      if (isDelta(event.chunk)) firstDeltaAt ??= at;
      if (hasContent(event.chunk)) firstContentAt ??= at;
    }
  };
  const stream = response.body.getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    take(reader.push(decoder.decode(value, { stream: true })));
  }
  take(reader.push(decoder.decode()));
  take(reader.end());
  const totals = streamTotals(chunks);
  const endedAt = performance.now();
  return {
    prompt,
    firstTokenMs: round2((firstDeltaAt ?? endedAt) - sentAt),
    firstContentMs: firstContentAt === undefined ? null : round2(firstContentAt - sentAt),
    promptTokens: totals.promptTokens,
    cachedTokens: totals.cachedTokens,
    completionTokens: totals.completionTokens,
    decodeTokensPerSecond: totals.decodeTokensPerSecond === null ? null : round2(totals.decodeTokensPerSecond),
    ...(totals.endError === undefined ? {} : { endError: totals.endError }),
  };
}

/**
 * llama.cpp's own server on the same file, context size, threads, system prompt and tools as the app, its prompt
 * cache on: started, waited for, sent each prompt as a new conversation, and stopped by its pid, always. Loopback
 * only. First token: the first streamed delta of any kind.
 */
/** A llama-server on 127.0.0.1 with a model, for the time `use` takes; its load time and its pid beside its URL. */
export async function withLlamaServer<T>(
  options: { model: string; contextSize: number; threads: number; build?: boolean; timeoutMs: number },
  log: (line: string) => void,
  use: (server: { base: string; loadMs: number; pid: number | undefined }) => Promise<T>,
): Promise<T> {
  const binary = await locateLlamaServer(options.build ?? true, log);
  const port = await freeLoopbackPort();
  const base = `http://127.0.0.1:${port}`;
  const args = [
    '-m',
    resolve(options.model),
    '--jinja',
    '-t',
    String(options.threads),
    '-c',
    String(options.contextSize),
  ];
  args.push('--host', '127.0.0.1', '--port', String(port));
  log(`llama-server: ${binary} ${args.join(' ')}`);
  const startedAt = performance.now();
  const server = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Its log, kept to say why it failed; not printed, it is long.
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
  };
  createInterface({ input: server.stdout! }).on('line', keep);
  createInterface({ input: server.stderr! }).on('line', keep);
  const spawnFailed = new Promise<never>((_, fail) =>
    server.once('error', (error) => fail(new Error(`llama-server could not start: ${error.message}`))),
  );
  spawnFailed.catch(() => undefined);
  // Should the benchmark itself end, the server ends with it.
  const endWithUs = () => server.kill('SIGKILL');
  process.once('exit', endWithUs);
  try {
    await Promise.race([waitHealthy(base, server, options.timeoutMs, tail), spawnFailed]);
    return await use({ base, loadMs: round2(performance.now() - startedAt), pid: server.pid });
  } finally {
    process.off('exit', endWithUs);
    await stopServer(server);
  }
}

export async function runLlamaServerBench(options: LlamaServerBenchOptions): Promise<LlamaServerRun> {
  const log = options.log ?? (() => {});
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const model = resolve(options.model);
  if (options.prompts.length === 0) throw new Error('the llama-server benchmark needs at least one prompt');
  const binary = await locateLlamaServer(options.build ?? true, log);
  const settings = { model, contextSize: options.contextSize, threads: options.threads, timeoutMs };
  return withLlamaServer({ ...settings, build: false }, log, async ({ base, loadMs, pid }) => {
    const tasks: LlamaServerTask[] = [];
    for (const prompt of options.prompts) {
      log(`llama-server: new conversation "${prompt}"`);
      const task = await timedRequest(base, chatRequest(options, prompt), prompt, timeoutMs);
      log(`llama-server: first token ${Math.round(task.firstTokenMs)} ms (${task.cachedTokens ?? '?'} cached tokens)`);
      tasks.push(task);
    }
    // VmHWM is the peak so far: read while the server still runs.
    const peakRssBytes = pid === undefined ? null : peakRssOf(pid);
    return {
      binary,
      model,
      contextSize: options.contextSize,
      threads: options.threads,
      tools: options.tools.length,
      maxTokens: options.maxTokens,
      loadMs,
      tasks,
      ...firstTokenFigures(tasks.map((t) => t.firstTokenMs)),
      firstTaskMs: tasks[0]!.firstTokenMs,
      decodeTokensPerSecond: medianRate(tasks.map((t) => t.decodeTokensPerSecond)),
      peakRssBytes,
    };
  });
}
