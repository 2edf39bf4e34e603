import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname } from 'node:path';
import type { GrantedRoot, JsonValue, PackConfig, ToolOutcome, UndoRecord } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';
import { MAX_OUTPUT_BYTES, type ServiceRequest, type WorkerRequest, type WorkerResponse } from './workerProtocol.js';

/** Answers a running call's service request (egress check, device action); throws to refuse it. */
export type ServiceHandler = (request: ServiceRequest, call: ServiceCaller) => Promise<JsonValue>;

/** Which call asked: the tool's name, or `undo` for an undo. */
export interface ServiceCaller {
  readonly tool: string;
}

export interface ExecutorOptions {
  readonly trashDir: string;
  /** Per call; a call still running then is cancelled and its worker killed. */
  readonly timeoutMs?: number;
  /** A compiled worker to run instead of the one beside this module (the bundled one, in tests). */
  readonly workerPath?: string;
  /** Folders the worker may read besides the granted roots (its own code), for Node's permission model. */
  readonly codeRoots?: readonly string[];
  /** Service requests of running calls; without one, every request is refused. */
  readonly services?: ServiceHandler;
}

export interface RunOptions {
  readonly roots: readonly GrantedRoot[];
  readonly packs: PackConfig;
  readonly signal?: AbortSignal;
}

/** The folders the packs read and write, which the worker's permission wall must let through. */
function packFolders(packs: PackConfig): { read: string[]; write: string[] } {
  const write = [packs.calendarDir, packs.contactsDir, packs.notesDir, packs.mailDir, dirname(packs.remindersFile)];
  const source = packs.mailSource.kind === 'maildir' || packs.mailSource.kind === 'mbox' ? [packs.mailSource.path] : [];
  // device_status reads the battery and the network links' state from sysfs (read only).
  const system = process.platform === 'linux' ? ['/sys/class/power_supply', '/sys/class/net'] : [];
  return { read: [...write, ...source, ...system], write };
}

/** How long a worker started from TypeScript sources may take to load, on top of a call's limit. */
const SOURCE_START_GRACE_MS = 90_000;

function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/** What the agent needs of the sandbox; unit tests hand it a fake. */
export interface ToolRunner {
  readonly trashDir: string;
  run(tool: string, args: Record<string, JsonValue>, options: RunOptions): Promise<ToolOutcome>;
  undo(record: UndoRecord, options: RunOptions): Promise<ToolOutcome>;
  dispose(): Promise<void>;
}

export class ToolTimeoutError extends ToolError {}

/** A refusal from the Host side (a HomebodyError such as NETWORK_BLOCKED) keeps its code for the tool. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'IO_ERROR';
}

interface Pending {
  readonly tool: string;
  resolve(outcome: ToolOutcome): void;
  reject(error: Error): void;
}

/** The worker module beside this one: .ts when running from sources (through tsx), .js when compiled. */
function defaultWorkerPath(): string {
  const self = fileURLToPath(import.meta.url);
  return self.replace(/toolExecutor\.(ts|js)$/, (_, ext: string) => `toolWorker.${ext}`);
}

/**
 * Runs tool handlers in a child process, never in the main one: one worker at
 * a time, started on demand, with a timeout, an output cap and cancellation.
 * When the worker is compiled JavaScript it also runs under Node's permission
 * model, reading only its code and the granted folders and writing only the
 * granted folders and the trash. That wall follows symlinks out of an allowed
 * folder, so the tools' own realpath checks remain the first one.
 */
export class ToolExecutor implements ToolRunner {
  private child: ChildProcess | undefined;
  private childRootsKey = '';
  /** The current worker has answered once, so it has loaded every tool pack. */
  private childAnswered = false;
  private readonly pending = new Map<string, Pending>();
  private nextId = 0;
  private readonly workerPath: string;

  constructor(private readonly options: ExecutorOptions) {
    this.workerPath = options.workerPath ?? defaultWorkerPath();
  }

  get trashDir(): string {
    return this.options.trashDir;
  }

  /** Whether the worker runs under Node's permission model (compiled worker only). */
  get permissionWall(): boolean {
    return this.workerPath.endsWith('.js') || this.workerPath.endsWith('.mjs');
  }

  run(tool: string, args: Record<string, JsonValue>, options: RunOptions): Promise<ToolOutcome> {
    return this.send(
      tool,
      (id) => ({
        type: 'run',
        id,
        tool,
        args,
        roots: options.roots,
        trashDir: this.options.trashDir,
        packs: options.packs,
      }),
      options,
    );
  }

  undo(record: UndoRecord, options: RunOptions): Promise<ToolOutcome> {
    return this.send(
      'undo',
      (id) => ({
        type: 'undo',
        id,
        record,
        roots: options.roots,
        trashDir: this.options.trashDir,
        packs: options.packs,
      }),
      options,
    );
  }

  async dispose(): Promise<void> {
    this.kill(new ToolError('IO_ERROR', 'Homebody is closing; the tool was stopped.'));
  }

  private send(tool: string, build: (id: string) => WorkerRequest, options: RunOptions): Promise<ToolOutcome> {
    const child = this.worker(options.roots, options.packs);
    const id = String(++this.nextId);
    // From TypeScript sources a new worker first compiles every pack through tsx, which on a busy machine takes
    // longer than a call's limit: that start is not the tool's time.
    const startGrace = !this.childAnswered && !this.permissionWall ? SOURCE_START_GRACE_MS : 0;
    const timeoutMs = (this.options.timeoutMs ?? 30_000) + startGrace;
    return new Promise<ToolOutcome>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new ToolTimeoutError(
            'IO_ERROR',
            `The tool did not finish within ${Math.round((timeoutMs - startGrace) / 1000)} s and was stopped.`,
          ),
        );
        // A handler past its time may be stuck in a loop: the only sure stop is the process.
        this.kill(new ToolError('IO_ERROR', 'The tool worker was restarted.'));
      }, timeoutMs);
      const onAbort = () => {
        child.send({ type: 'cancel', id } satisfies WorkerRequest);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        tool,
        resolve: (outcome) => {
          cleanup();
          resolve(outcome);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      child.send(build(id));
    });
  }

  private worker(roots: readonly GrantedRoot[], packs: PackConfig): ChildProcess {
    const folders = packFolders(packs);
    const key = JSON.stringify([roots.map((r) => r.path).sort(), folders]);
    // The permission model's folders are fixed at start: new grants need a new worker.
    if (this.child && this.childRootsKey !== key && this.permissionWall)
      this.kill(new ToolError('IO_ERROR', 'restart'));
    if (this.child) return this.child;
    if (!existsSync(this.workerPath))
      throw new ToolError('IO_ERROR', `The tool worker is missing (${this.workerPath}).`);
    // From TypeScript sources (development, tests) the worker needs tsx's loader, which the permission model breaks.
    const execArgv = this.permissionWall ? this.permissionArgs(roots, folders) : ['--import', tsxLoader()];
    const child = fork(this.workerPath, [], {
      execArgv: ['--no-warnings', ...execArgv],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      // A bare environment: no secrets or settings of the app leak into tool code. Inside Electron the binary
      // must be told to behave as Node.
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: process.env.NODE_ENV ?? 'production',
        ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
      },
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('message', (message: WorkerResponse) => {
      if (this.child === child) this.childAnswered = true;
      if (message.type === 'service') {
        this.serve(child, message);
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      if (!message.ok) {
        pending.reject(new ToolError(message.error.code as ToolError['code'], message.error.message));
        return;
      }
      const size = Buffer.byteLength(JSON.stringify(message.outcome));
      if (size > MAX_OUTPUT_BYTES)
        pending.reject(
          new ToolError('TOO_LARGE', `The tool returned ${size} bytes; the limit is ${MAX_OUTPUT_BYTES}.`),
        );
      else pending.resolve(message.outcome);
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      const why = stderr.trim().split('\n').slice(-3).join(' ');
      this.failAll(
        new ToolError('IO_ERROR', `The tool worker stopped (${signal ?? `exit ${code}`})${why ? `: ${why}` : ''}.`),
      );
    });
    this.child = child;
    this.childRootsKey = key;
    this.childAnswered = false;
    return child;
  }

  /** Answers a service request of a call still running; one for a call that has ended is dropped. */
  private serve(child: ChildProcess, message: Extract<WorkerResponse, { type: 'service' }>): void {
    const answer = (result: Omit<Extract<WorkerRequest, { type: 'service-result' }>, 'type' | 'serviceId'>) => {
      if (this.child === child && child.connected)
        child.send({ type: 'service-result', serviceId: message.serviceId, ...result } satisfies WorkerRequest);
    };
    const call = this.pending.get(message.id);
    if (!call) return;
    const handler = this.options.services;
    if (!handler) {
      answer({ ok: false, error: { code: 'UNAVAILABLE', message: 'This tool runner offers no services.' } });
      return;
    }
    handler(message.request, { tool: call.tool }).then(
      (value) => answer({ ok: true, value }),
      (error: unknown) =>
        answer({
          ok: false,
          error: {
            code: error instanceof ToolError ? error.code : errorCode(error),
            message: error instanceof Error ? error.message : String(error),
          },
        }),
    );
  }

  private permissionArgs(roots: readonly GrantedRoot[], packs: { read: string[]; write: string[] }): string[] {
    const read = [
      ...(this.options.codeRoots ?? []),
      this.workerPath,
      ...roots.map((r) => r.path),
      this.options.trashDir,
      ...packs.read,
    ];
    const write = [...roots.map((r) => r.path), this.options.trashDir, ...packs.write];
    // A plain folder path grants the folder and what is inside it (and not a sibling sharing its prefix).
    // Granting both `dir` and `dir/*` trips an assertion in Node 20's permission tree, so only the plain form is used.
    const unique = (paths: string[]) => [...new Set(paths)];
    return [
      '--experimental-permission',
      ...unique(read).map((p) => `--allow-fs-read=${p}`),
      ...unique(write).map((p) => `--allow-fs-write=${p}`),
    ];
  }

  private failAll(error: Error): void {
    for (const pending of [...this.pending.values()]) pending.reject(error);
    this.pending.clear();
  }

  private kill(error: Error): void {
    const child = this.child;
    this.child = undefined;
    this.failAll(error);
    if (child && child.exitCode === null) child.kill('SIGKILL');
  }
}
