import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The processes the benchmark starts: the app itself as users run it (tsc's output), so that a restart is a real
 * one; llama-server; the build scripts. The bench is a command of its own: these helpers are not the tests' (which
 * never ship) and not the app's (which starts only its tool worker).
 */

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** A module of src-main as tsc compiles it, e.g. `compiledModule('bench/appNewTaskChild')`. */
export function compiledModule(module: string): string {
  return join(REPO_ROOT, 'build', 'tsc', 'src-main', `${module}.js`);
}

/**
 * Brings tsc's output up to date (incremental: seconds when little changed). tsc -b writes its output despite type
 * errors elsewhere in the tree; only a module it could not write at all stops the benchmark.
 */
export function compileApp(module: string, log: (line: string) => void): string {
  log('compiling the app (tsc -b)');
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-b'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const path = compiledModule(module);
  if (!existsSync(path)) throw new Error(`tsc -b wrote no ${path}:\n${result.stdout}${result.stderr}`);
  return path;
}

/** What a child printed and how it ended. */
export interface ChildOutcome<T> {
  readonly lines: T[];
  /** Its exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** Its last lines on stderr, to say why it failed. */
  readonly stderrTail: string[];
}

/**
 * Runs a Node child to its end, keeping the stdout lines `parse` recognizes (as they come, through `onLine`) and
 * passing its stderr to `log`. It is killed after `timeoutMs`, and when a line it printed makes `onLine` throw.
 */
export function runNodeChild<T>(options: {
  readonly script: string;
  readonly args: readonly string[];
  readonly parse: (line: string) => T | null;
  readonly onLine?: (line: T, child: ChildProcess) => void;
  readonly log: (line: string) => void;
  readonly timeoutMs: number;
}): Promise<ChildOutcome<T>> {
  const child = spawn(process.execPath, [options.script, ...options.args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: T[] = [];
  const stderrTail: string[] = [];
  let failure: Error | undefined;
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = options.parse(text);
    if (line === null) return;
    lines.push(line);
    try {
      options.onLine?.(line, child);
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
      child.kill('SIGKILL');
    }
  });
  createInterface({ input: child.stderr! }).on('line', (text) => {
    stderrTail.push(text);
    if (stderrTail.length > 20) stderrTail.shift();
    options.log(`  ${text}`);
  });
  const timer = setTimeout(() => {
    failure ??= new Error(`${options.script} ran past ${Math.round(options.timeoutMs / 1000)} s and was stopped`);
    child.kill('SIGKILL');
  }, options.timeoutMs);
  return new Promise((resolvePromise, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${options.script} could not start: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolvePromise({ lines, code, stderrTail });
    });
  });
}

/** A TCP port on 127.0.0.1 that nothing listens on now (the OS's pick), for a server the benchmark starts. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolvePromise(port) : reject(new Error('no free port on 127.0.0.1'))));
    });
  });
}
