/**
 * Test support: Homebody's BFCL checker against BFCL's own on the mutation corpus (bfclMutations.ts). BFCL's is
 * its ast_checker.py, copied into testing/bfcl/ and run with python3 (bfcl_verdicts.py); Homebody's is the
 * evaluation's path: the case loaded as a BFCL suite, the calls parsed with parseWrittenJson, scored by scoreCase.
 *
 * The full corpus, from the repository root: `npx tsx src-main/testing/bfclAgreement.ts --all` (or `--sample N`;
 * `--json` prints the whole report as JSON). It prints the agreement and every class of disagreement, and exits
 * with 1 when there is one.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBfclSuite } from '../eval/bfclSuite.js';
import type { ToolDoc } from '../eval/bfclChecker.js';
import { caseToolName, type EvalCase } from '../eval/evalCase.js';
import { scoreCase, type ScoredCall } from '../eval/scoring.js';
import { parseWrittenJson, plainValue, type WrittenValue } from '../llm/writtenJson.js';
import { bfclDir, repoRoot } from './bfclFixtures.js';
import {
  buildMutationCorpus,
  MUTATION_CATEGORIES,
  sampleMutations,
  type BfclMutation,
  type MutationCorpus,
} from './bfclMutations.js';

export const BFCL_VERDICTS_SCRIPT = join(repoRoot, 'src-main', 'testing', 'bfcl', 'bfcl_verdicts.py');
/** The sample the integration test runs: a few thousand, every kind of mutation in it. */
export const DEFAULT_SAMPLE_SIZE = 3000;

export interface Verdict {
  readonly valid: boolean;
  /** BFCL's error type (its checker's verdicts only). */
  readonly errorType?: string;
  /** Why not valid: BFCL's messages. */
  readonly error?: string;
  /** BFCL's checker raised instead of answering (its runner would stop the whole evaluation). */
  readonly crash?: string;
}

export interface Comparison {
  readonly mutation: BfclMutation;
  readonly homebody: Verdict;
  readonly bfcl: Verdict;
}

export interface AgreementReport {
  readonly total: number;
  readonly agreed: number;
  /** Cases where BFCL's checker crashed (counted as disagreements: there is no verdict to agree with). */
  readonly crashes: number;
  readonly disagreements: readonly Comparison[];
  /** Disagreements grouped by mutation kind and both verdicts, most frequent first. */
  readonly classes: ReadonlyArray<{ readonly name: string; readonly count: number; readonly example: Comparison }>;
  /** Valid verdicts (by BFCL) among the cases, to show the corpus holds both. */
  readonly validByBfcl: number;
}

/** BFCL's verdicts, in the mutations' order, from one python3 process. */
export function bfclVerdicts(corpus: MutationCorpus, mutations: readonly BfclMutation[]): Verdict[] {
  const input = mutations
    .map((m) => {
      const c = corpus.cases.get(m.caseId)!;
      return JSON.stringify({
        id: m.id,
        category: c.category,
        functions: c.functions,
        output: m.output,
        answer: c.answer,
      });
    })
    .join('\n');
  const run = spawnSync('python3', ['-B', BFCL_VERDICTS_SCRIPT], {
    input,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (run.error) throw new Error(`Could not run python3 for BFCL's checker: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`BFCL's checker (${BFCL_VERDICTS_SCRIPT}) failed:\n${run.stderr}`);
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== mutations.length) {
    throw new Error(`BFCL's checker answered ${lines.length} of ${mutations.length} cases:\n${run.stderr}`);
  }
  return lines.map((line, i) => {
    const answer = JSON.parse(line) as {
      id: string;
      valid?: boolean;
      error_type?: string;
      error?: string;
      crash?: string;
    };
    if (answer.id !== mutations[i]!.id) throw new Error(`BFCL's checker answered ${answer.id} for ${mutations[i]!.id}`);
    if (answer.crash !== undefined) return { valid: false, crash: answer.crash };
    return {
      valid: answer.valid === true,
      ...(answer.error_type ? { errorType: answer.error_type } : {}),
      ...(answer.error ? { error: answer.error } : {}),
    };
  });
}

/** The corpus's cases as the evaluation loads them (bfclSuite.ts: answers keep their numbers as written). */
function evalCases(): Map<string, EvalCase> {
  const cases = new Map<string, EvalCase>();
  for (const category of MUTATION_CATEGORIES) {
    for (const c of loadBfclSuite(join(bfclDir, `BFCL_v4_${category}.json`)).cases) cases.set(c.id, c);
  }
  return cases;
}

function docsOf(c: EvalCase): ToolDoc[] {
  return c.tools.map((tool) => ({
    name: caseToolName(tool),
    parameters: typeof tool === 'string' ? undefined : tool.parameters,
  }));
}

/** The calls of a model's output text, as the engine hands them to the evaluation: plain args and written ones. */
export function callsOfOutput(output: string): ScoredCall[] {
  const parsed = parseWrittenJson(output);
  if (!Array.isArray(parsed)) throw new Error('the output is not a list of calls');
  return parsed.map((item) => {
    const [name, written] = Object.entries(item as Record<string, WrittenValue>)[0] ?? ['', {}];
    return { name, args: plainValue(written), written, valid: true };
  });
}

/** Homebody's verdicts, in the mutations' order. */
export function homebodyVerdicts(mutations: readonly BfclMutation[]): Verdict[] {
  const cases = evalCases();
  return mutations.map((m) => {
    const c = cases.get(m.caseId);
    if (!c) throw new Error(`${m.caseId} is not among the BFCL cases the evaluation loads`);
    const score = scoreCase(c, docsOf(c), callsOfOutput(m.output), undefined);
    return { valid: score.correct, ...(score.failure ? { error: score.failure } : {}) };
  });
}

function describe(v: Verdict): string {
  if (v.crash !== undefined) return `crash (${v.crash})`;
  return v.valid ? 'valid' : `invalid${v.errorType ? ` ${v.errorType}` : ''}`;
}

export function compareVerdicts(
  mutations: readonly BfclMutation[],
  homebody: readonly Verdict[],
  bfcl: readonly Verdict[],
): AgreementReport {
  const disagreements: Comparison[] = [];
  mutations.forEach((mutation, i) => {
    const h = homebody[i]!;
    const b = bfcl[i]!;
    if (b.crash !== undefined || h.valid !== b.valid) disagreements.push({ mutation, homebody: h, bfcl: b });
  });
  const classes = new Map<string, { name: string; count: number; example: Comparison }>();
  for (const d of disagreements) {
    const name = `${d.mutation.kind}: Homebody ${d.homebody.valid ? 'valid' : 'invalid'}, BFCL ${describe(d.bfcl)}`;
    const entry = classes.get(name) ?? { name, count: 0, example: d };
    classes.set(name, { ...entry, count: entry.count + 1 });
  }
  return {
    total: mutations.length,
    agreed: mutations.length - disagreements.length,
    crashes: bfcl.filter((v) => v.crash !== undefined).length,
    disagreements,
    classes: [...classes.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    validByBfcl: bfcl.filter((v) => v.valid).length,
  };
}

/** A disagreement as a test failure names it: the case, its output, and both verdicts. */
export function describeDisagreement(d: Comparison): string {
  return (
    `${d.mutation.id}: ${d.mutation.output.replace(/\s+/g, ' ')}\n` +
    `  Homebody: ${describe(d.homebody)}${d.homebody.error ? ` (${d.homebody.error})` : ''}\n` +
    `  BFCL:     ${describe(d.bfcl)}${d.bfcl.error ? ` (${d.bfcl.error})` : ''}`
  );
}

/** Both checkers on the sample (or every mutation, `size` undefined). */
export function runAgreement(size: number | undefined): AgreementReport {
  const corpus = buildMutationCorpus();
  const mutations = size === undefined ? corpus.mutations : sampleMutations(corpus.mutations, size);
  return compareVerdicts(mutations, homebodyVerdicts(mutations), bfclVerdicts(corpus, mutations));
}

function main(argv: readonly string[]): number {
  const sizeAt = argv.indexOf('--sample');
  const size = argv.includes('--all') ? undefined : sizeAt >= 0 ? Number(argv[sizeAt + 1]) : DEFAULT_SAMPLE_SIZE;
  if (size !== undefined && !(Number.isInteger(size) && size > 0)) {
    process.stderr.write('--sample needs a whole number of cases, e.g. --sample 3000\n');
    return 2;
  }
  const report = runAgreement(size);
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const percent = ((100 * report.agreed) / report.total).toFixed(2);
    process.stdout.write(
      `${report.total} mutations (${report.validByBfcl} valid by BFCL): the same verdict on ${report.agreed} ` +
        `(${percent}%), ${report.disagreements.length} disagreements, BFCL crashed on ${report.crashes}.\n`,
    );
    for (const c of report.classes)
      process.stdout.write(`${c.count}\t${c.name}\n\t${describeDisagreement(c.example)}\n`);
  }
  return report.disagreements.length === 0 ? 0 : 1;
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  process.exitCode = main(process.argv.slice(2));
}
