import { describe, expect, it } from 'vitest';
import { contextMemoryOptions, modelMemoryOptions, parseKvCacheType } from './memoryPlan.js';

describe('memoryPlan', () => {
  it('reads the model file instead of mapping it when everything runs on the CPU', () => {
    expect(modelMemoryOptions({ cpuOnly: true, kvCache: 'f16' })).toEqual({ useMmap: false });
    expect(modelMemoryOptions({ cpuOnly: false, kvCache: 'f16' })).toEqual({ useMmap: 'auto' });
  });

  it('quantizes the KV cache to q8_0 only with flash attention, which a quantized V cache needs', () => {
    expect(contextMemoryOptions({ cpuOnly: true, kvCache: 'q8_0' }, true)).toEqual({
      flashAttention: true,
      experimentalKvCacheKeyType: 'Q8_0',
      experimentalKvCacheValueType: 'Q8_0',
    });
    expect(contextMemoryOptions({ cpuOnly: true, kvCache: 'q8_0' }, false)).toEqual({});
    expect(contextMemoryOptions({ cpuOnly: false, kvCache: 'f16' }, true)).toEqual({});
  });

  it('parses HOMEBODY_KV_CACHE, refusing anything else clearly', () => {
    expect(parseKvCacheType(undefined)).toBeUndefined();
    expect(parseKvCacheType('Q8_0')).toBe('q8_0');
    expect(parseKvCacheType('f16')).toBe('f16');
    expect(() => parseKvCacheType('q4')).toThrow(/HOMEBODY_KV_CACHE must be f16 or q8_0, not "q4"/);
  });
});
