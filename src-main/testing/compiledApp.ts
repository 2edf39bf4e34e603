import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
/** The CLI as users run it: tsc's output, whose tool worker runs behind its permission wall. */
export const COMPILED_CLI = join(REPO_ROOT, 'build', 'tsc', 'src-main', 'cli', 'main.js');

/** A module of src-main as tsc compiled it, e.g. `compiled('testing/crashChild')`. */
export function compiled(module: string): string {
  return join(REPO_ROOT, 'build', 'tsc', 'src-main', `${module}.js`);
}

/**
 * Brings tsc's output up to date (incremental: seconds when nothing changed). A type error elsewhere in the tree
 * still leaves the output written (tsc -b emits despite errors), and the typecheck step reports it; only output
 * that could not be written at all stops the tests.
 */
export function buildCompiledApp(): void {
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-b'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (!existsSync(COMPILED_CLI)) {
    throw new Error(`tsc -b wrote no ${COMPILED_CLI}:\n${result.stdout}${result.stderr}`);
  }
}

/**
 * The compiled tool worker, for a Host a test runs from sources (`toolWorker` in CreateHostOptions): it runs behind
 * Node's permission wall as in the app, and starts without compiling the packs through tsx.
 */
export const COMPILED_TOOL_WORKER = compiled('tools/sandbox/toolWorker');
