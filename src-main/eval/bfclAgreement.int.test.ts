import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SAMPLE_SIZE,
  bfclVerdicts,
  compareVerdicts,
  describeDisagreement,
  homebodyVerdicts,
} from '../testing/bfclAgreement.js';
import { buildMutationCorpus, sampleMutations } from '../testing/bfclMutations.js';

// Homebody's checker against BFCL's own ast_checker.py (python3, src-main/testing/bfcl/) on a deterministic sample
// of the mutated-answer corpus; the whole corpus (about 52,000): `npx tsx src-main/testing/bfclAgreement.ts --all`.
const corpus = buildMutationCorpus();
const sample = sampleMutations(corpus.mutations, DEFAULT_SAMPLE_SIZE);

describe("agreement with BFCL's own checker", () => {
  it('samples a few thousand mutations, every kind among them, with both verdicts', () => {
    expect(corpus.mutations.length).toBeGreaterThan(50_000);
    expect(sample.length).toBeGreaterThan(2_000);
    expect(sample.length).toBeLessThanOrEqual(DEFAULT_SAMPLE_SIZE);
    expect(new Set(sample.map((m) => m.kind))).toEqual(new Set(corpus.mutations.map((m) => m.kind)));
    // The same sample on every run.
    expect(sampleMutations(buildMutationCorpus().mutations, DEFAULT_SAMPLE_SIZE).map((m) => m.id)).toEqual(
      sample.map((m) => m.id),
    );
  });

  it('gives the verdict BFCL gives on every case of the sample, ints written as floats included', () => {
    const bfcl = bfclVerdicts(corpus, sample);
    const report = compareVerdicts(sample, homebodyVerdicts(sample), bfcl);
    expect(report.disagreements.map(describeDisagreement)).toEqual([]);
    expect(report.crashes).toBe(0);
    // Both verdicts are in the sample, and BFCL refuses the int/float mutations it must.
    expect(report.validByBfcl).toBeGreaterThan(100);
    expect(report.total - report.validByBfcl).toBeGreaterThan(1_000);
    const intAsFloat = sample.flatMap((m, i) => (m.kind === 'int-as-float' ? [bfcl[i]!] : []));
    expect(intAsFloat.length).toBeGreaterThan(20);
    expect(intAsFloat.filter((v) => !v.valid).length).toBeGreaterThan(20);
    const floatAsInt = sample.flatMap((m, i) => (m.kind === 'float-as-int' ? [bfcl[i]!] : []));
    expect(floatAsInt.length).toBeGreaterThan(0);
    expect(floatAsInt.some((v) => v.valid)).toBe(true);
  });
});
