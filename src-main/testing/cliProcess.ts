import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { COMPILED_CLI, REPO_ROOT } from './compiledApp.js';

const exec = promisify(execFile);
export { REPO_ROOT };

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The real CLI in its own process, as a script would run it, on the given data folder: the compiled one, as users
 * get it (the integration project's global setup builds it), so its tool worker runs behind the permission wall.
 */
export async function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [COMPILED_CLI, ...args, '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
