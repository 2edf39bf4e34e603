import { describe, expect, it } from 'vitest';
import { GgmlType } from '../gguf/ggufFormat.js';
import { tensorByteSize } from '../gguf/ggufFormat.js';
import { QWEN35_0_8B, TINY_QWEN35, isLinearAttentionLayer, qwen35Metadata, qwen35Tensors } from './qwen35Layout.js';

const byName = (shape = QWEN35_0_8B, type: number = GgmlType.Q4_0) =>
  new Map(qwen35Tensors(shape, type as typeof GgmlType.Q4_0, 1).map((t) => [t.name, t]));

describe("the qwen35 layout (Qwen3.5-0.8B's dimensions)", () => {
  it('has 3 linear-attention layers, then 1 full-attention layer, six times over', () => {
    const kinds = Array.from({ length: QWEN35_0_8B.layers }, (_, i) =>
      isLinearAttentionLayer(QWEN35_0_8B, i) ? 'L' : 'F',
    );
    expect(kinds.join('')).toBe('LLLF'.repeat(6));
    const tensors = byName();
    expect(tensors.has('blk.0.ssm_conv1d.weight')).toBe(true);
    expect(tensors.has('blk.0.attn_q.weight')).toBe(false);
    expect(tensors.has('blk.3.attn_q.weight')).toBe(true);
    expect(tensors.has('blk.3.ssm_conv1d.weight')).toBe(false);
    expect(tensors.has('blk.23.attn_q.weight')).toBe(true);
    expect(tensors.has('blk.24.attn_norm.weight')).toBe(false);
    // Tied embeddings, as the small Qwen3.5 models.
    expect(tensors.has('output.weight')).toBe(false);
  });

  it("gives each tensor the shape llama.cpp's qwen35 loader asks for", () => {
    const dims = (name: string) => byName().get(name)?.dims;
    expect(dims('token_embd.weight')).toEqual([1024, 248_320]);
    // Linear attention: q and k of 16 heads × 128, v of 16 × 128; the conv runs over all three.
    expect(dims('blk.0.attn_qkv.weight')).toEqual([1024, 6144]);
    expect(dims('blk.0.attn_gate.weight')).toEqual([1024, 2048]);
    expect(dims('blk.0.ssm_conv1d.weight')).toEqual([4, 6144]);
    expect(dims('blk.0.ssm_alpha.weight')).toEqual([1024, 16]);
    expect(dims('blk.0.ssm_beta.weight')).toEqual([1024, 16]);
    expect(dims('blk.0.ssm_a')).toEqual([16]);
    expect(dims('blk.0.ssm_dt.bias')).toEqual([16]);
    expect(dims('blk.0.ssm_norm.weight')).toEqual([128]);
    expect(dims('blk.0.ssm_out.weight')).toEqual([2048, 1024]);
    // Full attention: 8 query heads of 256 with their output gate, 2 KV heads.
    expect(dims('blk.3.attn_q.weight')).toEqual([1024, 4096]);
    expect(dims('blk.3.attn_k.weight')).toEqual([1024, 512]);
    expect(dims('blk.3.attn_v.weight')).toEqual([1024, 512]);
    expect(dims('blk.3.attn_output.weight')).toEqual([2048, 1024]);
    expect(dims('blk.3.attn_q_norm.weight')).toEqual([256]);
    expect(dims('blk.5.ffn_down.weight')).toEqual([3584, 1024]);
    expect(dims('blk.5.post_attention_norm.weight')).toEqual([1024]);
  });

  it('keeps vectors and the conv kernel f32, as the converter does, and quantizes every other matrix', () => {
    for (const t of byName().values()) {
      const keepF32 = t.dims.length === 1 || t.name.includes('ssm_conv1d');
      expect(t.type, t.name).toBe(keepF32 ? GgmlType.F32 : GgmlType.Q4_0);
    }
  });

  it('has about 0.75 billion parameters (the text model, without the multi-token-prediction block)', () => {
    let params = 0;
    for (const t of byName().values()) params += t.dims.reduce((a, b) => a * b, 1);
    expect(params).toBeGreaterThan(0.74e9);
    expect(params).toBeLessThan(0.76e9);
  });

  it('writes exactly the bytes each tensor declares, with the decay negative', () => {
    const tensors = byName(TINY_QWEN35, GgmlType.Q8_0);
    for (const t of tensors.values()) {
      const chunks: Uint8Array[] = [];
      t.write((chunk) => chunks.push(chunk.slice()));
      const bytes = chunks.reduce((n, c) => n + c.length, 0);
      expect(BigInt(bytes), t.name).toBe(tensorByteSize(t.type, t.dims.map(BigInt)));
      if (t.name.endsWith('ssm_a')) {
        const data = Buffer.concat(chunks);
        for (let i = 0; i < data.length; i += 4) expect(data.readFloatLE(i)).toBeLessThan(0);
      }
    }
  });

  it('describes the hybrid layout in metadata keys llama.cpp reads', () => {
    const meta = new Map(qwen35Metadata(QWEN35_0_8B).map(([key, value]) => [key, value.value]));
    expect(meta.get('qwen35.block_count')).toBe(24);
    expect(meta.get('qwen35.full_attention_interval')).toBe(4);
    expect(meta.get('qwen35.attention.key_length')).toBe(256);
    expect(meta.get('qwen35.rope.dimension_count')).toBe(64);
    expect(meta.get('qwen35.rope.dimension_sections')).toEqual([11, 11, 10, 0]);
    expect(meta.get('qwen35.ssm.conv_kernel')).toBe(4);
    expect(meta.get('qwen35.ssm.state_size')).toBe(128);
    expect(meta.get('qwen35.ssm.group_count')).toBe(16);
    expect(meta.get('qwen35.ssm.time_step_rank')).toBe(16);
    expect(meta.get('qwen35.ssm.inner_size')).toBe(2048);
  });

  it('refuses rope sections that do not fit the rotary dimensions', () => {
    expect(() => qwen35Metadata({ ...TINY_QWEN35, ropeSections: [11, 11, 10, 0] })).toThrow(/rope sections/);
  });
});
