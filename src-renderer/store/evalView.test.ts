import { describe, expect, it } from 'vitest';
import type { EvalCaseResult, EvalModelResult, EvalRunSummary, EvalSummary } from '../../src-shared/contract/index.js';
import {
  applyEvalFinished,
  applyEvalProgress,
  bestIndexes,
  caseRows,
  EVAL_METRICS,
  etaText,
  evalModelChoices,
  filterCaseRows,
  formatMetric,
  formatRate,
  parseCaseLimit,
  parseThresholdPercent,
  progressLine,
  quantFromFileName,
  recordedCaseText,
  runBlocker,
  type MetricDef,
} from './evalView.js';

function summary(overrides: Partial<EvalSummary> = {}): EvalSummary {
  return {
    toolAccuracy: 0.5,
    argValidity: 1,
    argAccuracy: 0.25,
    noCallAccuracy: null,
    recoveryRate: null,
    attackSuccessRate: 0,
    p50LatencyMs: 850,
    p95LatencyMs: 4200,
    peakRssMb: 512.4,
    unnecessaryActions: 2,
    correct: 3,
    cases: 4,
    errors: 0,
    promptTokens: 100,
    completionTokens: 20,
    ...overrides,
  };
}

function caseResult(id: string, correct: boolean, overrides: Partial<EvalCaseResult> = {}): EvalCaseResult {
  return {
    id,
    category: 'single',
    suite: 'default',
    prompt: `prompt of ${id}`,
    expected: 'note_write',
    correct,
    validArgs: true,
    calls: [],
    latencyMs: 100,
    promptTokens: 10,
    completionTokens: 2,
    ...overrides,
  };
}

function model(path: string, cases: EvalCaseResult[]): EvalModelResult {
  return { model: path, label: path, summary: summary(), perTool: {}, cases };
}

function run(id: string, startedAt: number, status: EvalRunSummary['status'] = 'done'): EvalRunSummary {
  return { id, startedAt, finishedAt: null, status, suites: ['default'], models: ['/m/a.gguf'], total: 3 };
}

const metric = (key: MetricDef['key']): MetricDef => {
  const found = EVAL_METRICS.find((m) => m.key === key);
  if (!found) throw new Error(key);
  return found;
};

describe('choosing what to run', () => {
  it('reads the quantization from common GGUF file names', () => {
    expect(quantFromFileName('tiny-q8_0.gguf')).toBe('Q8_0');
    expect(quantFromFileName('Qwen3-0.6B-Q4_K_M.gguf')).toBe('Q4_K_M');
    expect(quantFromFileName('model.IQ2_XS.gguf')).toBe('IQ2_XS');
    expect(quantFromFileName('llama-f16.gguf')).toBe('F16');
    expect(quantFromFileName('my-model.gguf')).toBeNull();
  });

  it("offers the library's present models, with the catalog's quantization before the file name's", () => {
    const base = { sizeBytes: 1, source: 'added', sha256: null, active: false, addedAt: 1 } as const;
    const choices = evalModelChoices(
      [
        {
          ...base,
          id: 'a',
          path: '/m/a-q4_0.gguf',
          name: 'From the catalog',
          catalogId: 'cat',
          integrity: 'unchecked',
          missing: false,
        },
        {
          ...base,
          id: 'b',
          path: '/m/b-q8_0.gguf',
          name: 'b-q8_0.gguf',
          catalogId: null,
          integrity: 'unchecked',
          missing: false,
        },
        {
          ...base,
          id: 'c',
          path: '/m/gone.gguf',
          name: 'gone',
          catalogId: null,
          integrity: 'unchecked',
          missing: true,
        },
        { ...base, id: 'd', path: '/m/bad.gguf', name: 'bad', catalogId: null, integrity: 'mismatch', missing: false },
      ],
      [
        {
          id: 'cat',
          family: 'f',
          name: 'From the catalog',
          quantization: 'Q4_K_M',
          sizeBytes: null,
          sha256: null,
          licence: '',
          suits: '',
          uri: 'hf:a/b/c.gguf',
          uriConfirmed: true,
          card: '',
          baseId: null,
        },
      ],
    );
    expect(choices).toEqual([
      { path: '/m/a-q4_0.gguf', name: 'From the catalog', quant: 'Q4_K_M' },
      { path: '/m/b-q8_0.gguf', name: 'b-q8_0.gguf', quant: 'Q8_0' },
    ]);
  });

  it('takes an empty limit as every case and refuses anything but a whole number of at least 1', () => {
    expect(parseCaseLimit('')).toEqual({ ok: true, value: undefined });
    expect(parseCaseLimit(' 3 ')).toEqual({ ok: true, value: 3 });
    for (const wrong of ['0', '-1', '2.5', 'abc', '1e3']) {
      expect(parseCaseLimit(wrong).ok, wrong).toBe(false);
    }
    expect(parseCaseLimit('100001').ok).toBe(false);
  });

  it('takes a threshold in percent from 0 to 100 and answers the fraction', () => {
    expect(parseThresholdPercent('90')).toEqual({ ok: true, value: 0.9 });
    expect(parseThresholdPercent('0')).toEqual({ ok: true, value: 0 });
    expect(parseThresholdPercent('100 %')).toEqual({ ok: true, value: 1 });
    for (const wrong of ['', '101', '-5', 'ninety']) expect(parseThresholdPercent(wrong).ok, wrong).toBe(false);
  });

  it('says why Run is not available', () => {
    const ready = { models: 2, suites: 1, running: false, starting: false };
    expect(runBlocker(ready)).toBeNull();
    expect(runBlocker({ ...ready, models: 0, suites: 0 })).toBe('Pick at least one model and one suite.');
    expect(runBlocker({ ...ready, suites: 0 })).toBe('Pick at least one suite.');
    expect(runBlocker({ ...ready, models: 5 })).toBe('Pick at most 4 models.');
    expect(runBlocker({ ...ready, running: true })).toMatch(/A run is going/);
  });
});

describe('progress', () => {
  it('words the time left', () => {
    expect(etaText(null)).toBeNull();
    expect(etaText(20_000)).toBe('less than a minute left');
    expect(etaText(60_000)).toBe('about 1 min left');
    expect(etaText(4.6 * 60_000)).toBe('about 5 min left');
    expect(etaText(80 * 60_000)).toBe('about 1 h 20 min left');
  });

  it('says which model loads, then how far the cases are', () => {
    const base = { runId: 'r1', done: 2, total: 6, model: '/m/a.gguf', caseId: 'c2', etaMs: 120_000 };
    expect(progressLine({ ...base, phase: 'loading' }, 'Model A')).toBe('Loading Model A…');
    expect(progressLine({ ...base, phase: 'running' }, 'Model A')).toBe('2 of 6 cases · about 2 min left');
    expect(progressLine({ ...base, etaMs: null, phase: 'running' }, 'Model A')).toBe('2 of 6 cases');
  });

  it('follows progress events, but not a late one for a run already ended', () => {
    const event = {
      runId: 'r1',
      done: 1,
      total: 3,
      model: '/m/a.gguf',
      caseId: 'c1',
      etaMs: 5000,
      phase: 'running',
    } as const;
    expect(applyEvalProgress({ evalRuns: null }, event)).toEqual({ evalProgress: event, evalActiveRunId: 'r1' });
    expect(applyEvalProgress({ evalRuns: [run('r1', 1, 'cancelled')] }, event)).toEqual({});
  });

  it('ends the run it was following, shows it, and keeps the list newest first', () => {
    const finished = run('r2', 20);
    const changes = applyEvalFinished(
      {
        evalRuns: [run('r2', 20, 'running'), run('r1', 10)],
        evalActiveRunId: 'r2',
        evalProgress: { runId: 'r2', done: 3, total: 3, model: 'm', caseId: 'c', etaMs: 0, phase: 'running' },
        evalSelectedRunId: 'r1',
      },
      finished,
    );
    expect(changes.evalRuns?.map((r) => [r.id, r.status])).toEqual([
      ['r2', 'done'],
      ['r1', 'done'],
    ]);
    expect(changes).toMatchObject({ evalActiveRunId: null, evalProgress: null, evalSelectedRunId: 'r2' });
  });

  it("leaves the user's selection alone when another window's run ends", () => {
    const changes = applyEvalFinished(
      { evalRuns: [run('r1', 10)], evalActiveRunId: null, evalProgress: null, evalSelectedRunId: 'r1' },
      run('r3', 30),
    );
    expect(changes.evalSelectedRunId).toBeUndefined();
    expect(changes.evalRuns?.map((r) => r.id)).toEqual(['r3', 'r1']);
  });
});

describe('results', () => {
  it('formats rates, with n/a where no case applied', () => {
    expect(formatRate(null)).toBe('n/a');
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0.875)).toBe('87.5%');
    expect(formatRate(2 / 3)).toBe('66.7%');
  });

  it('formats each kind of metric', () => {
    const s = summary();
    expect(formatMetric(s, metric('toolAccuracy'))).toBe('50%');
    expect(formatMetric(s, metric('noCallAccuracy'))).toBe('n/a');
    expect(formatMetric(s, metric('p50LatencyMs'))).toBe('850 ms');
    expect(formatMetric(s, metric('p95LatencyMs'))).toBe('4.2 s');
    expect(formatMetric(s, metric('peakRssMb'))).toBe('512 MB');
    expect(formatMetric(summary({ peakRssMb: null }), metric('peakRssMb'))).toBe('n/a');
    expect(formatMetric(s, metric('unnecessaryActions'))).toBe('2');
    expect(formatMetric(s, metric('correct'))).toBe('3 / 4');
  });

  it('marks the best value by the direction the metric is better in', () => {
    expect(bestIndexes([0.5, 0.9, null], 'higher')).toEqual([1]);
    // The attack success rate: lower is better.
    expect(bestIndexes([0.5, 0.1, 0.1], 'lower')).toEqual([1, 2]);
    expect(bestIndexes([0.5, 0.5], 'higher')).toEqual([]);
    expect(bestIndexes([0.5, null], 'higher')).toEqual([]);
    expect(metric('attackSuccessRate').better).toBe('lower');
  });

  it('lists cases failures first (a failure of any model), then by id as people count', () => {
    const rows = caseRows([
      model('a', [caseResult('c10', true), caseResult('c2', true), caseResult('c3', false), caseResult('c1', true)]),
      model('b', [caseResult('c10', false), caseResult('c2', true), caseResult('c3', true)]),
    ]);
    // c1: model b has no result for it, which is not a pass.
    expect(rows.map((r) => [r.id, r.failed])).toEqual([
      ['c1', true],
      ['c3', true],
      ['c10', true],
      ['c2', false],
    ]);
    expect(rows[1]?.results.map((r) => r?.correct)).toEqual([false, true]);
    expect(rows[0]?.results[1]).toBeNull();
  });

  it('keeps cases of different suites apart when their ids are equal', () => {
    const rows = caseRows([model('a', [caseResult('c1', true), caseResult('c1', true, { suite: 'bfcl.jsonl' })])]);
    expect(rows.map((r) => r.suite)).toEqual(['bfcl.jsonl', 'default']);
  });

  it('filters to failures and by a text in the id or the prompt', () => {
    const rows = caseRows([
      model('a', [caseResult('files-1', false), caseResult('mail-1', true, { prompt: 'Send the REPORT' })]),
    ]);
    expect(filterCaseRows(rows, { failuresOnly: true, query: '' }).map((r) => r.id)).toEqual(['files-1']);
    expect(filterCaseRows(rows, { failuresOnly: false, query: 'report' }).map((r) => r.id)).toEqual(['mail-1']);
    expect(filterCaseRows(rows, { failuresOnly: false, query: 'FILES' }).map((r) => r.id)).toEqual(['files-1']);
  });

  it('says what was recorded', () => {
    expect(recordedCaseText({ caseId: 'rec-1', category: 'single', calls: 1 })).toBe(
      'Recorded as case rec-1 (single, 1 call)',
    );
    expect(recordedCaseText({ caseId: 'rec-2', category: 'none', calls: 0 })).toBe(
      'Recorded as case rec-2 (none, 0 calls)',
    );
  });
});
