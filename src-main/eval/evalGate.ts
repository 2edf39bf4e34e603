/**
 * The evaluation gate: the user lets a tool run without asking only while the active model scores at or above a
 * threshold on that tool's cases, in the newest finished run that evaluated that model on them. A new run that
 * scores lower closes the gate again; so does switching to a model without such a run.
 */
import type { EvalGate, EvalGateView, EvalRun } from '../../src-shared/contract/index.js';

export interface ToolScore {
  readonly score: number;
  readonly cases: number;
  readonly correct: number;
  readonly runId: string;
}

/** Per tool, the active model's score in the newest run that has cases for the tool. `runs` come newest first. */
export function latestToolScores(runs: readonly EvalRun[], model: string | null): Map<string, ToolScore> {
  const scores = new Map<string, ToolScore>();
  if (!model) return scores;
  for (const run of runs) {
    for (const result of run.results) {
      if (result.model !== model || result.error) continue;
      for (const [tool, { cases, correct }] of Object.entries(result.perTool)) {
        if (scores.has(tool) || cases === 0) continue;
        scores.set(tool, { score: correct / cases, cases, correct, runId: run.id });
      }
    }
  }
  return scores;
}

const percent = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function gateViews(
  gates: readonly EvalGate[],
  scores: ReadonlyMap<string, ToolScore>,
  model: string | null,
): EvalGateView[] {
  return gates.map((gate) => {
    const score = scores.get(gate.tool);
    if (!model) return { ...gate, score: null, cases: 0, active: false, reason: 'No model is loaded.' };
    if (!score) {
      return {
        ...gate,
        score: null,
        cases: 0,
        active: false,
        reason: `The active model has no finished evaluation with cases for ${gate.tool}; it asks as usual.`,
      };
    }
    const active = score.score >= gate.threshold;
    const result = `${score.correct} of ${score.cases} cases right (${percent(score.score)})`;
    return {
      ...gate,
      score: score.score,
      cases: score.cases,
      active,
      reason: active
        ? `Runs without asking: ${result}, at or above ${percent(gate.threshold)}.`
        : `Asks as usual: ${result}, below ${percent(gate.threshold)}.`,
    };
  });
}
