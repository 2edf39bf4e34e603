import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDownloadTarget } from '../../llm/download/downloadTarget.js';
import { loadCatalog } from './catalog.js';

describe('loadCatalog', () => {
  it('offers BotPsy in Q4, Q8 and bf16 and its base Qwen3.5 0.8B from resources/', () => {
    const catalog = loadCatalog();
    expect(catalog.map((m) => m.id)).toEqual([
      'botpsy-0.8b-q4',
      'botpsy-0.8b-q8',
      'botpsy-0.8b-bf16',
      'qwen3.5-0.8b-q8',
    ]);
    expect(catalog.every((m) => m.uri.startsWith('hf:') && m.uri.endsWith('.gguf'))).toBe(true);
    const ids = new Set(catalog.map((m) => m.id));
    expect(catalog.every((m) => m.baseId === null || ids.has(m.baseId))).toBe(true);
    // Every entry is downloadable as written (its address is checked again, by the server, at download).
    for (const m of catalog) expect(resolveDownloadTarget(m.uri).fileName).toMatch(/\.gguf$/);
  });

  it('names what is wrong with a broken catalog', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hb-cat-')), 'catalog.json');
    writeFileSync(path, JSON.stringify({ version: 1, models: [{ id: 'x' }] }));
    expect(() => loadCatalog(path)).toThrowError(/not a valid model catalog.*models/s);
  });
});
