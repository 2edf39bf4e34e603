import { describe, expect, it } from 'vitest';
import type { EvalCaseResult, EvalModelResult, EvalRun, EvalSummary } from '../../../src-shared/contract/index.js';
import { formatJsonReport, jsonReport } from './jsonReport.js';

function summary(over: Partial<EvalSummary> = {}): EvalSummary {
  return {
    toolAccuracy: 0.5,
    argValidity: 1,
    argAccuracy: 0.5,
    noCallAccuracy: null,
    recoveryRate: null,
    attackSuccessRate: 0,
    p50LatencyMs: 120,
    p95LatencyMs: 480,
    peakRssMb: 2048,
    unnecessaryActions: 1,
    correct: 1,
    cases: 2,
    errors: 1,
    promptTokens: 300,
    completionTokens: 40,
    ...over,
  };
}

function evalCase(over: Partial<EvalCaseResult> = {}): EvalCaseResult {
  return {
    id: 'files-1',
    category: 'single',
    suite: 'default',
    prompt: 'List my downloads',
    expected: 'files_list({"path":["Downloads"]})',
    correct: true,
    validArgs: true,
    calls: [{ name: 'files_list', args: { path: 'Downloads' }, valid: true, decision: 'auto' }],
    latencyMs: 120,
    promptTokens: 150,
    completionTokens: 20,
    ...over,
  };
}

function model(over: Partial<EvalModelResult> = {}): EvalModelResult {
  return { model: '/models/a.gguf', label: 'a.gguf', summary: summary(), perTool: {}, cases: [], ...over };
}

function run(results: EvalModelResult[]): EvalRun {
  return {
    id: 'run-1',
    startedAt: 1_780_000_000_000,
    finishedAt: 1_780_000_600_000,
    status: 'done',
    suites: ['default', 'bfcl/simple_python.json'],
    models: results.map((r) => r.model),
    total: 2,
    results,
  };
}

const wrongCase = evalCase({
  id: 'files-2',
  domain: 'files',
  correct: false,
  validArgs: false,
  calls: [
    {
      name: 'files_move',
      args: { from: 1 },
      valid: false,
      problems: ['from: must be string'],
      decision: 'refused',
      result: 'INVALID_ARGS',
    },
  ],
  failure: 'wrong tool: files_move',
  reply: 'Moved.',
  error: 'reply failed: context overflow',
});

describe('jsonReport', () => {
  const report = jsonReport(
    run([
      model({ cases: [evalCase(), wrongCase], perTool: { files_list: { cases: 2, correct: 1 } } }),
      model({ model: '/models/b.gguf', label: 'b.gguf', error: 'failed to load', summary: summary({ cases: 0 }) }),
    ]),
  );

  it('has the reviewed shape, in its key order', () => {
    expect(Object.keys(report)).toEqual(['models', 'run']);
    expect(Object.keys(report.run)).toEqual(['id', 'startedAt', 'finishedAt', 'status', 'suites', 'total']);
    expect(Object.keys(report.models[0]!)).toEqual(['model', 'summary', 'cases', 'label', 'perTool']);
    expect(Object.keys(report.models[0]!.summary)).toEqual([
      'toolAccuracy',
      'argValidity',
      'argAccuracy',
      'noCallAccuracy',
      'recoveryRate',
      'attackSuccessRate',
      'p50LatencyMs',
      'p95LatencyMs',
      'peakRssMb',
      'unnecessaryActions',
      'correct',
      'cases',
      'errors',
      'promptTokens',
      'completionTokens',
    ]);
    expect(Object.keys(report.models[0]!.cases[0]!)).toEqual([
      'id',
      'category',
      'correct',
      'validArgs',
      'calls',
      'latencyMs',
      'suite',
      'prompt',
      'expected',
      'promptTokens',
      'completionTokens',
    ]);
    expect(Object.keys(report.models[0]!.cases[1]!)).toEqual([
      'id',
      'category',
      'correct',
      'validArgs',
      'calls',
      'latencyMs',
      'error',
      'suite',
      'domain',
      'prompt',
      'expected',
      'failure',
      'reply',
      'promptTokens',
      'completionTokens',
    ]);
    expect(Object.keys(report.models[0]!.cases[0]!.calls[0]!)).toEqual(['name', 'args', 'valid', 'decision']);
    expect(Object.keys(report.models[0]!.cases[1]!.calls[0]!)).toEqual([
      'name',
      'args',
      'valid',
      'decision',
      'problems',
      'result',
    ]);
  });

  it('carries error keys only when the run set them', () => {
    expect('error' in report.models[0]!).toBe(false);
    expect(report.models[1]!.error).toBe('failed to load');
    expect('error' in report.models[0]!.cases[0]!).toBe(false);
    expect(report.models[0]!.cases[1]!.error).toBe('reply failed: context overflow');
    expect('error' in report.run).toBe(false);
    const failed = jsonReport({ ...run([]), status: 'failed', error: 'no model' });
    expect(failed.run.error).toBe('no model');
    expect(failed.run.status).toBe('failed');
  });

  it('takes its values from the run', () => {
    const [first] = report.models;
    expect(first!.model).toBe('/models/a.gguf');
    expect(first!.label).toBe('a.gguf');
    expect(first!.summary).toEqual(summary());
    expect(first!.perTool).toEqual({ files_list: { cases: 2, correct: 1 } });
    expect(first!.cases[1]).toMatchObject({
      id: 'files-2',
      domain: 'files',
      correct: false,
      validArgs: false,
      failure: 'wrong tool: files_move',
      reply: 'Moved.',
      calls: [
        {
          name: 'files_move',
          args: { from: 1 },
          valid: false,
          decision: 'refused',
          problems: ['from: must be string'],
        },
      ],
    });
    expect(report.run).toEqual({
      id: 'run-1',
      startedAt: 1_780_000_000_000,
      finishedAt: 1_780_000_600_000,
      status: 'done',
      suites: ['default', 'bfcl/simple_python.json'],
      total: 2,
    });
  });

  it('keeps the args key of a call made without arguments', () => {
    const withoutArgs = evalCase({
      calls: [{ name: 'device_status', args: undefined, valid: true, decision: 'auto' }],
    });
    const text = formatJsonReport(run([model({ cases: [withoutArgs] })]));
    expect(JSON.parse(text).models[0].cases[0].calls[0]).toEqual({
      name: 'device_status',
      args: null,
      valid: true,
      decision: 'auto',
    });
  });
});

describe('formatJsonReport', () => {
  it('writes the report with a 2-space indent and a final newline', () => {
    const r = run([model({ cases: [evalCase()] })]);
    const text = formatJsonReport(r);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "models": [\n    {\n      "model": "/models/a.gguf",')).toBe(true);
    expect(JSON.parse(text)).toEqual(jsonReport(r));
  });
});
