import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from '../testing/cliProcess.js';
import { bfclDir } from '../testing/bfclFixtures.js';

const tiny = inject('tinyModelPath');
const tinyQwen35 = inject('tinyQwen35ModelPath');
const SUMMARY_KEYS = [
  'toolAccuracy',
  'argValidity',
  'argAccuracy',
  'noCallAccuracy',
  'recoveryRate',
  'attackSuccessRate',
  'p50LatencyMs',
  'p95LatencyMs',
  'peakRssMb',
];

interface Report {
  models: Array<{
    model: string;
    summary: Record<string, unknown>;
    cases: Array<{
      id: string;
      category: string;
      correct: boolean;
      validArgs: boolean;
      calls: unknown[];
      latencyMs: number;
    }>;
  }>;
}

describe('homebody eval', { timeout: 300_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hb-eval-cli-'));

  it('compares two models on the default suite, prints the JSON scripts read, and writes the HTML and JSON report', async () => {
    const out = join(dataDir, 'report.html');
    const result = await runCli(
      dataDir,
      'eval',
      '--model',
      tiny,
      '--model',
      tinyQwen35,
      '--suite',
      'default',
      '--limit',
      '2',
      '--max-tokens',
      '16',
      '--json',
      '--out',
      out,
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.models.map((m) => m.model)).toEqual([tiny, tinyQwen35]);
    for (const model of report.models) {
      expect(Object.keys(model.summary)).toEqual(expect.arrayContaining(SUMMARY_KEYS));
      expect(model.cases.map((c) => [c.id, c.category])).toEqual([
        ['files-read-q3', 'single'],
        ['files-list-invoices', 'single'],
      ]);
      for (const c of model.cases) {
        expect(c).toMatchObject({ correct: false, validArgs: true, calls: [] });
        expect(c.latencyMs).toBeGreaterThanOrEqual(0);
        expect(c).not.toHaveProperty('error');
      }
      expect(model.summary).toMatchObject({ toolAccuracy: 0, argAccuracy: 0, argValidity: null, recoveryRate: null });
    }
    expect(result.stderr).toContain('4/4 cases');
    expect(readFileSync(out, 'utf8')).toContain('<svg');
    expect(JSON.parse(readFileSync(join(dataDir, 'report.json'), 'utf8'))).toEqual(report);
  });

  it('runs BFCL files from a folder, their answers beside them, and scores each case', async () => {
    const result = await runCli(
      dataDir,
      'eval',
      '--model',
      tiny,
      '--suite',
      bfclDir,
      '--format',
      'bfcl',
      '--limit',
      '1',
      '--max-tokens',
      '8',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    const cases = (JSON.parse(result.stdout) as Report).models[0]!.cases;
    expect(cases.map((c) => c.category).sort()).toEqual([
      'irrelevance',
      'multiple',
      'parallel',
      'parallel_multiple',
      'simple_python',
    ]);
    expect(cases.every((c) => c.validArgs && c.correct === (c.category === 'irrelevance'))).toBe(true);
  });

  it('prints a readable summary without --json', async () => {
    const result = await runCli(
      dataDir,
      'eval',
      '--model',
      tiny,
      '--suite',
      'default',
      '--limit',
      '1',
      '--max-tokens',
      '8',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('correct: 0 of 1 cases');
    expect(result.stdout).toMatch(/tool accuracy: 0\.0%/);
    expect(result.stdout).toMatch(/recovery rate: n\/a/);
  });

  it('says clearly what is wrong with the command, a model or a suite', async () => {
    const noModel = await runCli(dataDir, 'eval', '--suite', 'default');
    expect(noModel).toMatchObject({ code: 2 });
    expect(noModel.stderr).toContain('--model FILE is required');
    const zero = await runCli(dataDir, 'eval', '--model', tiny, '--suite', 'default', '--limit', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--limit must be a whole number from 1');
    const missing = await runCli(dataDir, 'eval', '--model', join(dataDir, 'nope.gguf'), '--suite', 'default');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no model file at');
    const noSuite = await runCli(dataDir, 'eval', '--model', tiny, '--suite', join(dataDir, 'nowhere'));
    expect(noSuite.code).toBe(1);
    expect(noSuite.stderr).toContain('No suite at');
    const broken = join(dataDir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ format: 'homebody-eval', version: 1, name: 'x', cases: [{ id: 'a b' }] }));
    const invalid = await runCli(dataDir, 'eval', '--model', tiny, '--suite', broken);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/is not a Homebody suite: cases\.0\.id/);
    expect(existsSync(join(dataDir, 'report.json'))).toBe(true);
  });
});
