import { execFile, spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolSandbox } from '../../../src-shared/contract/index.js';
import { bwrapArgs, planMounts, type SystemEntry } from './bwrapArgs.js';
import type { SandboxFolder, SandboxSpec } from './sandboxSpec.js';
import { seatbeltProfile } from './seatbeltProfile.js';

/**
 * The OS sandbox the tool worker starts in, found once per process: bubblewrap on Linux, Seatbelt (sandbox-exec)
 * on macOS, or none, with the reason. Where none can start the worker still runs (Node's permission model and the
 * path checks), and the Privacy page and the Doctor say so.
 */
export type OsSandbox =
  | { readonly kind: 'bubblewrap'; readonly command: string; readonly version: string; readonly bindFd: boolean }
  | { readonly kind: 'seatbelt'; readonly command: string }
  | { readonly kind: 'none'; readonly reason: NoSandboxReason; readonly detail: string };

export type NoSandboxReason =
  'turned-off' | 'no-bwrap' | 'bwrap-failed' | 'no-sandbox-exec' | 'sandbox-exec-failed' | 'unsupported-platform';

export interface DetectOptions {
  readonly platform?: NodeJS.Platform;
  /** `off` for HOMEBODY_SANDBOX=off (debugging only). */
  readonly mode?: 'auto' | 'off';
  /** The bwrap to use; by default the first on PATH, else /usr/bin/bwrap. */
  readonly bwrap?: string;
  /** The runtime the worker runs on, and its environment (started once inside the sandbox as the probe). */
  readonly execPath?: string;
  readonly env?: Readonly<Record<string, string>>;
}

const PROBE_TIMEOUT_MS = 15_000;
/** bubblewrap 0.8.0 added --bind-fd: folders are bound by descriptor, never by a path that may change meanwhile. */
const BIND_FD_VERSION = [0, 8, 0] as const;
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

const detected = new Map<string, Promise<OsSandbox>>();

/** The sandbox this process's workers start in; probed on first use, then the same answer for the process. */
export function detectOsSandbox(options: DetectOptions = {}): Promise<OsSandbox> {
  const platform = options.platform ?? process.platform;
  const mode = options.mode ?? 'auto';
  const execPath = options.execPath ?? process.execPath;
  const env = options.env ?? { PATH: process.env.PATH ?? '' };
  const key = JSON.stringify([platform, mode, options.bwrap ?? null, execPath, env]);
  let found = detected.get(key);
  if (!found) {
    found = probe(platform, mode, options.bwrap, execPath, env);
    detected.set(key, found);
  }
  return found;
}

async function probe(
  platform: NodeJS.Platform,
  mode: 'auto' | 'off',
  bwrap: string | undefined,
  execPath: string,
  env: Readonly<Record<string, string>>,
): Promise<OsSandbox> {
  if (mode === 'off') return { kind: 'none', reason: 'turned-off', detail: 'HOMEBODY_SANDBOX=off' };
  if (platform === 'linux')
    return probeBwrap(bwrap ?? findOnPath('bwrap', env.PATH) ?? '/usr/bin/bwrap', execPath, env);
  if (platform === 'darwin') return probeSeatbelt();
  return { kind: 'none', reason: 'unsupported-platform', detail: platform === 'win32' ? 'Windows' : platform };
}

function findOnPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function run(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ ok: boolean; stdout: string; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      resolve({ ok: !error, stdout, stderr: stderr || (error?.message ?? ''), missing: code === 'ENOENT' });
    });
  });
}

function atLeast(version: string, wanted: readonly number[]): boolean {
  const parts = (/(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  if (parts.length !== 3) return false;
  for (let i = 0; i < 3; i++) if (parts[i] !== wanted[i]) return parts[i]! > wanted[i]!;
  return true;
}

const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1) ?? 'no message';

async function probeBwrap(bwrap: string, execPath: string, env: Readonly<Record<string, string>>): Promise<OsSandbox> {
  const version = await run(bwrap, ['--version'], env);
  if (version.missing) return { kind: 'none', reason: 'no-bwrap', detail: bwrap };
  if (!version.ok) return { kind: 'none', reason: 'bwrap-failed', detail: lastLine(version.stderr) };
  // The real thing, once: the runtime started in an empty sandbox with every namespace unshared.
  const empty: SandboxSpec = {
    profile: 'files',
    code: [],
    system: [],
    read: [],
    write: [],
    hidden: [],
    network: false,
  };
  const args = bwrapArgs(planMounts(empty, linuxRuntime(execPath)), { network: false, folderFds: new Map(), cwd: '/' });
  const started = await run(bwrap, [...args, execPath, '-e', ''], env);
  if (!started.ok) return { kind: 'none', reason: 'bwrap-failed', detail: lastLine(started.stderr) };
  const named = /\d+\.\d+\.\d+/.exec(version.stdout)?.[0] ?? version.stdout.trim();
  return { kind: 'bubblewrap', command: bwrap, version: named, bindFd: atLeast(named, BIND_FD_VERSION) };
}

async function probeSeatbelt(): Promise<OsSandbox> {
  const tried = await run(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], {});
  if (tried.missing) return { kind: 'none', reason: 'no-sandbox-exec', detail: SANDBOX_EXEC };
  if (!tried.ok) return { kind: 'none', reason: 'sandbox-exec-failed', detail: lastLine(tried.stderr) };
  return { kind: 'seatbelt', command: SANDBOX_EXEC };
}

/** For people: the Privacy page's and the Doctor's line about the sandbox, and what to do when there is none. */
export function describeOsSandbox(sandbox: OsSandbox): ToolSandbox {
  const onlyPaths = 'tools are confined by path checks only.';
  const both =
    'that shows them only the granted folders, the tool packs’ folders and the undo copies (never the history ' +
    'database or the secret key) and gives them no network. Web and mail tools run in a second one that may ' +
    'connect, each connection still asked of the egress guard, and that sees none of the granted folders.';
  switch (sandbox.kind) {
    case 'bubblewrap':
      return {
        kind: 'bubblewrap',
        summary: 'bubblewrap: the tool worker sees only the granted folders and has no network.',
        detail: `Tools run in a Linux sandbox (bubblewrap ${sandbox.version}) ${both}`,
      };
    case 'seatbelt':
      return {
        kind: 'seatbelt',
        summary: 'Seatbelt: the tool worker sees only the granted folders and has no network.',
        detail: `Tools run under a macOS sandbox profile (sandbox-exec) ${both}`,
      };
    case 'none':
      return { kind: 'none', ...noSandboxText(sandbox.reason, sandbox.detail, onlyPaths) };
    default:
      return sandbox satisfies never;
  }
}

function noSandboxText(reason: NoSandboxReason, detail: string, onlyPaths: string): Omit<ToolSandbox, 'kind'> {
  switch (reason) {
    case 'turned-off':
      return {
        summary: `No OS sandbox: HOMEBODY_SANDBOX=off turned it off; ${onlyPaths}`,
        detail: 'Start Homebody without HOMEBODY_SANDBOX=off to run the tools in the sandbox again.',
      };
    case 'no-bwrap':
      return {
        summary: `No OS sandbox: bwrap is not installed; ${onlyPaths}`,
        detail: 'Install bubblewrap (on Debian or Ubuntu: sudo apt install bubblewrap) and restart Homebody.',
      };
    case 'bwrap-failed':
      return {
        summary: `No OS sandbox: bwrap could not start one on this computer; ${onlyPaths}`,
        detail:
          `bwrap said: ${detail}. Usually the kernel does not let programs make user namespaces ` +
          '(kernel.unprivileged_userns_clone, or AppArmor’s restriction on Ubuntu 24.04 and later); allow them for ' +
          'bwrap and restart Homebody.',
      };
    case 'no-sandbox-exec':
      return {
        summary: `No OS sandbox: macOS’s sandbox-exec is missing; ${onlyPaths}`,
        detail: `${detail} is not on this Mac; Homebody needs it to sandbox the tools.`,
      };
    case 'sandbox-exec-failed':
      return {
        summary: `No OS sandbox: sandbox-exec could not start one on this Mac; ${onlyPaths}`,
        detail: `sandbox-exec said: ${detail}.`,
      };
    case 'unsupported-platform':
      return {
        summary: `No OS sandbox: Homebody has none for ${detail} yet; ${onlyPaths}`,
        detail:
          'The tool worker runs under Node’s permission model when compiled, and every path is checked against the ' +
          'granted folders; grant only the folders the tools need.',
      };
    default:
      return reason satisfies never;
  }
}

/** What the runtime needs on Linux: /usr and the top-level links or folders into it, the binary's own folder. */
export function linuxRuntime(execPath: string): SystemEntry[] {
  const entries: SystemEntry[] = [];
  for (const top of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    const entry = hostEntry(top);
    if (entry) entries.push(entry);
  }
  // Library lookup and the local time zone (a link ICU reads the zone's name from); nothing else of /etc.
  for (const file of ['/etc/ld.so.cache', '/etc/localtime', '/etc/timezone']) {
    const entry = hostEntry(file);
    if (entry) entries.push(entry);
  }
  // Electron keeps its libraries and resources beside the binary (and the app's asar there too); where the binary's
  // path is a link, both the link's folder and the real one.
  for (const dir of new Set([path.dirname(path.resolve(execPath)), path.dirname(realOrSame(execPath))])) {
    entries.push({ path: dir, kind: 'folder' });
  }
  return entries;
}

function hostEntry(p: string): SystemEntry | undefined {
  try {
    const stats = lstatSync(p);
    if (stats.isSymbolicLink()) return { path: p, kind: 'symlink', target: readlinkSync(p) };
    return { path: p, kind: stats.isDirectory() ? 'folder' : 'file' };
  } catch {
    return undefined;
  }
}

function realOrSame(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * sysfs folders list links into /sys/devices (`/sys/class/net/eth0 -> ../../devices/...`): the links' own targets
 * are bound too, so reading through them works, and nothing else of /sys is there.
 */
function withLinkTargets(folders: readonly string[]): string[] {
  const all = new Set<string>();
  for (const folder of folders) {
    all.add(folder);
    if (!folder.startsWith('/sys/')) continue;
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const at = path.join(folder, name);
      try {
        if (lstatSync(at).isSymbolicLink()) all.add(realpathSync(at));
      } catch {
        // gone meanwhile
      }
    }
  }
  return [...all];
}

/**
 * Opens a folder (or a file, such as an mbox) to bind it by descriptor: refused when the path ends in a link,
 * when a link on the way led elsewhere than the path says, or when it is no longer the folder that was granted.
 */
function openChecked(folder: SandboxFolder): number | undefined {
  let fd: number;
  try {
    fd = openSync(folder.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_DIRECTORY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
    try {
      fd = openSync(folder.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return undefined;
    }
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    const same =
      !folder.identity || (String(stats.dev) === folder.identity.dev && String(stats.ino) === folder.identity.ino);
    if (same && (stats.isDirectory() || stats.isFile()) && readlinkSync(`/proc/self/fd/${fd}`) === folder.path) {
      return fd;
    }
  } catch {
    // treated as not there
  }
  closeSync(fd);
  return undefined;
}

export interface WorkerCommand {
  /** The Node or Electron binary, and its arguments (flags, then the worker's module). */
  readonly execPath: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The working folder inside the sandbox (it exists there); outside one the app's own is kept. */
  readonly cwd: string;
}

const BASE_STDIO = ['ignore', 'ignore', 'pipe', 'ipc'] as const;

/**
 * Starts the worker in the sandbox with an IPC channel (JSON). The folders are opened and checked here, and bound
 * from those descriptors, which bwrap closes before the worker runs.
 */
export function startSandboxed(sandbox: OsSandbox, spec: SandboxSpec, command: WorkerCommand): ChildProcess {
  switch (sandbox.kind) {
    case 'none':
      return spawn(command.execPath, command.args, {
        stdio: [...BASE_STDIO],
        serialization: 'json',
        env: command.env,
      });
    case 'bubblewrap':
      return startInBwrap(sandbox, spec, command);
    case 'seatbelt': {
      const tmpDir = realOrSame(mkdtempSync(path.join(tmpdir(), 'homebody-worker-')));
      // The .app's Contents (Electron), or a Node installation's prefix and Homebrew's, whose libraries node loads.
      const runtimeDirs = [path.dirname(path.dirname(realOrSame(command.execPath))), '/opt/homebrew'];
      const profile = seatbeltProfile(spec, { execPath: command.execPath, runtimeDirs, tmpDir });
      const child = spawn(sandbox.command, ['-p', profile, command.execPath, ...command.args], {
        stdio: [...BASE_STDIO],
        serialization: 'json',
        env: { ...command.env, TMPDIR: tmpDir },
      });
      child.once('exit', () => rmSync(tmpDir, { recursive: true, force: true }));
      return child;
    }
    default:
      return sandbox satisfies never;
  }
}

function startInBwrap(
  sandbox: Extract<OsSandbox, { kind: 'bubblewrap' }>,
  spec: SandboxSpec,
  command: WorkerCommand,
): ChildProcess {
  const opened = new Map<string, number>();
  try {
    const usable = (folder: SandboxFolder) => {
      const fd = openChecked(folder);
      if (fd === undefined) return false;
      if (opened.has(folder.path)) {
        closeSync(fd);
        return true;
      }
      // Without --bind-fd (bwrap before 0.8) the checked path is bound by name: a change just now would win.
      if (sandbox.bindFd) opened.set(folder.path, fd);
      else closeSync(fd);
      return true;
    };
    // Code is bound at the path the command names; bwrap follows any link in the source path to what it shows there.
    const checked: SandboxSpec = {
      ...spec,
      system: withLinkTargets(spec.system),
      write: spec.write.filter(usable),
      read: spec.read.filter(usable),
    };
    const plan = planMounts(checked, linuxRuntime(command.execPath));
    // Only the descriptors of folders the plan binds go to bwrap, numbered after stdin, stdout, stderr and IPC.
    const passed: number[] = [];
    const folderFds = new Map<string, number>();
    for (const step of plan) {
      const fd = step.kind === 'bind' ? opened.get(step.path) : undefined;
      if (fd === undefined || folderFds.has(step.path)) continue;
      folderFds.set(step.path, BASE_STDIO.length + passed.length);
      passed.push(fd);
    }
    const args = bwrapArgs(plan, { network: spec.network, folderFds, cwd: command.cwd });
    const stdio: StdioOptions = [...BASE_STDIO, ...passed];
    return spawn(sandbox.command, [...args, command.execPath, ...command.args], {
      stdio,
      serialization: 'json',
      env: command.env,
    });
  } finally {
    // The child has its own copies now (or never started).
    for (const fd of opened.values()) closeSync(fd);
  }
}
