import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The real CLI in its own process, as a script would run it, on the given data folder. */
export async function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await exec(
      join(REPO_ROOT, 'node_modules', '.bin', 'tsx'),
      ['src-main/cli/main.ts', ...args, '--data-dir', dataDir],
      { cwd: REPO_ROOT, maxBuffer: 64 << 20 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
