import { describe, expect, inject, it } from 'vitest';
import { kvShapeOf } from './kvShape.js';

describe('kvShapeOf', () => {
  it('counts every block of a qwen3 model as an attention layer', () => {
    expect(kvShapeOf(inject('tinyModelPath'))?.shape).toEqual({ layers: 2, kvHeads: 2, headDim: 32 });
  });

  it('counts only the full-attention layers of a hybrid qwen35 model (one block in four)', () => {
    expect(kvShapeOf(inject('tinyQwen35ModelPath'))?.shape).toEqual({ layers: 1, kvHeads: 1, headDim: 64 });
  });

  it('answers undefined for a file that is not a GGUF', () => {
    expect(kvShapeOf('/nonexistent/model.gguf')).toBeUndefined();
  });
});
