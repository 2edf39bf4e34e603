import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../src-shared/contract/index.js';
import {
  REFERENCE,
  bitsPerWeight,
  estimateSizeBytes,
  estimateSpeed,
  fitModel,
  fitVerdict,
  kvCacheBytes,
  parametersFromName,
  speedFromBench,
} from './modelFit.js';
import { physicalCoresFrom } from './hardware.js';

const GB = 1e9;
const bench: BenchResult = {
  modelName: 'bench',
  modelPath: '/m/bench.gguf',
  synthetic: true,
  sizeBytes: 341e6,
  catalogId: null,
  threads: 2,
  gpu: 'cpu',
  loadMs: 3000,
  promptTokens: 63,
  promptTokensPerSecond: 300,
  generatedTokens: 32,
  decodeTokensPerSecond: 30,
  measuredAt: 0,
  loadAverage: null,
  cores: null,
};

describe('model size and KV cache', () => {
  it('reads parameters from names and bits per weight from quantizations', () => {
    expect(parametersFromName('BotPsy 0.8B Q4')).toBe(0.8e9);
    expect(parametersFromName('Qwen3-1.7B-Instruct')).toBe(1.7e9);
    expect(parametersFromName('SmolLM 135M')).toBe(135e6);
    expect(parametersFromName('my model')).toBeUndefined();
    expect(bitsPerWeight('Q4_K_M')).toBe(4.85);
    expect(bitsPerWeight('bf16')).toBe(16);
    expect(bitsPerWeight('Q9_Z')).toBeUndefined();
  });

  it('estimates a file size from parameters × bits per weight', () => {
    // Qwen3-0.6B at Q4_0 (4.5 bits) is about the 341 MB file measured.
    expect(estimateSizeBytes(0.6e9, 4.5)).toBe(337.5e6);
    expect(estimateSizeBytes(0.8e9, 16)).toBe(1.6e9);
  });

  it('computes the KV cache from the shape, or scales Qwen3-0.6B by parameters', () => {
    // 28 layers × K,V × 8 heads × 128 dims × 2 bytes = 112 KiB per token.
    expect(kvCacheBytes(8192, { layers: 28, kvHeads: 8, headDim: 128 }, undefined, 'f16')).toBe(8192 * 114_688);
    expect(kvCacheBytes(4096, undefined, 0.6e9, 'f16')).toBe(4096 * 114_688);
    expect(kvCacheBytes(4096, undefined, 1.2e9, 'f16')).toBe(2 * 4096 * 114_688);
    // A cache that large is q8_0 by default (auto): 34 bytes per 32 numbers instead of 64.
    expect(kvCacheBytes(8192, { layers: 28, kvHeads: 8, headDim: 128 })).toBe((8192 * 114_688 * 17) / 32);
    expect(kvCacheBytes(4096)).toBeNull();
  });
});

describe('fit', () => {
  it('says yes with a 20% margin, tight without it, no beyond', () => {
    expect(fitVerdict(8 * GB, 10 * GB)).toBe('yes');
    expect(fitVerdict(9 * GB, 10 * GB)).toBe('tight');
    expect(fitVerdict(11 * GB, 10 * GB)).toBe('no');
    expect(fitVerdict(null, 10 * GB)).toBe('unknown');
  });

  it('estimates an unknown size, adds the KV cache and overhead, and compares with free RAM', () => {
    const fitInput = {
      id: 'x',
      name: 'BotPsy 0.8B Q8',
      quantization: 'Q8_0',
      sizeBytes: null,
      sizeSource: 'catalog',
      path: null,
      contextSize: 4096,
    } as const;
    const fit = fitModel(fitInput, { freeRamBytes: 3 * GB, freeVramBytes: null, threads: 2 }, null);
    expect(fit.sizeSource).toBe('estimate');
    expect(fit.sizeBytes).toBe(850e6);
    expect(fit.kvCacheBytes).toBeCloseTo((((4096 * 114_688 * 0.8) / 0.6) * 17) / 32, -3);
    expect(fit.requiredBytes).toBe(fit.sizeBytes! + fit.kvCacheBytes! + 300e6);
    expect(fit.memory).toBe('ram');
    expect(fit.fits).toBe('yes');
    expect(fit.speed.kind).toBe('estimate');
    // 0.85 + 0.33 (q8_0 KV) + 0.3 GB: within 1.7 GB only without the 20% margin.
    expect(fitModel({ ...fitInput }, { freeRamBytes: 1.7 * GB, freeVramBytes: null, threads: 2 }, null).fits).toBe(
      'tight',
    );

    const small = fitModel(
      {
        id: 'x',
        name: 'Big 7B',
        quantization: 'F16',
        sizeBytes: null,
        sizeSource: 'catalog',
        path: null,
        contextSize: 4096,
      },
      { freeRamBytes: 8 * GB, freeVramBytes: null, threads: 2 },
      null,
    );
    expect(small.fits).toBe('no');
  });

  it('goes to VRAM when it fits there', () => {
    const fit = fitModel(
      {
        id: 'x',
        name: 'Q 0.6B',
        quantization: 'Q4_0',
        sizeBytes: 341e6,
        sizeSource: 'file',
        path: '/m',
        contextSize: 2048,
      },
      { freeRamBytes: 1 * GB, freeVramBytes: 8 * GB, threads: 8 },
      null,
    );
    expect(fit).toMatchObject({ memory: 'vram', availableBytes: 8 * GB, fits: 'yes' });
  });

  it('is unknown without a size or a way to estimate one', () => {
    const fit = fitModel(
      {
        id: 'x',
        name: 'mystery',
        quantization: 'Q4_0',
        sizeBytes: null,
        sizeSource: 'catalog',
        path: null,
        contextSize: 2048,
      },
      { freeRamBytes: 8 * GB, freeVramBytes: null, threads: 2 },
      null,
    );
    expect(fit).toMatchObject({ sizeSource: 'unknown', sizeBytes: null, fits: 'unknown' });
    expect(fit.speed.decodeTokensPerSecond).toBeNull();
  });
});

describe('speed', () => {
  it('reproduces the reference figures for the reference file, and halves for twice the size', () => {
    const ref = estimateSpeed(REFERENCE.sizeBytes, 2);
    expect(ref).toMatchObject({ kind: 'estimate', decodeTokensPerSecond: 36, promptTokensPerSecond: 320 });
    const double = estimateSpeed(REFERENCE.sizeBytes * 2, 2);
    expect(double.decodeTokensPerSecond).toBe(18);
    expect(double.note).toMatch(/estimate/);
  });

  it('never goes above the memory-bandwidth bound', () => {
    const many = estimateSpeed(REFERENCE.sizeBytes, 16);
    expect(many.decodeTokensPerSecond).toBeLessThanOrEqual(REFERENCE.bandwidthBytesPerSecond / REFERENCE.sizeBytes);
  });

  it('uses the benchmark: measured for its own file, scaled by size for others', () => {
    expect(speedFromBench(bench, 341e6, '/m/bench.gguf')).toMatchObject({
      kind: 'measured',
      decodeTokensPerSecond: 30,
      loadMs: 3000,
    });
    expect(speedFromBench(bench, 682e6, null)).toMatchObject({
      kind: 'scaled',
      decodeTokensPerSecond: 15,
      promptTokensPerSecond: 150,
      loadMs: null,
    });
  });
});

describe('physical cores', () => {
  it('counts distinct physical id + core id pairs', () => {
    const cpuinfo = [0, 1, 2, 3].map((i) => `processor\t: ${i}\nphysical id\t: 0\ncore id\t\t: ${i % 2}\n`).join('\n');
    expect(physicalCoresFrom(cpuinfo)).toBe(2);
    expect(physicalCoresFrom('processor : 0\n')).toBeNull();
  });
});
