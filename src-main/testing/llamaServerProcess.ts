/**
 * llama.cpp's own llama-server (and ggml-rpc-server workers) on 127.0.0.1 for the remote engine's tests, built once
 * from node-llama-cpp's bundled source by scripts/buildLlamaServer.mjs and cached outside the repository.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { freeLoopbackPort as freePort } from '../bench/benchProcesses.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const BUILD_SCRIPT = join(REPO_ROOT, 'scripts', 'buildLlamaServer.mjs');

/** The built binaries; builds them first when missing (minutes, once per llama.cpp version). */
export function llamaBinaries(): { server: string; rpc: string } {
  const built = spawnSync(process.execPath, [BUILD_SCRIPT], { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
  const server = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status !== 0 || !server) throw new Error(`llama-server could not be built:\n${built.stderr}`);
  return { server, rpc: join(resolve(server, '..'), 'ggml-rpc-server') };
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** What it printed last (for a test's failure message). */
  readonly log: () => string;
  stop(): Promise<void>;
}

function started(child: ChildProcess, url: string, port: number, lines: string[]): RunningServer {
  return {
    url,
    port,
    log: () => lines.join('\n'),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

function collect(child: ChildProcess): string[] {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n'));
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return lines;
}

/** A ggml RPC worker on loopback, holding what llama-server hands it of a model's layers. */
export async function startRpcServer(binary: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(binary, ['-H', '127.0.0.1', '-p', String(port), '-t', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = collect(child);
  const deadline = Date.now() + 30_000;
  // Listening once a connection is accepted.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ggml-rpc-server exited:\n${lines.join('\n')}`);
    const open = await new Promise<boolean>((answer) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), answer(true)));
      socket.once('error', () => answer(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`ggml-rpc-server did not listen:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return started(child, `127.0.0.1:${port}`, port, lines);
}

export interface LlamaServerOptions {
  readonly model: string;
  readonly contextSize?: number;
  /** `host:port` of RPC workers that hold the model's layers (llama-server's --rpc). */
  readonly rpc?: readonly string[];
  readonly apiKey?: string;
  readonly alias?: string;
}

/** llama-server on 127.0.0.1 with a model, answered once /health says it is ready. */
export async function startLlamaServer(binary: string, options: LlamaServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const args = ['-m', options.model, '--host', '127.0.0.1', '--port', String(port), '-t', '1', '-np', '1'];
  args.push('-c', String(options.contextSize ?? 4096), '--no-webui');
  if (options.rpc?.length) args.push('--rpc', options.rpc.join(','), '-ngl', '99');
  if (options.apiKey) args.push('--api-key', options.apiKey);
  if (options.alias) args.push('--alias', options.alias);
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = collect(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}):\n${lines.join('\n')}`);
    const ready = await fetch(`${url}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`llama-server was not ready in 120 s:\n${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return started(child, url, port, lines);
}
