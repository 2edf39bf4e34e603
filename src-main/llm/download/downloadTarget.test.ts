import { describe, expect, it } from 'vitest';
import { huggingFaceEndpoint, resolveDownloadTarget, safeFileName } from './downloadTarget.js';

describe('resolveDownloadTarget', () => {
  it('resolves an hf: file URI to its Hugging Face resolve URL, on main unless a branch is named', () => {
    expect(resolveDownloadTarget('hf:qvac/BotPsy-0.8B-GGUF/BotPsy-0.8B-Q8_0.gguf', 'https://huggingface.co/')).toEqual({
      uri: 'hf:qvac/BotPsy-0.8B-GGUF/BotPsy-0.8B-Q8_0.gguf',
      url: 'https://huggingface.co/qvac/BotPsy-0.8B-GGUF/resolve/main/BotPsy-0.8B-Q8_0.gguf',
      fileName: 'BotPsy-0.8B-Q8_0.gguf',
    });
    expect(resolveDownloadTarget('hf://o/r/sub/dir/m.gguf#v2', 'http://127.0.0.1:9/').url).toBe(
      'http://127.0.0.1:9/o/r/resolve/v2/sub/dir/m.gguf',
    );
  });

  it('takes http(s) URLs of .gguf files as they are', () => {
    expect(resolveDownloadTarget('https://example.com/models/My%20Model.gguf?download=1')).toEqual({
      uri: 'https://example.com/models/My%20Model.gguf?download=1',
      url: 'https://example.com/models/My%20Model.gguf?download=1',
      fileName: 'My_Model.gguf',
    });
  });

  it('refuses what it cannot download, saying what to write instead', () => {
    expect(() => resolveDownloadTarget('hf:owner/repo')).toThrow(
      /does not name a file.*hf:owner\/repository\/file\.gguf/,
    );
    expect(() => resolveDownloadTarget('hf:owner/repo:Q4_K_M')).toThrow(/does not name a file/);
    expect(() => resolveDownloadTarget('hf:o/r/../x.gguf')).toThrow(/does not name a file/);
    expect(() => resolveDownloadTarget('file:///etc/passwd')).toThrow(/not a model address/);
    expect(() => resolveDownloadTarget('/home/me/model.gguf')).toThrow(/not a model address/);
    expect(() => resolveDownloadTarget('https://example.com/model.safetensors')).toThrow(/GGUF model files only/);
  });
});

describe('huggingFaceEndpoint', () => {
  it('prefers the explicit endpoint, then MODEL_ENDPOINT, then HF_ENDPOINT, and ends it with a slash', () => {
    expect(huggingFaceEndpoint(undefined, {})).toBe('https://huggingface.co/');
    expect(huggingFaceEndpoint(undefined, { HF_ENDPOINT: 'https://mirror.example' })).toBe('https://mirror.example/');
    expect(huggingFaceEndpoint(undefined, { MODEL_ENDPOINT: 'http://a/', HF_ENDPOINT: 'http://b/' })).toBe('http://a/');
    expect(huggingFaceEndpoint('http://127.0.0.1:1', { HF_ENDPOINT: 'http://b/' })).toBe('http://127.0.0.1:1/');
    expect(huggingFaceEndpoint(undefined, { HF_ENDPOINT: 'not a url' })).toBe('https://huggingface.co/');
  });
});

describe('safeFileName', () => {
  it('keeps names portable and never hidden or empty', () => {
    expect(safeFileName('BotPsy-0.8B-Q8_0.gguf')).toBe('BotPsy-0.8B-Q8_0.gguf');
    expect(safeFileName('a b/c:d.gguf')).toBe('a_b_c_d.gguf');
    expect(safeFileName('..hidden.gguf')).toBe('hidden.gguf');
    expect(safeFileName('')).toBe('model.gguf');
  });
});
