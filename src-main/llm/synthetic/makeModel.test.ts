import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chatTemplateFile } from '../chatTemplates/chatTemplates.js';
import { GgmlType } from '../gguf/ggufFormat.js';
import { inspectGguf } from '../gguf/ggufInspect.js';
import { randomTensor } from './syntheticTensors.js';
import {
  CHAT_TEMPLATE_NAME_KEY,
  MODEL_PRESETS,
  defaultChatTemplate,
  makeModel,
  type ModelPreset,
} from './makeModel.js';

const dir = mkdtempSync(join(tmpdir(), 'hb-make-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the chat template a generated model carries', () => {
  it('is Qwen3.5’s for the qwen35 presets and Qwen3’s for the qwen3 presets unless another is asked for', () => {
    const defaults = Object.fromEntries(
      (Object.keys(MODEL_PRESETS) as ModelPreset[]).map((preset) => [preset, defaultChatTemplate(preset)]),
    );
    expect(defaults).toEqual({
      tiny: 'qwen3',
      'qwen3-0.6b': 'qwen3',
      'tiny-qwen35': 'qwen3.5',
      'qwen3.5-0.8b': 'qwen3.5',
    });
  });

  it('is written into the GGUF with its name: the qwen35 default', () => {
    const qwen35 = makeModel({ preset: 'tiny-qwen35', quant: 'q4_0', seed: 1, out: join(dir, 'qwen35.gguf') });
    expect(qwen35.template).toBe('qwen3.5');
    const written = inspectGguf(qwen35.path).metadata;
    expect(written.get('tokenizer.chat_template')).toBe(chatTemplateFile('qwen3.5'));
    expect(written.get(CHAT_TEMPLATE_NAME_KEY)).toBe('qwen3.5');
  });

  it('is written into the GGUF with its name: a template asked for', () => {
    const off = makeModel({
      preset: 'tiny',
      quant: 'q4_0',
      seed: 1,
      out: join(dir, 'thinking-off.gguf'),
      template: 'qwen3.5-thinking-off',
    });
    const offMetadata = inspectGguf(off.path).metadata;
    expect(offMetadata.get('general.architecture')).toBe('qwen3');
    expect(offMetadata.get('tokenizer.chat_template')).toBe(chatTemplateFile('qwen3.5-thinking-off'));
    expect(offMetadata.get(CHAT_TEMPLATE_NAME_KEY)).toBe('qwen3.5-thinking-off');
  });
});

describe("a generated model's vocabulary padding", () => {
  /** The values a tensor source writes, as f32. */
  const valuesOf = (source: ReturnType<typeof randomTensor>): Float32Array => {
    const parts: Uint8Array[] = [];
    source.write((bytes) => parts.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice()));
    const all = Buffer.concat(parts);
    return new Float32Array(all.buffer, all.byteOffset, all.byteLength / 4);
  };

  it('has zero embedding rows, so its logits never beat a real token; the real rows are as without padding', () => {
    const [cols, rows, real] = [8, 600, 513];
    const padded = valuesOf(randomTensor('token_embd.weight', [cols, rows], GgmlType.F32, 1, real));
    const plain = valuesOf(randomTensor('token_embd.weight', [cols, rows], GgmlType.F32, 1));
    expect(padded.subarray(0, real * cols)).toEqual(plain.subarray(0, real * cols));
    expect(padded.subarray(real * cols).every((v) => v === 0)).toBe(true);
    expect(plain.subarray(real * cols).some((v) => v !== 0)).toBe(true);
  });
});
