/** Small pieces the file tools share: schema fragments and argument readers. */
import { MAX_PATH_LENGTH } from '../../sandbox/pathGuard.js';
import type { JsonSchema } from '../../toolTypes.js';

/** A path parameter as offered to the model. */
export function pathParam(description: string): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: MAX_PATH_LENGTH, description };
}

/** An object schema that accepts nothing beyond its properties. */
export function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The text of a path argument for describe() (validation already happened; this never throws). */
export function shownArg(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** A bounded integer argument, falling back to a default (the schema already bounds it; this is belt and braces). */
export function intArg(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

export function boolArg(value: unknown): boolean {
  return value === true;
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Last part of a path for titles ("report.txt"), whatever the separator. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]+/).filter((s) => s !== '');
  return parts[parts.length - 1] ?? p;
}
