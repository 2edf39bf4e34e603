/**
 * Finds and reads evaluation suites: the default one in resources/, Homebody suite files, BFCL files, and folders
 * of either. Every problem is a SuiteError naming the file and what is wrong.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resourcePath } from '../util/appPaths.js';
import { bfclCategoryOf, loadBfclSuite, SuiteError } from './bfclSuite.js';
import { fromHomebodyCase, HomebodySuiteSchema, type EvalCase } from './evalCase.js';

export type SuiteFormat = 'homebody' | 'bfcl';

export interface LoadedSuite {
  /** What `eval.start` and the CLI take to name it again: `default`, or the file's path. */
  readonly id: string;
  readonly name: string;
  readonly format: SuiteFormat;
  readonly description: string;
  readonly cases: EvalCase[];
}

/** A file a folder held that is not a suite Homebody can run, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

export const DEFAULT_SUITE_ID = 'default';

export function defaultSuitePath(): string {
  return resourcePath('eval', 'default-suite.json');
}

export function fixturesPath(): string {
  return resourcePath('eval', 'fixtures');
}

function issuesText(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(top)'}: ${i.message}`)
    .join('; ');
}

export function loadHomebodySuite(path: string, id = path): LoadedSuite {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SuiteError(`Cannot read the suite ${path}: ${(error as Error).message}`);
  }
  const parsed = HomebodySuiteSchema.safeParse(raw);
  if (!parsed.success) throw new SuiteError(`${path} is not a Homebody suite: ${issuesText(parsed.error)}`);
  const ids = new Set<string>();
  for (const c of parsed.data.cases) {
    if (ids.has(c.id)) throw new SuiteError(`${path}: two cases are named ${c.id}`);
    ids.add(c.id);
  }
  const name = parsed.data.name;
  return {
    id,
    name,
    format: 'homebody',
    description: parsed.data.description,
    cases: parsed.data.cases.map((c) => fromHomebodyCase(c, name)),
  };
}

/** Whether a file is BFCL's JSON Lines (by its name, else by its first line's keys). */
function looksLikeBfcl(path: string): boolean {
  if (bfclCategoryOf(path)) return true;
  const first = readFileSync(path, 'utf8').split('\n', 1)[0] ?? '';
  try {
    const value = JSON.parse(first) as Record<string, unknown>;
    return typeof value === 'object' && value !== null && 'question' in value && 'function' in value;
  } catch {
    return false;
  }
}

function loadFile(path: string, format: SuiteFormat | undefined): LoadedSuite {
  const bfcl = format === 'bfcl' || (format === undefined && looksLikeBfcl(path));
  if (!bfcl) return loadHomebodySuite(path);
  const { name, cases } = loadBfclSuite(path);
  return { id: path, name, format: 'bfcl', description: `${cases.length} cases from ${basename(path)}`, cases };
}

/**
 * The suites `target` names: `default`, a file, or a folder (every suite file directly in it; BFCL's
 * `possible_answer/` and `multi_turn_func_doc/` are read as parts of the suites beside them, not as suites).
 */
export function loadSuites(target: string, format?: SuiteFormat): { suites: LoadedSuite[]; skipped: SkippedFile[] } {
  if (target === DEFAULT_SUITE_ID)
    return { suites: [loadHomebodySuite(defaultSuitePath(), DEFAULT_SUITE_ID)], skipped: [] };
  if (!existsSync(target)) throw new SuiteError(`No suite at ${target}: there is no such file or folder`);
  if (!statSync(target).isDirectory()) return { suites: [loadFile(target, format)], skipped: [] };
  const suites: LoadedSuite[] = [];
  const skipped: SkippedFile[] = [];
  const files = readdirSync(target)
    .filter((f) => /\.jsonl?$/.test(f))
    .sort();
  for (const file of files) {
    const path = join(target, file);
    if (!statSync(path).isFile()) continue;
    try {
      suites.push(loadFile(path, format));
    } catch (error) {
      if (!(error instanceof SuiteError)) throw error;
      skipped.push({ path, reason: error.message });
    }
  }
  if (suites.length === 0) {
    const why = skipped.length > 0 ? ` (${skipped.map((s) => s.reason).join('; ')})` : '';
    throw new SuiteError(`No suite in the folder ${target}${why}`);
  }
  return { suites, skipped };
}

/** At most `limit` cases of each suite, in the suite's own order. */
export function limitCases(suite: LoadedSuite, limit: number | undefined): EvalCase[] {
  return limit === undefined ? suite.cases : suite.cases.slice(0, limit);
}
