import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';

describe('loadCatalog', () => {
  it('offers BotPsy in Q4, Q8 and bf16 from resources/', () => {
    const catalog = loadCatalog();
    expect(catalog.map((m) => m.quantization)).toEqual(['Q4_K_M', 'Q8_0', 'BF16']);
    expect(catalog.every((m) => m.uri.startsWith('hf:') && m.availability === 'download-later')).toBe(true);
  });

  it('names what is wrong with a broken catalog', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hb-cat-')), 'catalog.json');
    writeFileSync(path, JSON.stringify({ version: 1, models: [{ id: 'x' }] }));
    expect(() => loadCatalog(path)).toThrowError(/not a valid model catalog.*models/s);
  });
});
