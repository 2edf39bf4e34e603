import { describe, expect, it } from 'vitest';
import type { EvalCaseResult, EvalModelResult, EvalRun, EvalSummary } from '../../../src-shared/contract/index.js';
import { bestModels, htmlReport, pageLimits } from './htmlReport.js';

const RATES = [
  'toolAccuracy',
  'argValidity',
  'argAccuracy',
  'noCallAccuracy',
  'recoveryRate',
  'attackSuccessRate',
] as const;

function summary(over: Partial<EvalSummary> = {}): EvalSummary {
  return {
    toolAccuracy: 0.75,
    argValidity: 0.9,
    argAccuracy: 0.5,
    noCallAccuracy: 1,
    recoveryRate: 0.25,
    attackSuccessRate: 0.1,
    p50LatencyMs: 800,
    p95LatencyMs: 2_400,
    peakRssMb: 3_000,
    unnecessaryActions: 2,
    correct: 3,
    cases: 4,
    errors: 0,
    promptTokens: 1_000,
    completionTokens: 100,
    ...over,
  };
}

function evalCase(id: string, over: Partial<EvalCaseResult> = {}): EvalCaseResult {
  return {
    id,
    category: 'single',
    suite: 'default',
    prompt: `prompt of ${id}`,
    expected: 'files_list({"path":["Downloads"]})',
    correct: true,
    validArgs: true,
    calls: [{ name: 'files_list', args: { path: 'Downloads' }, valid: true, decision: 'auto' }],
    latencyMs: 100,
    promptTokens: 100,
    completionTokens: 10,
    ...over,
  };
}

function model(label: string, over: Partial<EvalModelResult> = {}): EvalModelResult {
  return { model: `/models/${label}`, label, summary: summary(), perTool: {}, cases: [], ...over };
}

function run(results: EvalModelResult[], over: Partial<EvalRun> = {}): EvalRun {
  return {
    id: 'run-7',
    startedAt: Date.UTC(2026, 10, 30, 9, 15),
    finishedAt: Date.UTC(2026, 10, 30, 9, 45),
    status: 'done',
    suites: ['default'],
    models: results.map((r) => r.model),
    total: results.reduce((n, r) => n + r.cases.length, 0),
    results,
    ...over,
  };
}

/** The cells of the summary table's row for a metric, in model order. */
function summaryCells(html: string, metricLabel: string): string[] {
  const row = html.split('<tr>').find((r) => r.startsWith(`<th scope="row"`) && r.includes(`>${metricLabel}`));
  if (row === undefined) throw new Error(`no row ${metricLabel}`);
  return [...row.matchAll(/<td class="([^"]*)">(.*?)<\/td>/g)].map((m) => `${m[1]}|${m[2]}`);
}

function figure(html: string, metric: string): string {
  const match = new RegExp(`<figure data-metric="${metric}">(.*?)</figure>`, 's').exec(html);
  if (match === null) throw new Error(`no chart for ${metric}`);
  return match[1]!;
}

describe('htmlReport', () => {
  it('is one page without script or external resources, behind a restrictive CSP', () => {
    const html = htmlReport(run([model('qwen3-1.7b.gguf', { cases: [evalCase('a')] })]));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).toContain('2026-11-30 09:15 UTC');
    expect(html).toContain('30 min 0 s');
    expect(html).toContain('1 per model, 1 model');
  });

  it('escapes every text from the run, however hostile', () => {
    const hostile = `</style><script>alert("x")</script><img src=x onerror='alert(1)'>&amp;`;
    const hostileCase = evalCase(`id-${hostile}`, {
      prompt: hostile,
      expected: hostile,
      category: hostile,
      suite: hostile,
      domain: hostile,
      correct: false,
      failure: hostile,
      reply: hostile,
      error: hostile,
      calls: [
        {
          name: hostile,
          args: { q: hostile },
          valid: false,
          problems: [hostile],
          decision: 'refused',
          result: hostile,
        },
      ],
    });
    const html = htmlReport(
      run(
        [
          model(hostile, {
            model: hostile,
            error: hostile,
            cases: [hostileCase],
            perTool: { [hostile]: { cases: 1, correct: 0 } },
          }),
        ],
        {
          id: hostile,
          suites: [hostile],
          error: hostile,
        },
      ),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain(`onerror='`);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('onerror=&#39;alert(1)&#39;&gt;&amp;amp;');
    // The args are shown as JSON, escaped as well.
    expect(html).toContain('{&quot;q&quot;:&quot;&lt;/style&gt;');
    // The markup stayed balanced: the data opened no element.
    expect(html.match(/<details/g)).toHaveLength(1);
    expect(html.match(/<\/details>/g)).toHaveLength(1);
  });

  it('draws one chart per rate, with each model’s bar and value', () => {
    const a = model('alpha.gguf', {
      summary: summary({ toolAccuracy: 0.75, argValidity: 0.9, argAccuracy: 0.5, attackSuccessRate: 0.1 }),
    });
    const b = model('beta.gguf', {
      summary: summary({ toolAccuracy: 0.25, argValidity: 0.6, argAccuracy: 1, attackSuccessRate: 0.4 }),
    });
    const html = htmlReport(run([a, b]));
    expect(html.match(/<svg/g)).toHaveLength(RATES.length);
    for (const rate of RATES) {
      const chart = figure(html, rate);
      expect(chart).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="chart-[^"]+-title chart-[^"]+-desc"/);
      expect(chart).toContain(`<title id="chart-${rate}-title">`);
      expect(chart.match(/<rect /g)).toHaveLength(2);
      expect(chart).toContain('alpha.gguf');
      expect(chart).toContain('beta.gguf');
    }
    expect(figure(html, 'toolAccuracy')).toContain('<title>alpha.gguf: 75.0%</title>');
    expect(figure(html, 'toolAccuracy')).toContain('<title>beta.gguf: 25.0%</title>');
    expect(figure(html, 'toolAccuracy')).toMatch(/width="112\.5"/); // 75% of the 150-pixel bar area
    expect(figure(html, 'argAccuracy')).toContain('>100.0%</text>');
    expect(figure(html, 'attackSuccessRate')).toContain('lower is better');
  });

  it('shows a metric the run could not measure as n/a, without a bar', () => {
    const html = htmlReport(
      run([
        model('alpha.gguf', { summary: summary({ recoveryRate: null, p95LatencyMs: null, peakRssMb: null }) }),
        model('beta.gguf', { summary: summary({ recoveryRate: 0.5 }) }),
      ]),
    );
    expect(summaryCells(html, 'Recovery rate')[0]).toBe('num|n/a');
    expect(summaryCells(html, 'Latency p95')[0]).toBe('num|n/a');
    expect(summaryCells(html, 'Peak memory (RSS)')[0]).toBe('num|n/a');
    const chart = figure(html, 'recoveryRate');
    expect(chart).toContain('<title>alpha.gguf: n/a</title>');
    expect(chart.match(/<rect /g)).toHaveLength(1);
    // One known value is nothing to compare: no mark.
    expect(summaryCells(html, 'Recovery rate')[1]).toBe('num|50.0%');
  });

  it('marks the best value, lowest for attack success, latency and memory', () => {
    const html = htmlReport(
      run([
        model('alpha.gguf', {
          summary: summary({ toolAccuracy: 0.9, attackSuccessRate: 0.4, p50LatencyMs: 900, peakRssMb: 1_500 }),
        }),
        model('beta.gguf', {
          summary: summary({ toolAccuracy: 0.6, attackSuccessRate: 0.1, p50LatencyMs: 300, peakRssMb: 4_200 }),
        }),
      ]),
    );
    const best = (label: string) => summaryCells(html, label).map((cell) => cell.startsWith('num best|'));
    expect(best('Tool accuracy')).toEqual([true, false]);
    expect(best('Attack success rate')).toEqual([false, true]);
    expect(best('Latency p50')).toEqual([false, true]);
    expect(best('Peak memory (RSS)')).toEqual([true, false]);
    // Equal values mark nobody.
    expect(best('Argument validity')).toEqual([false, false]);
    expect(summaryCells(html, 'Attack success rate')[1]).toContain('10.0%');
    expect(summaryCells(html, 'Latency p50')[1]).toContain('300 ms');
    expect(summaryCells(html, 'Peak memory (RSS)')[0]).toContain('1,500 MB');
  });

  it('lists the cases any model got wrong first, then the rest, each by id', () => {
    const ids = ['case-10', 'case-2', 'case-1', 'case-3'];
    const wrongForA = new Set(['case-10', 'case-3']);
    const wrongForB = new Set(['case-2']);
    const html = htmlReport(
      run([
        model('alpha.gguf', { cases: ids.map((id) => evalCase(id, { correct: !wrongForA.has(id) })) }),
        model('beta.gguf', { cases: ids.map((id) => evalCase(id, { correct: !wrongForB.has(id) })) }),
      ]),
    );
    const order = [...html.matchAll(/<details class="case( failed)?" data-case="([^"]+)">/g)].map(
      (m) => `${m[2]}${m[1] ?? ''}`,
    );
    expect(order).toEqual(['case-2 failed', 'case-3 failed', 'case-10 failed', 'case-1']);
    expect(html.indexOf('Wrong for at least one model (3)')).toBeLessThan(html.indexOf('Correct for every model (1)'));
  });

  it('shows the models side by side in each case', () => {
    const html = htmlReport(
      run([
        model('alpha.gguf', {
          cases: [
            evalCase('mail-1', { calls: [{ name: 'mail_send', args: { to: 'ann' }, valid: true, decision: 'queue' }] }),
          ],
        }),
        model('beta.gguf', {
          cases: [
            evalCase('mail-1', {
              correct: false,
              calls: [],
              reply: 'Which Ann do you mean?',
              failure: 'expected a call, got none',
            }),
          ],
        }),
      ]),
    );
    // The run's total counts both models' cases.
    expect(html).toContain('1 per model, 2 models');
    const details = /<details[^>]*>(.*?)<\/details>/s.exec(html)![1]!;
    expect(details).toContain('✓ alpha.gguf');
    expect(details).toContain('✗ beta.gguf');
    const side = /<table class="side">(.*?)<\/table>/s.exec(details)![1]!;
    expect(side.match(/<th>/g)).toHaveLength(2);
    const cells = [...side.matchAll(/<td>(.*?)<\/td>/gs)].map((m) => m[1]!);
    expect(cells).toHaveLength(2);
    expect(cells[0]).toContain('<code>mail_send</code>');
    expect(cells[0]).toContain('{&quot;to&quot;:&quot;ann&quot;}');
    expect(cells[0]).toContain('queue (queued for approval, not run)');
    expect(cells[1]).toContain('calls: none');
    expect(cells[1]).toContain('Which Ann do you mean?');
    expect(cells[1]).toContain('why: expected a call, got none');
  });

  it('shows each tool’s score per model', () => {
    const html = htmlReport(
      run([
        model('alpha.gguf', { perTool: { files_list: { cases: 4, correct: 3 } } }),
        model('beta.gguf', { perTool: { files_list: { cases: 4, correct: 1 }, mail_send: { cases: 2, correct: 2 } } }),
      ]),
    );
    const table = /<table class="per-tool">(.*?)<\/table>/s.exec(html)![1]!;
    expect(table).toContain(
      '<code>files_list</code></th><td class="num">3 / 4 (75.0%)</td><td class="num">1 / 4 (25.0%)</td>',
    );
    expect(table).toContain('<code>mail_send</code></th><td class="num">n/a</td><td class="num">2 / 2 (100.0%)</td>');
  });

  it('clips long texts, and says how much it left out', () => {
    const html = htmlReport(
      run([
        model('alpha.gguf', { cases: [evalCase('long', { reply: 'r'.repeat(10_000), prompt: 'p'.repeat(2_500) })] }),
      ]),
    );
    expect(html).toContain(`${'r'.repeat(2_000)}… (8,000 more characters)`);
    expect(html).not.toContain('r'.repeat(2_001));
    expect(html).toContain(`${'p'.repeat(2_000)}… (500 more characters)`);
  });

  it('stays a few MB for 1,240 cases on two models, even when every text is long', () => {
    const long = (n: number) => 'x'.repeat(n);
    const cases = () =>
      Array.from({ length: 1_240 }, (_, i) =>
        evalCase(`simple_${i}`, {
          correct: i % 3 !== 0,
          suite: 'bfcl/simple_python.json',
          prompt: long(3_000),
          expected: long(3_000),
          reply: long(10_000),
          calls: [{ name: 'calc', args: { expr: long(5_000) }, valid: true, decision: 'auto', result: long(3_000) }],
        }),
      );
    const html = htmlReport(run([model('alpha.gguf', { cases: cases() }), model('beta.gguf', { cases: cases() })]));
    expect(html.length).toBeLessThan(5_000_000);
    expect(html.match(/<details/g)).toHaveLength(1_240);
    const limits = pageLimits(1_240, 2);
    expect(limits.text).toBeLessThan(2_000);
    expect(html).toContain(`${'x'.repeat(limits.text)}… (${(10_000 - limits.text).toLocaleString('en-US')} more`);
  });
});

describe('pageLimits', () => {
  it('keeps the full limits for a small run and shrinks them for a large one, never below a tenth', () => {
    expect(pageLimits(50, 2)).toEqual({ text: 2_000, args: 1_000, result: 500 });
    expect(pageLimits(1_240, 2).text).toBeLessThan(pageLimits(600, 2).text);
    expect(pageLimits(1_000_000, 4)).toEqual({ text: 200, args: 100, result: 50 });
  });
});

describe('bestModels', () => {
  it('keeps ties, ignores unknown values and marks nothing without a comparison', () => {
    expect([...bestModels([0.5, 0.9, 0.9], 'higher')]).toEqual([1, 2]);
    expect([...bestModels([null, 200, 100], 'lower')]).toEqual([2]);
    expect([...bestModels([null, 0.3], 'lower')]).toEqual([]);
    expect([...bestModels([0.3, 0.3], 'higher')]).toEqual([]);
    expect([...bestModels([1, 2], null)]).toEqual([]);
  });
});
