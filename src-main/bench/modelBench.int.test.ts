import { describe, expect, inject, it } from 'vitest';
import { runModelBench } from './modelBench.js';
import { formatTable, toJson } from './report.js';

// The model section on the tiny generated model, one run of each figure: its shape, never its times.
const model = inject('tinyModelPath');

const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

describe('the model benchmark', () => {
  it('reports every figure, for each model, as finite numbers under the documented keys', async () => {
    const lines: string[] = [];
    const report = await runModelBench({
      models: [{ name: 'q8_0', path: model }],
      runs: 1,
      coldRuns: 1,
      toolCounts: [1, 3],
      contextSize: 4096,
      decodeTokens: 8,
      log: (line) => lines.push(line),
    });
    const json = toJson([report]);
    for (const key of ['loadMs', 'ttftColdMs', 'ttftWarmMs', 'peakRssMb']) {
      expect(finite(json[key]), key).toBe(true);
      expect(json[key] as number, key).toBeGreaterThan(0);
    }
    const byTools = json.ttftByTools as Record<string, Record<string, number>>;
    expect(Object.keys(byTools)).toEqual(['1', '3']);
    for (const timing of Object.values(byTools)) {
      for (const key of ['cold', 'warm', 'warmInMemory', 'promptTokens']) expect(finite(timing[key]), key).toBe(true);
    }
    // More tools, a longer prefix.
    expect(byTools['3']!.promptTokens).toBeGreaterThan(byTools['1']!.promptTokens!);
    expect(json.ttftColdMs).toBe(byTools['3']!.cold);
    expect(json.ttftWarmMs).toBe(byTools['3']!.warm);
    for (const key of ['promptTokensPerSecond', 'decodeTokensPerSecond']) {
      const speed = json[key] as Record<string, number>;
      expect(Object.keys(speed).sort(), key).toEqual(['app', 'ratio', 'raw']);
      for (const value of Object.values(speed)) expect(finite(value) && value > 0, key).toBe(true);
    }
    const byQuant = json.byQuant as Record<string, Record<string, unknown>>;
    expect(Object.keys(byQuant)).toEqual(['q8_0']);
    expect(finite(byQuant.q8_0!.loadMs)).toBe(true);
    expect(lines.length).toBeGreaterThan(4);
    expect(formatTable([report])).toContain('ttftWarmMs');
  }, 600_000);

  it('runs on a hybrid qwen35 model too, recording the architecture; an unknown one is a usage error', async () => {
    await expect(runModelBench({ arch: 'llama' })).rejects.toThrow(/--arch must be qwen35 or qwen3, not llama/);
    const report = await runModelBench({
      models: [{ name: 'q8_0', path: inject('tinyQwen35ModelPath') }],
      arch: 'qwen35',
      runs: 1,
      coldRuns: 1,
      // The other test covers the figures' shape: here one tool count, to keep the test short.
      toolCounts: [1],
      contextSize: 4096,
      decodeTokens: 4,
    });
    const json = toJson([report]);
    expect(json.modelBench).toMatchObject({ arch: 'qwen35', preset: 'qwen3.5-0.8b' });
    expect(report.title).toContain('qwen3.5-0.8b');
    for (const key of ['loadMs', 'ttftColdMs', 'ttftWarmMs', 'ttftWarmInMemoryMs', 'peakRssMb']) {
      expect(finite(json[key]) && (json[key] as number) > 0, key).toBe(true);
    }
  }, 600_000);
});
