import { describe, expect, it } from 'vitest';
import {
  contextMemoryOptions,
  KV_F16_LIMIT_BYTES,
  kvCacheTypeFor,
  modelMemoryOptions,
  parseKvCacheType,
} from './memoryPlan.js';
import { kvCacheBytes } from './modelFit.js';

describe('memoryPlan', () => {
  it('reads the model file instead of mapping it when everything runs on the CPU', () => {
    expect(modelMemoryOptions({ cpuOnly: true })).toEqual({ useMmap: false });
    expect(modelMemoryOptions({ cpuOnly: false })).toEqual({ useMmap: 'auto' });
  });

  it('runs flash attention wherever the model supports it, and quantizes the cache only with it', () => {
    expect(contextMemoryOptions('q8_0', true)).toEqual({
      flashAttention: true,
      experimentalKvCacheKeyType: 'Q8_0',
      experimentalKvCacheValueType: 'Q8_0',
    });
    expect(contextMemoryOptions('f16', true)).toEqual({ flashAttention: true });
    // Without flash attention a quantized V cache would not load: f16, as llama.cpp defaults to.
    expect(contextMemoryOptions('q8_0', false)).toEqual({});
    expect(contextMemoryOptions('f16', false)).toEqual({});
  });

  it("'auto' keeps a small cache in f16 (faster on the CPU) and halves a large one with q8_0", () => {
    expect(kvCacheTypeFor('auto', KV_F16_LIMIT_BYTES)).toBe('f16');
    expect(kvCacheTypeFor('auto', KV_F16_LIMIT_BYTES + 1)).toBe('q8_0');
    expect(kvCacheTypeFor('auto', null)).toBe('q8_0');
    expect(kvCacheTypeFor('f16', 10 * KV_F16_LIMIT_BYTES)).toBe('f16');
    expect(kvCacheTypeFor('q8_0', 1)).toBe('q8_0');
  });

  it('sizes the cache as auto stores it: a hybrid model at 8,192 tokens in f16, Qwen3-0.6B at 4,096 in q8_0', () => {
    // Qwen3.5-0.8B: 6 of its 24 layers attend, 2 KV heads of 256.
    const hybrid = { layers: 6, kvHeads: 2, headDim: 256 };
    expect(kvCacheBytes(8192, hybrid)).toBe(8192 * 6 * 2 * 2 * 256 * 2);
    // Qwen3-0.6B: 28 layers, 8 KV heads of 128; f16 would be 470 MB, so q8_0's 34 bytes per 32 numbers.
    const dense = { layers: 28, kvHeads: 8, headDim: 128 };
    expect(kvCacheBytes(4096, dense)).toBe(Math.round((4096 * 28 * 2 * 8 * 128 * 34) / 32));
    expect(kvCacheBytes(4096, dense, undefined, 'f16')).toBe(4096 * 28 * 2 * 8 * 128 * 2);
  });

  it('parses HOMEBODY_KV_CACHE, refusing anything else clearly', () => {
    expect(parseKvCacheType(undefined)).toBeUndefined();
    expect(parseKvCacheType('Q8_0')).toBe('q8_0');
    expect(parseKvCacheType('f16')).toBe('f16');
    expect(parseKvCacheType('AUTO')).toBe('auto');
    expect(() => parseKvCacheType('q4')).toThrow(/HOMEBODY_KV_CACHE must be auto, f16 or q8_0, not "q4"/);
  });
});
