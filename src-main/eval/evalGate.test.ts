import { describe, expect, it } from 'vitest';
import type { EvalModelResult, EvalRun } from '../../src-shared/contract/index.js';
import { gateViews, latestToolScores } from './evalGate.js';

const result = (model: string, perTool: EvalModelResult['perTool'], error?: string): EvalModelResult => ({
  model,
  label: model,
  summary: {} as EvalModelResult['summary'],
  perTool,
  cases: [],
  ...(error ? { error } : {}),
});
const run = (id: string, results: EvalModelResult[]): EvalRun => ({
  id,
  startedAt: 0,
  finishedAt: 1,
  status: 'done',
  suites: [],
  models: results.map((r) => r.model),
  total: 0,
  results,
});

describe('evaluation gates', () => {
  const runs = [
    run('new', [result('/a.gguf', { read_text: { cases: 4, correct: 2 } }), result('/b.gguf', {}, 'did not load')]),
    run('old', [
      result('/a.gguf', { read_text: { cases: 4, correct: 4 }, note_write: { cases: 2, correct: 2 } }),
      result('/b.gguf', { read_text: { cases: 1, correct: 1 } }),
    ]),
  ];

  it("reads each tool's score from the newest run of the active model that has cases for it", () => {
    const a = latestToolScores(runs, '/a.gguf');
    expect(a.get('read_text')).toMatchObject({ score: 0.5, runId: 'new' });
    expect(a.get('note_write')).toMatchObject({ score: 1, runId: 'old' });
    // A model that failed to load in the newest run keeps its older score.
    expect(latestToolScores(runs, '/b.gguf').get('read_text')).toMatchObject({ score: 1, runId: 'old' });
    expect(latestToolScores(runs, null).size).toBe(0);
  });

  it('is active only at or above the threshold, and says why', () => {
    const views = gateViews(
      [
        { tool: 'note_write', threshold: 1 },
        { tool: 'read_text', threshold: 0.6 },
        { tool: 'trash', threshold: 0.5 },
      ],
      latestToolScores(runs, '/a.gguf'),
      '/a.gguf',
    );
    expect(views.map((v) => [v.tool, v.active, v.score, v.cases])).toEqual([
      ['note_write', true, 1, 2],
      ['read_text', false, 0.5, 4],
      ['trash', false, null, 0],
    ]);
    expect(views[0]!.reason).toBe('Runs without asking: 2 of 2 cases right (100%), at or above 100%.');
    expect(views[1]!.reason).toBe('Asks as usual: 2 of 4 cases right (50%), below 60%.');
    expect(gateViews([{ tool: 'read_text', threshold: 0 }], new Map(), null)[0]).toMatchObject({
      active: false,
      reason: 'No model is loaded.',
    });
  });
});
