import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { basename, dirname, join, resolve } from 'node:path';
import type { ToolSandbox } from '../../../src-shared/contract/index.js';
import type { GrantedRoot, JsonValue, PackConfig, ToolOutcome, UndoRecord } from '../toolTypes.js';
import { ToolError } from '../toolTypes.js';
import { BUILTIN_TOOLS } from '../builtin/index.js';
import { appRoot } from '../../util/appPaths.js';
import { describeOsSandbox, detectOsSandbox, startSandboxed, type OsSandbox } from './osSandbox.js';
import { sandboxSpec, type SandboxProfile, type SandboxSpec } from './sandboxSpec.js';
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
  /**
   * Folders the worker never sees, even inside a granted folder (the app's data folder: the database, the secret
   * key); the trash and the packs' folders inside them are shown again. Enforced by the OS sandbox.
   */
  readonly hiddenDirs?: readonly string[];
  /** `off` runs the worker without an OS sandbox (HOMEBODY_SANDBOX=off, for debugging); `auto` uses one if it can. */
  readonly osSandbox?: 'auto' | 'off';
}

export interface RunOptions {
  readonly roots: readonly GrantedRoot[];
  readonly packs: PackConfig;
  readonly signal?: AbortSignal;
}

/** The folders the packs read and write, which the worker's walls must let through. */
function packFolders(packs: PackConfig): {
  write: string[];
  read: string[];
  sysfs: string[];
  mail: { read: string[]; write: string[] };
} {
  const write = [packs.calendarDir, packs.contactsDir, packs.notesDir, packs.mailDir, dirname(packs.remindersFile)];
  const source = packs.mailSource.kind === 'maildir' || packs.mailSource.kind === 'mbox' ? [packs.mailSource.path] : [];
  // device_status reads the battery and the network links' state from sysfs (read only).
  const sysfs = process.platform === 'linux' ? ['/sys/class/power_supply', '/sys/class/net'] : [];
  // Every mail tool runs in the network worker (any may reach IMAP), so only that one reads the mail source; the
  // files worker keeps the mail folder for undoing a draft.
  return { write, read: [], sysfs, mail: { read: source, write: [packs.mailDir] } };
}

/** How long a worker started from TypeScript sources may take to load, on top of a call's limit. */
const SOURCE_START_GRACE_MS = 90_000;

function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/**
 * tsx's cache of compiled sources, which the worker started from sources reads (read-only: it cannot change what
 * the app itself runs) so that it does not compile every pack again; where the sandbox's /tmp is the same path.
 */
function tsxCache(): string[] {
  if (tmpdir() !== '/tmp' || typeof process.geteuid !== 'function') return [];
  return [join('/tmp', `tsx-${process.geteuid()}`)];
}

/** The tools that connect to other machines: they run in the worker that has the network, and only they. */
const NETWORK_TOOLS: ReadonlySet<string> = new Set(BUILTIN_TOOLS.filter((t) => t.needsNetwork).map((t) => t.name));

/** What of an app folder (the repository, in development) the worker's code needs: never .git, data or builds. */
const CODE_PARTS = [
  'package.json',
  'node_modules',
  'src-main',
  'src-shared',
  join('build', 'tsc'),
  'tsconfig.json',
  'tsconfig.base.json',
];

function codePartsOf(root: string): string[] {
  try {
    if (!statSync(root).isDirectory() || !existsSync(join(root, 'package.json'))) return [root];
  } catch {
    // inside an asar archive, or gone: bound as it is where it exists
    return [root];
  }
  return CODE_PARTS.map((part) => join(root, part)).filter((p) => existsSync(p));
}

function realOrSame(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** The packs' paths as real paths, so that the sandbox binds them, and the worker names them, at the same place. */
function canonicalPacks(packs: PackConfig): PackConfig {
  const source = packs.mailSource;
  return {
    ...packs,
    calendarDir: realOrSame(packs.calendarDir),
    contactsDir: realOrSame(packs.contactsDir),
    notesDir: realOrSame(packs.notesDir),
    mailDir: realOrSame(packs.mailDir),
    remindersFile: join(realOrSame(dirname(packs.remindersFile)), basename(packs.remindersFile)),
    mailSource:
      source.kind === 'maildir' || source.kind === 'mbox' ? { ...source, path: realOrSame(source.path) } : source,
  };
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
  readonly profile: SandboxProfile;
  resolve(outcome: ToolOutcome): void;
  reject(error: Error): void;
}

/** One of the two workers (files, network): its process, what it was started with, whether it has answered. */
interface WorkerSlot {
  child: ChildProcess | undefined;
  key: string;
  /** The worker has answered once, so it has loaded every tool pack. */
  answered: boolean;
}

/** What a call's request tells the worker: the roots, packs and trash as its sandbox shows them. */
interface WorkerView {
  readonly roots: readonly GrantedRoot[];
  readonly packs: PackConfig;
  readonly trashDir: string;
  readonly hidden: readonly string[];
}

/** The worker module beside this one: .ts when running from sources (through tsx), .js when compiled. */
function defaultWorkerPath(): string {
  const self = fileURLToPath(import.meta.url);
  return self.replace(/toolExecutor\.(ts|js)$/, (_, ext: string) => `toolWorker.${ext}`);
}

/**
 * Runs tool handlers in child processes, never in the main one: one worker for the tools that stay on this machine
 * and one for those that need the network, each started on demand, with a timeout, an output cap and cancellation.
 * Each starts inside the OS sandbox (osSandbox.ts: bubblewrap on Linux, Seatbelt on macOS) where one can start: the
 * files worker sees only the granted folders, the packs' folders and the trash, and has no network; the network
 * worker has the network and the mail folders, no granted folder. Neither sees the app's data folder. The folders
 * are fixed when a worker starts, so a change of grants or pack folders starts a new one.
 * When the worker is compiled JavaScript it also runs under Node's permission model, reading only its code and
 * those folders and writing only those folders. That wall follows symlinks out of an allowed folder and, on Linux,
 * lets `/proc/self/fd/N/..` through (the path checks open files relative to a folder descriptor there), so it is
 * the OS sandbox and the tools' own checks that confine them.
 */
export class ToolExecutor implements ToolRunner {
  private readonly slots: Record<SandboxProfile, WorkerSlot> = {
    files: { child: undefined, key: '', answered: false },
    network: { child: undefined, key: '', answered: false },
  };
  private readonly pending = new Map<string, Pending>();
  private nextId = 0;
  private disposed = false;
  private readonly workerPath: string;

  constructor(private readonly options: ExecutorOptions) {
    this.workerPath = options.workerPath ?? defaultWorkerPath();
    // The sandbox is probed once per process (two short runs of bwrap): started now, it is known by the first call.
    void this.osSandbox();
  }

  get trashDir(): string {
    return this.options.trashDir;
  }

  /** Whether the worker runs under Node's permission model (compiled worker only). */
  get permissionWall(): boolean {
    return this.workerPath.endsWith('.js') || this.workerPath.endsWith('.mjs');
  }

  /** The OS sandbox the workers start in (probed once per process), for the Privacy page and the Doctor. */
  async sandbox(): Promise<ToolSandbox> {
    return describeOsSandbox(await this.osSandbox());
  }

  run(tool: string, args: Record<string, JsonValue>, options: RunOptions): Promise<ToolOutcome> {
    return this.send(
      tool,
      NETWORK_TOOLS.has(tool) ? 'network' : 'files',
      (id, view) => ({ type: 'run', id, tool, args, ...view }),
      options,
    );
  }

  undo(record: UndoRecord, options: RunOptions): Promise<ToolOutcome> {
    return this.send('undo', 'files', (id, view) => ({ type: 'undo', id, record, ...view }), options);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const profile of ['files', 'network'] as const) {
      this.kill(profile, new ToolError('IO_ERROR', 'Homebody is closing; the tool was stopped.'));
    }
  }

  private osSandbox(): Promise<OsSandbox> {
    return detectOsSandbox({
      mode: this.options.osSandbox ?? (process.env.HOMEBODY_SANDBOX === 'off' ? 'off' : 'auto'),
      env: this.workerEnv(),
    });
  }

  /** A bare environment: no secrets or settings of the app leak into tool code. */
  private workerEnv(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '',
      NODE_ENV: process.env.NODE_ENV ?? 'production',
      // `~/` in a path means the same inside the sandbox, which has no user database to look the home folder up in.
      HOME: homedir(),
      // Inside Electron the binary must be told to behave as Node.
      ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
    };
  }

  private async send(
    tool: string,
    profile: SandboxProfile,
    build: (id: string, view: WorkerView) => WorkerRequest,
    options: RunOptions,
  ): Promise<ToolOutcome> {
    const sandbox = await this.osSandbox();
    if (this.disposed) throw new ToolError('IO_ERROR', 'Homebody is closing; the tool was not run.');
    const { child, view } = this.worker(profile, sandbox, options.roots, options.packs);
    const slot = this.slots[profile];
    const id = String(++this.nextId);
    // From TypeScript sources a new worker first compiles every pack through tsx, which on a busy machine takes
    // longer than a call's limit: that start is not the tool's time.
    const startGrace = !slot.answered && !this.permissionWall ? SOURCE_START_GRACE_MS : 0;
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
        this.kill(profile, new ToolError('IO_ERROR', 'The tool worker was restarted.'));
      }, timeoutMs);
      const onAbort = () => {
        if (child.connected) child.send({ type: 'cancel', id } satisfies WorkerRequest);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        tool,
        profile,
        resolve: (outcome) => {
          cleanup();
          resolve(outcome);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      child.send(build(id, view));
      // Aborted while the sandbox was being looked up: the worker is told at once, as it would have been.
      if (options.signal?.aborted) onAbort();
    });
  }

  /** The folders a worker of this profile is started with, and what its requests carry. */
  private specFor(
    profile: SandboxProfile,
    roots: readonly GrantedRoot[],
    packs: PackConfig,
    sandboxed: boolean,
  ): { spec: SandboxSpec; view: WorkerView } {
    const folders = packFolders(packs);
    const trashDir = sandboxed ? realOrSame(this.options.trashDir) : this.options.trashDir;
    const code = [
      this.workerPath,
      ...(this.options.codeRoots ?? []).flatMap(codePartsOf),
      // From sources, tsx and the worker's imports come from the app folder (the repository).
      ...(this.permissionWall ? [] : [...codePartsOf(appRoot()), ...tsxCache()]),
    ];
    const spec = sandboxSpec(profile, {
      roots: roots.map((r) => ({ path: r.path, ...(r.identity ? { identity: r.identity } : {}) })),
      packs: { read: folders.read, write: folders.write },
      mail: folders.mail,
      trashDir,
      code,
      sysfs: folders.sysfs,
      hidden: (this.options.hiddenDirs ?? []).map(realOrSame),
    });
    // The network worker is given no granted folder: none of its tools reads one (mail never attaches files).
    // Hidden folders travel with each call too, so a search never walks into them even where no OS sandbox hides them.
    const view = { roots: profile === 'files' ? roots : [], packs, trashDir, hidden: spec.hidden };
    return { spec, view };
  }

  private worker(
    profile: SandboxProfile,
    sandbox: OsSandbox,
    roots: readonly GrantedRoot[],
    rawPacks: PackConfig,
  ): { child: ChildProcess; view: WorkerView } {
    const sandboxed = sandbox.kind !== 'none';
    if (sandboxed) {
      // A folder is bound only if it exists; a pack's folder or the trash made inside the sandbox would vanish.
      for (const folder of [...packFolders(rawPacks).write, this.options.trashDir]) {
        try {
          mkdirSync(folder, { recursive: true });
        } catch {
          // Not bound then; the tools say the folder cannot be used.
        }
      }
    }
    const packs = sandboxed ? canonicalPacks(rawPacks) : rawPacks;
    const { spec, view } = this.specFor(profile, roots, packs, sandboxed);
    // A bound folder that was removed and made again (an evaluation restoring its fixtures, "delete all my data"
    // emptying the trash) is another folder: the sandbox would still show the old one.
    const stamp = (p: string) => {
      try {
        const stats = statSync(p, { bigint: true });
        return `${stats.dev}:${stats.ino}`;
      } catch {
        return 'missing';
      }
    };
    const identities = sandbox.kind === 'bubblewrap' ? [...spec.write, ...spec.read].map((f) => stamp(f.path)) : [];
    const key = JSON.stringify([spec, identities]);
    const slot = this.slots[profile];
    // The permission model's and the sandbox's folders are fixed at start: new grants need a new worker.
    if (slot.child && slot.key !== key && (this.permissionWall || sandboxed))
      this.kill(profile, new ToolError('IO_ERROR', 'restart'));
    if (slot.child) return { child: slot.child, view };
    if (!existsSync(this.workerPath))
      throw new ToolError('IO_ERROR', `The tool worker is missing (${this.workerPath}).`);
    // From TypeScript sources (development, tests) the worker needs tsx's loader, which the permission model breaks.
    const execArgv = this.permissionWall ? this.permissionArgs(spec) : ['--import', tsxLoader()];
    const child = startSandboxed(sandbox, spec, {
      execPath: process.execPath,
      args: ['--no-warnings', ...execArgv, this.workerPath],
      env: this.workerEnv(),
      // tsx reads the app's tsconfig from the working folder.
      cwd: this.permissionWall ? '/' : appRoot(),
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('message', (message: WorkerResponse) => {
      if (slot.child === child) slot.answered = true;
      if (message.type === 'service') {
        this.serve(child, profile, message);
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
    const stopped = (how: string, said: string) => {
      if (slot.child !== child) return;
      slot.child = undefined;
      const why = said.trim().split('\n').slice(-3).join(' ');
      this.failAll(profile, new ToolError('IO_ERROR', `The tool worker stopped (${how})${why ? `: ${why}` : ''}.`));
    };
    child.once('exit', (code, signal) => stopped(signal ?? `exit ${code}`, stderr));
    // A worker that could not be started at all (its sandbox's binary gone since the probe) never exits; a later
    // error (a message to a worker that just died) is followed by its exit.
    child.on('error', (error) => {
      if (child.pid === undefined) stopped('not started', error.message);
    });
    slot.child = child;
    slot.key = key;
    slot.answered = false;
    return { child, view };
  }

  /** Answers a service request of a call still running; one for a call that has ended is dropped. */
  private serve(
    child: ChildProcess,
    profile: SandboxProfile,
    message: Extract<WorkerResponse, { type: 'service' }>,
  ): void {
    const answer = (result: Omit<Extract<WorkerRequest, { type: 'service-result' }>, 'type' | 'serviceId'>) => {
      if (this.slots[profile].child === child && child.connected)
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

  private permissionArgs(spec: SandboxSpec): string[] {
    const write = spec.write.map((f) => f.path);
    // The code roots as given (an asar archive, in the packaged app), not the parts the OS sandbox binds.
    const code = [...(this.options.codeRoots ?? []), this.workerPath];
    const read = [...code, ...write, ...spec.read.map((f) => f.path), ...spec.system];
    // The path checks open files relative to an open folder through /proc/self/fd/N/... (confinedFs.ts). The
    // permission model compares paths as text, so this also lets /proc/self/fd/N/.. reach any folder: on Linux it
    // is the OS sandbox, not this wall, that keeps the worker inside its folders.
    if (process.platform === 'linux') {
      read.push('/proc/self/fd');
      write.push('/proc/self/fd');
    }
    // A plain folder path grants the folder and what is inside it (and not a sibling sharing its prefix).
    // Granting both `dir` and `dir/*` trips an assertion in Node 20's permission tree, so only the plain form is used.
    const unique = (paths: string[]) => [...new Set(paths)];
    return [
      '--experimental-permission',
      ...unique(read).map((p) => `--allow-fs-read=${p}`),
      ...unique(write).map((p) => `--allow-fs-write=${p}`),
    ];
  }

  private failAll(profile: SandboxProfile, error: Error): void {
    for (const [id, pending] of [...this.pending]) {
      if (pending.profile !== profile) continue;
      this.pending.delete(id);
      pending.reject(error);
    }
  }

  private kill(profile: SandboxProfile, error: Error): void {
    const slot = this.slots[profile];
    const child = slot.child;
    slot.child = undefined;
    this.failAll(profile, error);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
