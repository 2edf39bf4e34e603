import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  ftruncateSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { HomebodyError } from '../../../src-shared/contract/index.js';
import { inspectGguf, openError } from './ggufInspect.js';

const dir = mkdtempSync(join(tmpdir(), 'hb-gguf-'));
const model = inject('tinyModelPath');

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof HomebodyError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'no error';
}

describe('inspectGguf', () => {
  it('reads a generated model: architecture, name, context length and the bytes its tensors need', () => {
    const summary = inspectGguf(model);
    expect(summary.architecture).toBe('qwen3');
    expect(summary.name).toMatch(/synthetic/);
    expect(summary.contextLength).toBe(8192);
    expect(summary.metadata.get('homebody.synthetic')).toBe(true);
    expect(summary.requiredBytes).toBeLessThanOrEqual(summary.fileBytes);
    expect(summary.requiredBytes).toBeGreaterThan(summary.fileBytes - 64);
  });

  it('names a missing file', () => {
    expect(codeOf(() => inspectGguf(join(dir, 'nope.gguf')))).toMatch(
      /^MODEL_NOT_FOUND: No model file at .*nope\.gguf/,
    );
  });

  it('names a folder', () => {
    const folder = join(dir, 'folder.gguf');
    mkdirSync(folder);
    expect(codeOf(() => inspectGguf(folder))).toMatch(/^MODEL_UNREADABLE: .*is a folder/);
  });

  it('names a file it may not read (permission errors as the OS reports them)', () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    expect(openError('/m/a.gguf', denied).toJSON()).toEqual({
      code: 'MODEL_UNREADABLE',
      message: 'Homebody is not allowed to read /m/a.gguf (permission denied).',
    });
  });

  it('refuses files that are not GGUF, empty ones included', () => {
    const text = join(dir, 'notes.gguf');
    writeFileSync(text, 'just some text that is long enough to have a header');
    expect(codeOf(() => inspectGguf(text))).toMatch(/^MODEL_NOT_GGUF: .*not a GGUF model file/);
    const empty = join(dir, 'empty.gguf');
    writeFileSync(empty, '');
    expect(codeOf(() => inspectGguf(empty))).toMatch(/^MODEL_NOT_GGUF/);
  });

  it('names a truncated file, cut in the tensor data or in the header', () => {
    for (const keep of [statSync(model).size - 1000, 5000]) {
      const cut = join(dir, `cut-${keep}.gguf`);
      copyFileSync(model, cut);
      const fd = openSync(cut, 'r+');
      ftruncateSync(fd, keep);
      closeSync(fd);
      expect(codeOf(() => inspectGguf(cut))).toMatch(/^MODEL_TRUNCATED: .*incomplete: it has \d+ bytes/);
    }
  });

  it('refuses an unknown GGUF version', () => {
    const path = join(dir, 'v9.gguf');
    const header = Buffer.alloc(24);
    header.write('GGUF', 0, 'latin1');
    header.writeUInt32LE(9, 4);
    writeFileSync(path, header);
    expect(codeOf(() => inspectGguf(path))).toMatch(/^MODEL_UNSUPPORTED: .*version 9/);
  });
});
