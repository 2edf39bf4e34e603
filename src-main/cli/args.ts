import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import type { CreateHostOptions } from '../host/createHost.js';
import { defaultDataDir } from '../util/dataDir.js';
import { userPath } from '../util/userPath.js';

export class UsageError extends Error {}

/**
 * A path given on the command line: `~` is the home folder, a relative path is refused. A shell expands `~` only at
 * the start of a word (not in `--model=~/m.gguf`), and `npm run` starts a command in the package's folder, not the
 * one it was typed in, so a relative path would name a file the user did not mean.
 */
export function pathArgument(value: string, name: string): string {
  try {
    return userPath(value, name);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs node's parseArgs, turning its errors (unknown option, missing value) into usage errors. */
export function usageErrors<R>(parse: () => R): R {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return Number(value);
}

export function numberOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, not "${value}"`);
  }
  return n;
}

/** Options every command that runs the Host takes, for node's parseArgs. */
export const HOST_OPTIONS = {
  model: { type: 'string' },
  'data-dir': { type: 'string' },
  'max-tokens': { type: 'string' },
  temperature: { type: 'string' },
} as const;

interface HostOptionValues {
  'data-dir'?: string | undefined;
  'max-tokens'?: string | undefined;
  temperature?: string | undefined;
}

export function dataDirFrom(values: HostOptionValues): string {
  const given = values['data-dir'];
  return given === undefined ? resolve(defaultDataDir()) : pathArgument(given, '--data-dir');
}

/** The reply settings the flags override; the rest come from the environment's defaults. */
export function replyOverrides(values: HostOptionValues): NonNullable<CreateHostOptions['reply']> {
  const maxTokens = intOption(values['max-tokens'], 'max-tokens', 1, 1_000_000);
  const temperature = numberOption(values.temperature, 'temperature', 0, 2);
  return {
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(temperature === undefined ? {} : { temperature }),
  };
}

type SubcommandOptions = NonNullable<ParseArgsConfig['options']>;
const SUBCOMMAND_BASE = { 'data-dir': HOST_OPTIONS['data-dir'] } as const;
type SubcommandConfig<T extends SubcommandOptions> = {
  args: string[];
  options: T & typeof SUBCOMMAND_BASE;
  allowPositionals: true;
  strict: true;
};

/** The arguments after a subcommand (`tools call`, `policy grant`): --data-dir always, plus the command's own. */
export function parseSubcommand<const T extends SubcommandOptions>(
  args: string[],
  options: T,
): ReturnType<typeof parseArgs<SubcommandConfig<T>>> {
  return usageErrors(() =>
    parseArgs<SubcommandConfig<T>>({
      args,
      options: { ...SUBCOMMAND_BASE, ...options },
      allowPositionals: true,
      strict: true,
    }),
  );
}
