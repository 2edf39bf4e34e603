import path from 'node:path';

export interface LaunchArgs {
  /** `--data-dir DIR` or `--data-dir=DIR`, resolved against the working directory. */
  readonly dataDir?: string;
  /** `--model FILE` or `--model=FILE`: a GGUF to load at start. */
  readonly modelPath?: string;
}

const FLAGS = { '--data-dir': 'dataDir', '--model': 'modelPath' } as const;
type Flag = keyof typeof FLAGS;

function isFlag(value: string): value is Flag {
  return Object.hasOwn(FLAGS, value);
}

/**
 * Reads our own flags out of Electron's argv, which also holds the binary, the
 * app path and any Chromium switches; everything else is left alone. A flag
 * without a value is ignored rather than swallowing the next switch.
 */
export function parseLaunchArgs(argv: readonly string[], cwd: string = process.cwd()): LaunchArgs {
  const found: { dataDir?: string; modelPath?: string } = {};
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (!isFlag(name)) continue;
    let value: string | undefined;
    if (equals !== -1) {
      value = arg.slice(equals + 1);
    } else {
      const next = argv[index + 1];
      if (next !== undefined && !next.startsWith('--')) {
        value = next;
        index += 1;
      }
    }
    if (value) found[FLAGS[name]] = path.resolve(cwd, value);
  }
  return found;
}

/** The data folder: the argument, else HOMEBODY_DATA_DIR, else Electron's userData folder. */
export function resolveDataDir(args: LaunchArgs, env: NodeJS.ProcessEnv, userDataDir: string): string {
  const fromEnv = env.HOMEBODY_DATA_DIR?.trim();
  return path.resolve(args.dataDir ?? (fromEnv ? fromEnv : userDataDir));
}
