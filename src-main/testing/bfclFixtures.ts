/**
 * Test support: reads the BFCL v4 tool definitions and ground truths from `../shared/bfcl` beside
 * the repository (see that folder's README). Throws a clear error when the folder is missing, so
 * tests that depend on it fail instead of silently passing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root: this file is at src-main/testing/. */
export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const bfclDir = resolve(repoRoot, '..', 'shared', 'bfcl');

export interface BfclFunction {
  /** Where it came from, for messages: `file:line (case id)`. */
  readonly origin: string;
  readonly caseId: string | undefined;
  readonly name: string;
  readonly parameters: unknown;
}

/** `{name: {arg: [allowed values]}}` per call; `""` among the values means "may be omitted". */
export interface BfclAnswer {
  readonly origin: string;
  readonly caseId: string;
  readonly calls: ReadonlyArray<Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>>;
}

export function assertBfclDir(): void {
  if (!existsSync(bfclDir) || !existsSync(join(bfclDir, 'multi_turn_func_doc'))) {
    throw new Error(
      `The BFCL data folder is missing: expected ${bfclDir} (with multi_turn_func_doc/ and possible_answer/). ` +
        'It lives beside the repository as shared/bfcl; restore it to run these tests.',
    );
  }
}

function readJsonLines(path: string): Array<{ line: number; value: unknown }> {
  const out: Array<{ line: number; value: unknown }> = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      try {
        out.push({ line: i + 1, value: JSON.parse(text) as unknown });
      } catch (error) {
        throw new Error(`${path}:${i + 1} is not valid JSON: ${(error as Error).message}`, { cause: error });
      }
    });
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toFunction(raw: unknown, origin: string, caseId: string | undefined): BfclFunction {
  const def = asRecord(raw);
  if (typeof def.name !== 'string') throw new Error(`${origin}: a tool definition has no name`);
  return { origin, caseId, name: def.name, parameters: def.parameters };
}

/** Every tool definition in BFCL_v4_*.json (`function` lists) and multi_turn_func_doc/*.json. */
export function loadBfclFunctions(): BfclFunction[] {
  assertBfclDir();
  const out: BfclFunction[] = [];
  const caseFiles = readdirSync(bfclDir).filter((f) => /^BFCL_v4_.*\.json$/.test(f));
  for (const file of caseFiles.sort()) {
    for (const { line, value } of readJsonLines(join(bfclDir, file))) {
      const record = asRecord(value);
      const origin = `${file}:${line}`;
      const caseId = typeof record.id === 'string' ? record.id : undefined;
      if (!Array.isArray(record.function)) throw new Error(`${origin}: no "function" list`);
      for (const def of record.function) out.push(toFunction(def, `${origin} (${caseId ?? '?'})`, caseId));
    }
  }
  const docDir = join(bfclDir, 'multi_turn_func_doc');
  for (const file of readdirSync(docDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    for (const { line, value } of readJsonLines(join(docDir, file))) {
      const record = asRecord(value);
      const origin = `multi_turn_func_doc/${file}:${line}`;
      if (Array.isArray(record.function))
        for (const def of record.function) out.push(toFunction(def, origin, undefined));
      else out.push(toFunction(record, origin, undefined));
    }
  }
  if (caseFiles.length === 0 || out.length === 0) throw new Error(`No BFCL tool definitions found in ${bfclDir}`);
  return out;
}

/** Every ground truth in possible_answer/*.json. */
export function loadBfclAnswers(): BfclAnswer[] {
  assertBfclDir();
  const dir = join(bfclDir, 'possible_answer');
  if (!existsSync(dir)) throw new Error(`The BFCL answers folder is missing: expected ${dir}`);
  const out: BfclAnswer[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    for (const { line, value } of readJsonLines(join(dir, file))) {
      const record = asRecord(value);
      if (typeof record.id !== 'string' || !Array.isArray(record.ground_truth)) {
        throw new Error(`possible_answer/${file}:${line}: no id or ground_truth`);
      }
      out.push({
        origin: `possible_answer/${file}:${line}`,
        caseId: record.id,
        calls: record.ground_truth as BfclAnswer['calls'],
      });
    }
  }
  if (out.length === 0) throw new Error(`No BFCL answers found in ${dir}`);
  return out;
}
