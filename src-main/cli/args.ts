export class UsageError extends Error {}

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
