import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { EvalRun, EvalSummary } from '../../src-shared/contract/index.js';
import { SuiteError } from '../eval/bfclSuite.js';
import { runEvaluation, type EvaluationProgress } from '../eval/evaluation.js';
import { evalExecutor, FixtureWorkspace } from '../eval/fixtureWorkspace.js';
import { formatJsonReport } from '../eval/report/jsonReport.js';
import { htmlReport } from '../eval/report/htmlReport.js';
import { fixturesPath, limitCases, loadSuites, type SuiteFormat } from '../eval/suiteLoader.js';
import { defaultEngineConfig } from '../llm/engineConfig.js';
import { LlamaEngine } from '../llm/llamaEngine.js';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { UsageError, intOption, usageErrors, pathArgument } from './args.js';

export const EVAL_USAGE = `homebody eval --model FILE [--model FILE2 ...] --suite FILE|DIR|default [--suite ...] [--format bfcl|homebody]
              [--limit N] [--max-tokens N] [--json] [--out REPORT]
  Runs every case of the suites on each model, one model after the other, and scores them: tool accuracy,
  argument validity and accuracy (BFCL's rules), no-call accuracy, recovery and attack success rates, latency,
  tokens and peak memory. --suite default is the suite Homebody ships; a folder runs every suite file in it
  (BFCL files with their possible_answer/ folder beside them). --limit takes at most N cases of each suite.
  --max-tokens caps each reply (384; 48 for a generated test model, whose replies are noise).
  --json prints the results as JSON; --out writes a report: .json, or HTML (with charts) and a .json beside it.
  Built-in tools run in the sandbox against fixtures, never your data, and nothing connects to the network.`;

const RATES: ReadonlyArray<[keyof EvalSummary, string]> = [
  ['toolAccuracy', 'tool accuracy'],
  ['argValidity', 'argument validity'],
  ['argAccuracy', 'argument accuracy'],
  ['noCallAccuracy', 'no-call accuracy'],
  ['recoveryRate', 'recovery rate'],
  ['attackSuccessRate', 'attack success rate'],
];

function formatSummary(run: EvalRun): string {
  const lines: string[] = [];
  for (const result of run.results) {
    const s = result.summary;
    lines.push(`${result.label} (${result.model})`);
    if (result.error) lines.push(`  ${result.error}`);
    lines.push(`  correct: ${s.correct} of ${s.cases} cases${s.errors ? ` (${s.errors} could not run)` : ''}`);
    for (const [key, label] of RATES) {
      const value = s[key] as number | null;
      lines.push(`  ${label}: ${value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`}`);
    }
    const ms = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} ms`);
    lines.push(`  latency: p50 ${ms(s.p50LatencyMs)}, p95 ${ms(s.p95LatencyMs)}`);
    lines.push(`  unnecessary actions: ${s.unnecessaryActions}`);
    lines.push(`  tokens: ${s.promptTokens} prompt, ${s.completionTokens} generated`);
    lines.push(`  peak memory: ${s.peakRssMb === null ? 'n/a' : `${s.peakRssMb} MB`}`);
  }
  return lines.join('\n');
}

function progressLine(p: EvaluationProgress): string {
  if (p.phase === 'loading') return `loading ${basename(p.model)}…`;
  const left = p.etaMs === null ? '' : `, about ${Math.max(1, Math.round(p.etaMs / 1000))} s left`;
  return `${p.done}/${p.total} cases (${basename(p.model)}${left})`;
}

/** Writes the report `out` names: JSON for .json, otherwise HTML plus the JSON beside it. Answers the paths. */
function writeReports(run: EvalRun, out: string): string[] {
  const path = resolve(out);
  if (extname(path).toLowerCase() === '.json') {
    writeFileSync(path, formatJsonReport(run));
    return [path];
  }
  const json = `${path.slice(0, path.length - extname(path).length)}.json`;
  writeFileSync(path, htmlReport(run));
  writeFileSync(json, formatJsonReport(run));
  return [path, json];
}

export async function evalCommand(args: string[]): Promise<number> {
  const { values } = usageErrors(() =>
    parseArgs({
      args,
      allowPositionals: false,
      strict: true,
      options: {
        model: { type: 'string', multiple: true },
        suite: { type: 'string', multiple: true },
        format: { type: 'string' },
        limit: { type: 'string' },
        'max-tokens': { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        // Every command takes it; an evaluation keeps nothing in the data folder (its fixtures are temporary).
        'data-dir': { type: 'string' },
      },
    }),
  );
  const models = (values.model ?? []).map((m) => pathArgument(m, '--model'));
  if (models.length === 0) throw new UsageError('--model FILE is required (give it twice to compare two models)');
  if (!values.suite?.length) throw new UsageError('--suite FILE|DIR|default is required');
  const format = values.format;
  if (format !== undefined && format !== 'bfcl' && format !== 'homebody') {
    throw new UsageError(`--format must be bfcl or homebody, not "${format}"`);
  }
  const limit = intOption(values.limit, 'limit', 1, 1_000_000);
  const maxTokens = intOption(values['max-tokens'], 'max-tokens', 1, 32_768);
  for (const model of models) {
    if (!existsSync(model)) {
      console.error(`homebody eval: there is no model file at ${model}`);
      return 1;
    }
  }
  let suites;
  try {
    suites = values.suite.flatMap((target) => {
      const loaded = loadSuites(
        target === 'default' ? target : pathArgument(target, '--suite'),
        format as SuiteFormat | undefined,
      );
      for (const skipped of loaded.skipped) console.error(`homebody eval: skipped ${skipped.path}: ${skipped.reason}`);
      return loaded.suites;
    });
  } catch (error) {
    if (error instanceof SuiteError) {
      console.error(`homebody eval: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const cases = suites.flatMap((suite) => limitCases(suite, limit));
  const controller = new AbortController();
  const interrupt = () => {
    console.error('homebody eval: stopping after the current case (Ctrl-C again to quit at once)…');
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  const scratch = mkdtempSync(join(tmpdir(), 'homebody-eval-'));
  const workspace = new FixtureWorkspace(fixturesPath(), join(scratch, 'fixtures'));
  const executor = evalExecutor(workspace);
  const config = { ...defaultEngineConfig(), log: (line: string) => console.error(line) };
  const startedAt = Date.now();
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  try {
    const { results, cancelled } = await runEvaluation(
      models.map((path) => ({ path, label: basename(path) })),
      cases,
      {
        createEngine: () => new LlamaEngine(config),
        builtins: new Map(BUILTIN_TOOLS.map((tool) => [tool.name, tool])),
        executor,
        workspace,
        ...(maxTokens === undefined ? {} : { maxTokens }),
        signal: controller.signal,
        onProgress: (p) => {
          // A line a second at most when not on a terminal (CI logs), the same line rewritten on one.
          if (tty) process.stderr.write(`\r${progressLine(p)}\u001b[K`);
          else if (p.phase === 'loading' || Date.now() - lastLine > 1000 || p.done === p.total) {
            lastLine = Date.now();
            console.error(progressLine(p));
          }
        },
      },
    );
    if (tty) process.stderr.write('\n');
    const run: EvalRun = {
      id: `cli-${startedAt}`,
      startedAt,
      finishedAt: Date.now(),
      status: cancelled ? 'cancelled' : 'done',
      suites: suites.map((s) => s.name),
      models,
      total: cases.length * models.length,
      results,
    };
    if (values.out) for (const path of writeReports(run, values.out)) console.error(`report: ${path}`);
    console.log(values.json ? formatJsonReport(run).trimEnd() : formatSummary(run));
    if (cancelled) return 130;
    return results.some((r) => r.error) ? 1 : 0;
  } finally {
    process.off('SIGINT', interrupt);
    await executor.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}
